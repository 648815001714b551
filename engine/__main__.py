"""python -m engine count 4C 5D 5H 6S KC [--crib] [--json]: count a show.
python -m engine discard 5H 5D JS 6C 4D KH [--dealer|--pone] [--players N]
[--variant NAME] [--json]: which cards to lay away.

For count the last card is the starter; the hand is 3 to 6 cards (five-card,
standard, seven-card, shotgun), a crib 4. A laptop tool; the board never imports
this module.
"""

import json
import os
import sys

from engine import discard
from engine.cards import card_name, parse_cards
from engine.rules import (CRIB_SIZE, PLAYERS, STANDARD, VARIANT_NAMES, hand_size, make_config,
                          one_of)
from engine.show import score_show

# The hand sizes the variants play: 3 (five-card) to 6 (shotgun).
_SIZES = [hand_size(make_config(variant=v)) for v in range(len(VARIANT_NAMES))]
MIN_HAND, MAX_HAND = min(_SIZES), max(_SIZES)
STANDARD_HAND = _SIZES[STANDARD]
# The status a shell gives a Unix tool whose reader stopped early (128 + SIGPIPE).
PIPE_CLOSED = 141

USAGE = """usage: python -m engine count CARD CARD CARD [CARD CARD CARD] STARTER [--crib] [--json]
       python -m engine discard CARD... [--dealer | --pone] [--players N] [--variant NAME] [--json]

Count a hand of 3 to 6 cards, or a crib of 4, with the starter (the last card),
e.g. 4C 5D 5H 6S KC; 10D, TD and Q\u2665 spell cards too.
  --crib   count as the crib (4 cards; a flush needs all five)
  --json   print JSON

Rank every way to lay away the cards dealt, e.g. 5H 5D JS 6C 4D KH, by the
expected points: the hand's average over every starter, plus the crib's
average when the crib is yours, less it when not.
  --dealer            the crib is yours (or your partner's); the default
  --pone              the crib is not yours
  --players N         2, 3 or 4 (two teams); 3 and 4 deal 5 and lay 1 away
  --variant NAME      standard, five-card (deal 5, lay 2), seven-card (deal 7,
                      lay 2) or lowball (the fewest points are best); shotgun
                      has no crib
  --json              print JSON, with the exact fractions
"""
COMMANDS = ("count", "discard")
# Options each command takes, and those that take a value.
OPTIONS = {"count": ("--crib", "--json"),
           "discard": ("--dealer", "--pone", "--players", "--variant", "--json")}
VALUED = ("--players", "--variant")


class _Args:
    """The few options this tool has, read by hand so the package stays free of
    modules CircuitPython lacks."""

    def __init__(self, argv):
        self.crib = self.json = self.help = False
        self.dealer = self.pone = False
        self.players = "2"
        self.variant = VARIANT_NAMES[STANDARD]
        self.cards = []
        words = list(argv)
        self.command = words.pop(0) if words and not words[0].startswith("-") else None
        allowed = OPTIONS.get(self.command or "count", OPTIONS["count"])
        while words:
            word = words.pop(0)
            name, _, value = word.partition("=")
            if word in ("-h", "--help"):
                self.help = True
            elif name in allowed and name in VALUED:
                if not value:
                    if not words or words[0].startswith("--"):
                        raise ValueError("%s needs a value" % name)
                    value = words.pop(0)
                setattr(self, name[2:], value)
            elif word in allowed:
                setattr(self, word[2:], True)
            elif word.startswith("--"):
                raise ValueError("unknown option %s" % word)
            else:
                self.cards.append(word)


