"""tools/handstats.py: the exact score distribution of every deal of 4 cards and a starter.

    python tools/handstats.py          # the table, hands and cribs, with the means
    python tools/handstats.py --json

All 12,994,800 deals (C(52,4) hands x 48 starters) are counted, not sampled,
in well under a second: fifteens, pairs and runs depend only on ranks, so the
tool walks the 1,820 multisets of 4 hand ranks times 13 starter ranks, scores
each once with engine.show.score_ranks, and counts the suit assignments that
realise it. Only a flush and his nobs depend on suits; how many assignments
give which flush and nobs points depends only on the shape of the ranks (how
many of each, which are jacks, how many share the starter's rank), so that
split is worked out once per shape by going through its suits, and memoised.
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.cards import JACK, make_card  # noqa: E402
from engine.show import MAX_HAND, score_flush, score_nobs, score_ranks  # noqa: E402

RANKS = range(1, 14)
SUITS = 4
DEALS = 270725 * 48  # C(52, 4) hands, 48 starters each
_CHOOSE4 = (1, 4, 6, 4, 1)  # C(4, m)


def _suit_sets(m):
    """Every set of m distinct suits, as tuples."""
    out = []
    for mask in range(1 << SUITS):
        suits = tuple(s for s in range(SUITS) if mask >> s & 1)
        if len(suits) == m:
            out.append(suits)
    return out


def _shape(counts, starter):
    """What the flush/nobs split depends on: (starter is a jack, cards of the
    starter's rank in the hand, jacks in the hand, other multiplicities)."""
    others = sorted(m for r, m in counts.items() if r != starter and r != JACK)
    return (starter == JACK, counts.get(starter, 0), counts.get(JACK, 0), tuple(others))


def _suit_split(shape):
    """({extra points: suit assignments} for a hand, the same for a crib)."""
    starter_jack, same, jacks, others = shape
    # A representative: jacks are 11, the starter's rank 1 (or 11), others 2, 3, ...
    ranks = []
    if starter_jack:
        starter = JACK
        ranks.append((JACK, jacks))
    else:
        starter = 1
        if jacks:
            ranks.append((JACK, jacks))
        if same:
            ranks.append((1, same))
    for i, m in enumerate(others):
        ranks.append((2 + i, m))
    choices = [[]]
    for rank, m in ranks:
        choices = [hand + [make_card(rank, s) for s in suits]
                   for hand in choices for suits in _suit_sets(m)]
    hand_split, crib_split = {}, {}
    for hand in choices:
        taken = [c % SUITS for c in hand if c // 4 + 1 == starter]
        for suit in range(SUITS):
            if suit in taken:
                continue
            card = make_card(starter, suit)
            nobs = score_nobs(hand, card)
            extra = score_flush(hand, card) + nobs
            hand_split[extra] = hand_split.get(extra, 0) + 1
            extra = score_flush(hand, card, True) + nobs
            crib_split[extra] = crib_split.get(extra, 0) + 1
    return hand_split, crib_split


def _rank_multisets():
    """Every multiset of 4 ranks, as a sorted list: 1,820 of them."""
    out = []
    for a in RANKS:
        for b in range(a, 14):
            for c in range(b, 14):
                for d in range(c, 14):
                    out.append([a, b, c, d])
    return out


def distribution(starter_ranks=RANKS):
    """(hand counts, crib counts): deals scoring 0..29, starters of `starter_ranks`."""
    hands = [0] * (MAX_HAND + 1)
    cribs = [0] * (MAX_HAND + 1)
    memo = {}
    for ranks in _rank_multisets():
        counts = {}
        for r in ranks:
            counts[r] = counts.get(r, 0) + 1
        for starter in starter_ranks:
            if counts.get(starter, 0) == 4:
                continue
            base = score_ranks(ranks + [starter])
            shape = _shape(counts, starter)
            split = memo.get(shape)
            if split is None:
                split = memo[shape] = _suit_split(shape)
            hand_split, crib_split = split
            for extra, n in hand_split.items():
                hands[base + extra] += n
            for extra, n in crib_split.items():
                cribs[base + extra] += n
    return hands, cribs


def mean(counts):
    total = 0
    for score, n in enumerate(counts):
        total += score * n
    return total / sum(counts)


def report(hands, cribs, seconds):
    lines = ["score        hands        cribs"]
    for score in range(len(hands)):
        lines.append("%5d %12d %12d" % (score, hands[score], cribs[score]))
    lines.append("total %12d %12d" % (sum(hands), sum(cribs)))
    lines.append("mean  %12.6f %12.6f" % (mean(hands), mean(cribs)))
    lines.append("never scored: %s" % ", ".join(str(s) for s in range(len(hands)) if not hands[s]))
    lines.append("%d deals counted exactly in %.3f s" % (sum(hands), seconds))
    return "\n".join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv not in ([], ["--json"]):
        sys.stderr.write("usage: python tools/handstats.py [--json]\n")
        return 2
    start = time.perf_counter()
    hands, cribs = distribution()
    seconds = time.perf_counter() - start
    if argv:
        print(json.dumps({"deals": sum(hands), "hand": hands, "crib": cribs,
                          "hand_mean": round(mean(hands), 6), "crib_mean": round(mean(cribs), 6),
                          "seconds": round(seconds, 3)}))
    else:
        print(report(hands, cribs, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
