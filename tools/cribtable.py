"""tools/cribtable.py: make the board's table of crib averages, and measure what it costs.

    python tools/cribtable.py                  # the table as a grid of averages
    python tools/cribtable.py --check          # exit 1 unless engine/cribtable.py holds it
    python tools/cribtable.py --write          # (re)write the table into engine/cribtable.py
    python tools/cribtable.py --compare 10000  # the board's advice against the exact one

Each entry is the exact crib average of the laid cards alone, by engine.discard's
count over every deal from the rest of the deck: two laid cards (169 entries: 91
rank pairs of two suits, 78 of one suit) with 50 x C(49,2) = 58,800 deals each;
one laid card (13 entries, three or four players) with 51 x C(50,3) = 999,600.
Each average is stored rounded (halves up) to 1/SCALE of a point, in 3 bytes.
"""

try:  # the root and lib/ on sys.path: tools/_entry.py
    import tools._entry  # noqa: F401  (python -m tools.x, or the tests)
except ImportError:  # python tools/x.py: tools/ is first on sys.path
    import _entry  # noqa: F401  (loaded for its effect)

import argparse
import os
import random
import sys
import time

from engine import cribtable, discard
from engine.cards import RANKS, make_card
from engine.rules import PLAYERS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODULE = os.path.join(ROOT, "engine", "cribtable.py")
BEGIN = "# --- table: made by tools/cribtable.py ---\n"
END = "# --- end of table ---\n"
PER_LINE = 16  # bytes a source line


def exact_crib(laid, memo):
    """(crib points summed over every deal, deals) for the laid cards alone."""
    pool = discard.Unseen([c for c in range(52) if c not in laid])
    draw = discard.crib_draw(len(laid))
    deals = pool.size * discard.choose(pool.size - 1, draw - 1)
    return discard.crib_total(laid, pool, draw, memo), deals


def entries():
    """[(entry index, laid cards)] for every entry of the table."""
    out = []
    for lo in range(1, 14):
        for hi in range(lo, 14):
            out.append(((lo - 1) * 13 + hi - 1, [make_card(lo, 0), make_card(hi, 1)]))
            if lo != hi:
                out.append(((hi - 1) * 13 + lo - 1, [make_card(lo, 0), make_card(hi, 0)]))
    for rank in range(1, 14):
        out.append((cribtable.PAIRS + rank - 1, [make_card(rank, 0)]))
    return out


def build():
    """The table's bytes."""
    values = [0] * (cribtable.PAIRS + cribtable.SINGLES)
    memo = {}
    for at, laid in entries():
        total, deals = exact_crib(laid, memo)
        assert cribtable.entry_of(laid) == at
        values[at] = (2 * total * cribtable.SCALE + deals) // (2 * deals)
    out = bytearray()
    for v in values:
        assert 0 <= v < 1 << 24
        out += bytes((v >> 16, v >> 8 & 255, v & 255))
    return bytes(out)


def render(table):
    """The source text between the module's markers."""
    lines = [BEGIN, "TABLE = (\n"]
    for at in range(0, len(table), PER_LINE):
        chunk = table[at:at + PER_LINE]
        lines.append('    b"%s"\n' % "".join("\\x%02x" % b for b in chunk))
    lines.append(")\n")
    lines.append(END)
    return "".join(lines)


def _split(text):
    start = text.index(BEGIN)
    end = text.index(END) + len(END)
    return text[:start], text[start:end], text[end:]


