"""engine.pegging: points for the card just laid in the play."""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    try:
        from micropython import const
    except ImportError:  # CPython with no stand-ins: a constant is its int
        const = int  # type: ignore[assignment]

from engine.cards import RANK, VALUE, parse_card
from engine.errors import OverThirtyOne

MAX_COUNT = const(31)
_FIFTEEN = const(15)
# The pairs of 2, 3 or 4 cards of one rank, by that number (the show says them so too).
PAIR_NAMES = ("", "", "pair", "pair royal", "double pair royal")


def pile_count(pile):
    total = 0
    for c in pile:
        total += VALUE[c]
    return total


def peg_reasons(pile):
    """[(reason, points)] for the last card of `pile` (the series since the reset)."""
    cards = [parse_card(c) for c in pile]
    if not cards:
        return []
    count = pile_count(cards)
    if count > MAX_COUNT:
        raise OverThirtyOne("the count is %d; the limit is %d" % (count, MAX_COUNT))
    return laid_reasons(cards, count)


def laid_reasons(cards, count):
    """peg_reasons of a pile already of card ints, not empty, whose count is `count`."""
    reasons = []
    if count == _FIFTEEN:
        reasons.append(("fifteen", 2))
    elif count == MAX_COUNT:
        reasons.append(("thirty-one", 2))
    ranks = [RANK[c] for c in cards]
    last = ranks[-1]
    same = 1
    i = len(ranks) - 2
    while i >= 0 and ranks[i] == last:
        same += 1
        i -= 1
    if same > 1:
        reasons.append((PAIR_NAMES[same], same * (same - 1)))  # 2, 6 or 12
    n = len(ranks)
    while n >= 3:
        tail = ranks[-n:]
        lo = min(tail)
        seen = 0
        for r in tail:
            seen |= 1 << (r - lo)
        if seen == (1 << n) - 1:  # n distinct consecutive ranks
            reasons.append(("run of %d" % n, n))
            break
        n -= 1
    return reasons


def peg_points(pile):
    """Points for the card just laid: 15, 31, pairs, runs (not go or last)."""
    total = 0
    for _, points in peg_reasons(pile):
        total += points
    return total