def _usage_error(message, command="count"):
    line = USAGE.splitlines()[COMMANDS.index(command)]
    sys.stderr.write("usage: " + line[len("usage: "):].lstrip() + "\n")
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
    if args.command == "discard":
        return _discard(args)
    if args.command != "count":
        return _usage_error("the command is count or discard" if args.command
                            else "give a command: count or discard")
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
    if len(hand) != STANDARD_HAND:
        # The cards may be a bigger hand with its starter forgotten: say how they were read.
        note = "note: counted %s as a %d-card hand (%s) with %s as the starter" % (
            " ".join(card_name(c) for c in hand), len(hand),
            VARIANT_NAMES[_SIZES.index(len(hand))], card_name(starter))
        if len(cards) <= MAX_HAND:
            note += "; a %d-card hand needs its starter after it" % len(cards)
        sys.stderr.write(note + "\n")
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
            names = " ".join(card_name(c) for c in item.cards)
            print("  %-8s %-18s %2d" % (item.kind, names, item.points))
        print("  total %d: %s" % (show.total, show.spoken))
    return 0


def _discard(args):
    if not args.cards:
        return _usage_error("discard needs the cards dealt", "discard")
    if args.dealer and args.pone:
        return _usage_error("give --dealer or --pone, not both", "discard")
    if args.players not in [str(n) for n in PLAYERS]:
        return _usage_error("--players is %s, not %s" % (one_of(PLAYERS), args.players), "discard")
    if args.variant not in VARIANT_NAMES:
        return _usage_error("--variant is one of %s, not %s"
                            % (", ".join(VARIANT_NAMES), args.variant), "discard")
    players = int(args.players)
    variant = VARIANT_NAMES.index(args.variant)
    own = not args.pone
    try:
        advice = discard.advise(args.cards, players, own, variant)
    except ValueError as err:
        sys.stderr.write("error: %s\n" % err)
        return 2
    cards = parse_cards(args.cards)
    den = advice.denominator
    if args.json:
        def exact(n):
            return discard.fraction_text(n, den)
        print(json.dumps({
            "cards": [card_name(c) for c in cards], "players": players,
            "variant": args.variant, "own_crib": own,
            "starters": advice.starters, "deals": advice.deals,
            "choices": [{"laid": [card_name(c) for c in choice.laid],
                         "kept": [card_name(c) for c in choice.kept],
                         "hand": choice.hand / den, "crib": choice.crib / den,
                         "expected": choice.expected / den,
                         "exact": {"hand": exact(choice.hand), "crib": exact(choice.crib),
                                   "expected": exact(choice.expected)}}
                        for choice in advice.choices],
        }))
        return 0
    rows = [(" ".join(card_name(c) for c in choice.laid),
             " ".join(card_name(c) for c in choice.kept),
             discard.points_text(choice.hand, den), discard.points_text(choice.crib, den),
             discard.points_text(choice.expected, den)) for choice in advice.choices]
    laid_width = max([len(row[0]) for row in rows] + [len("lay away")]) + 2
    kept_width = max([len(row[1]) for row in rows] + [len("keep")]) + 1
    print("%s: %d players, %s%s" % (" ".join(card_name(c) for c in cards), players,
                                    "your crib" if own else "their crib",
                                    "" if variant == STANDARD else ", " + args.variant))
    print("  %-*s%-*s%6s %6s %9s" % (laid_width, "lay away", kept_width, "keep",
                                     "hand", "crib", "expected"))
    for row in rows:
        print("  %-*s%-*s%6s %6s %9s" % ((laid_width, row[0], kept_width) + row[1:]))
    print("hand: its mean over %d starters; crib: its mean over %s deals (his heels left out);"
          % (advice.starters, "{:,}".format(advice.deals)))
    lowball = ", the lowest best (lowball)" if args.variant == "lowball" else ""
    print("expected = hand %s crib%s" % ("+" if own else "-", lowball))
    return 0


def run(command, argv=None):
    """command(argv)'s exit status, its output flushed; PIPE_CLOSED, with no
    traceback, when the reader stops early (`| head`), as a Unix tool ends."""
    try:
        status = command(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # Nobody reads on: later writes (Python's own flush at exit) go nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return PIPE_CLOSED
    return status


if __name__ == "__main__":
    sys.exit(run(main))