def grid(table):
    """The averages as text: a 13 x 13 grid (of two suits above the diagonal,
    of one below it), then one laid card."""
    def points(at):
        v = table[3 * at] << 16 | table[3 * at + 1] << 8 | table[3 * at + 2]
        return discard.points_text(v, cribtable.SCALE)
    names = [("10" if r == 10 else RANKS[r - 1]) for r in range(1, 14)]
    lines = ["crib averages, two laid cards (row, column): two suits above the "
             "diagonal and on it, one suit below", "     " + "".join("%6s" % n for n in names)]
    for row in range(13):
        cells = "".join("%6s" % points(row * 13 + col) for col in range(13))
        lines.append("%5s" % names[row] + cells)
    lines.append("one laid card (three or four players):")
    lines.append("     " + "".join("%6s" % n for n in names))
    lines.append("     " + "".join("%6s" % points(cribtable.PAIRS + r) for r in range(13)))
    return "\n".join(lines)


def compare(hands, players=2, seed=2024):
    """The board's best choice against the exact best over random deals, for
    the dealer and the pone: {side: [deals, a different lay-away, one worth
    less, points lost in all, the most lost]}, points as Fractions."""
    from fractions import Fraction
    dealt, laid = discard.deal_shape(players)
    rng = random.Random(seed)
    out = {side: [0, 0, 0, Fraction(0), Fraction(0)] for side in ("dealer", "pone")}
    for _ in range(hands):
        cards = rng.sample(range(52), dealt)
        exact = discard.advise(cards, players, True)
        order = [pair[0] for pair in discard.lay_aways(cards, laid)]
        in_order = sorted(exact.choices, key=lambda c: order.index(c.laid))
        for side, own in (("dealer", True), ("pone", False)):
            sign = 1 if own else -1
            worth = {}
            for c in in_order:
                worth[c.laid] = Fraction(c.hand + sign * c.crib, exact.denominator)
            mine = [c._replace(expected=c.hand + sign * c.crib) for c in in_order]
            best = discard.ranked(mine)[0]
            picked = cribtable.advise(cards, players, own).choices[0]
            lost = worth[best.laid] - worth[picked.laid]
            tally = out[side]
            tally[0] += 1
            tally[1] += picked.laid != best.laid
            if lost > 0:
                tally[2] += 1
                tally[3] += lost
                tally[4] = max(tally[4], lost)
    return out


def compare_report(results, players, seconds):
    lines = []
    for side in ("dealer", "pone"):
        n, differ, worse, lost, most = results[side]
        mean_lost = float(lost / worse) if worse else 0.0
        lines.append("%s, %d players, %d random deals: the board lays away other cards in %d "
                     "(%.2f%%), worth less in %d (%.2f%%); lost when worse %.4f points on "
                     "average, %.4f at most; %.5f a deal overall"
                     % (side, players, n, differ, 100.0 * differ / n, worse, 100.0 * worse / n,
                        mean_lost, float(most), float(lost / n)))
    lines.append("(%.1f s)" % seconds)
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tools/cribtable.py", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless the module holds this table")
    parser.add_argument("--write", action="store_true",
                        help="write the table into engine/cribtable.py")
    parser.add_argument("--compare", type=int, metavar="HANDS",
                        help="compare the board's advice with the exact one")
    parser.add_argument("--players", type=int, default=2, choices=PLAYERS, help="for --compare")
    parser.add_argument("--seed", type=int, default=2024, help="for --compare")
    args = parser.parse_args(argv)
    if args.compare:
        start = time.perf_counter()
        results = compare(args.compare, args.players, args.seed)
        print(compare_report(results, args.players, time.perf_counter() - start))
        return 0
    table = build()
    if args.check or args.write:
        with open(MODULE, encoding="utf-8") as f:
            text = f.read()
        head, block, tail = _split(text)
        if args.write:
            if block != render(table):
                with open(MODULE, "w", encoding="utf-8") as f:
                    f.write(head + render(table) + tail)
            print("engine/cribtable.py: %d bytes of table" % len(table))
            return 0
        if block != render(table) or cribtable.TABLE != table:
            sys.stderr.write("engine/cribtable.py does not hold the table this tool makes: "
                             "run python tools/cribtable.py --write\n")
            return 1
        print("engine/cribtable.py holds the table (%d bytes)" % len(table))
        return 0
    print(grid(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
