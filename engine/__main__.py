"""python -m engine count 4C 5D 5H 6S KC [--crib] [--json]: count a show.

The last card is the starter; the hand is 3 to 6 cards (five-card, standard,
seven-card, shotgun), a crib 4. A laptop tool; the board never imports this module.
"""

import json
import sys

from engine.cards import card_name, parse_cards
from engine.rules import CRIB_SIZE, VARIANT_NAMES, hand_size, make_config
from engine.show import score_show

# The hand sizes the variants play: 3 (five-card) to 6 (shotgun).
_SIZES = [hand_size(make_config(variant=v)) for v in range(len(VARIANT_NAMES))]
MIN_HAND, MAX_HAND = min(_SIZES), max(_SIZES)

USAGE = """usage: python -m engine count CARD CARD CARD [CARD CARD CARD] STARTER [--crib] [--json]

Count a hand of 3 to 6 cards, or a crib of 4, with the starter (the last card),
e.g. 4C 5D 5H 6S KC; 10D, TD and Q\u2665 spell cards too.
  --crib   count as the crib (4 cards; a flush needs all five)
  --json   print JSON
"""


class _Args:
    """The few options this tool has, read by hand so the package stays free of
    modules CircuitPython lacks."""

    def __init__(self, argv):
        self.crib = self.json = self.help = False
        self.cards = []
        words = list(argv)
        self.command = words.pop(0) if words and not words[0].startswith("-") else None
        for word in words:
            if word == "--crib":
                self.crib = True
            elif word == "--json":
                self.json = True
            elif word in ("-h", "--help"):
                self.help = True
            elif word.startswith("--"):
                raise ValueError("unknown option %s" % word)
            else:
                self.cards.append(word)


def _usage_error(message):
    sys.stderr.write(USAGE.splitlines()[0] + "\n")
    sys.stderr.write("error: %s\n" % message)
    return 2


def main(argv=None):
    try:
        args = _Args(sys.argv[1:] if argv is None else argv)
    except ValueError as err:
        return _usage_error(str(err))
    if args.help:
        sys.stdout.write(USAGE)
        return 0
    if args.command != "count":
        return _usage_error("the command is count" if args.command else "give a command: count")
    if not args.cards:
        return _usage_error("count needs the cards")
    try:
        cards = parse_cards(args.cards)
        if not MIN_HAND <= len(cards) - 1 <= MAX_HAND:
            raise ValueError("give 3 to 6 cards and then the starter, not %d cards" % len(cards))
        if args.crib and len(cards) - 1 != CRIB_SIZE:
            raise ValueError("a crib is 4 cards and the starter, not %d cards" % len(cards))
    except ValueError as err:
        sys.stderr.write("error: %s\n" % err)
        return 2
    hand, starter = cards[:-1], cards[-1]
    show = score_show(hand, starter, crib=args.crib)
    if args.json:
        print(json.dumps({
            "hand": [card_name(c) for c in hand],
            "starter": card_name(starter),
            "crib": args.crib,
            "total": show.total,
            "items": [{"kind": i.kind, "cards": [card_name(c) for c in i.cards],
                       "points": i.points} for i in show.items],
            "spoken": show.spoken,
        }))
    else:
        print("%s | %s%s" % (" ".join(card_name(c) for c in hand), card_name(starter),
                             "  (crib)" if args.crib else ""))
        for item in show.items:
            print("  %-8s %-18s %2d" % (item.kind, " ".join(card_name(c) for c in item.cards), item.points))
        print("  total %d: %s" % (show.total, show.spoken))
    return 0


if __name__ == "__main__":
    sys.exit(main())
