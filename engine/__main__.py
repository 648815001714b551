"""python -m engine count 4C 5D 5H 6S KC [--crib] [--json]: count a show.

The last card is the starter. Laptop-only (argparse, json); the board never
imports this module.
"""

import argparse
import json
import sys

from engine.cards import card_name, parse_cards
from engine.show import score_show


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("error: %s\n" % message)
        sys.exit(2)


def main(argv=None):
    parser = _Parser(prog="python -m engine", description="Cribbage rules engine tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    count = sub.add_parser("count", help="count a hand or crib: 4 cards then the starter")
    count.add_argument("cards", nargs="+", help="e.g. 4C 5D 5H 6S KC (10D, TD, Q♠ also work)")
    count.add_argument("--crib", action="store_true", help="count as the crib (flush needs all 5)")
    count.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    try:
        cards = parse_cards(args.cards)
        if not 4 <= len(cards) - 1 <= 6:
            raise ValueError("give 4, 5 or 6 cards and then the starter, not %d cards" % len(cards))
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
