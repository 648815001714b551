"""tools/handstats.py: the exact score distribution of every deal, and the caps it gives.

    python tools/handstats.py              # 4-card hands and cribs, with the means
    python tools/handstats.py --cards 6    # hands of 3, 4, 5 or 6 cards (and the starter)
    python tools/handstats.py --caps       # per hand size: highest hand, crib and peg,
                                           # and the totals no hand makes
    add --json for JSON; --help for this text

Every deal is counted, not sampled: all C(52, n) hands x (52 - n) starters,
12,994,800 of them for 4 cards and 936,491,920 for 6. Fifteens, pairs and runs
depend only on ranks, so the tool walks the multisets of n hand ranks times 13
starter ranks, scores each once with engine.show.score_ranks, and counts the
suit assignments that realise it. Only a flush and his nobs depend on suits;
how many assignments give which flush and nobs points depends only on the
shape of the ranks (how many of each, which are jacks, how many share the
starter's rank), so that split is worked out once per shape by going through
its suits, and memoised. A crib is always 4 cards and the starter.

The highest single peg in the play is found over every pile that can score:
the last card's pairs need at most its last 4 cards, a run at most its last 7
(A-7 counts 28; 8 ranks pass 31), and 15 or 31 only the count.
"""

try:  # the root and lib/ on sys.path: tools/_entry.py
    import tools._entry  # noqa: F401  (python -m tools.x, or the tests)
except ImportError:  # python tools/x.py: tools/ is first on sys.path
    import _entry  # noqa: F401  (loaded for its effect)

import json
import sys
import time

from engine.__main__ import run
from engine.cards import JACK, RANK, SUIT, VALUE, card_name, make_card
from engine.rules import MAX_PLAY_PEG, Limits, limits
from engine.rules import CRIB_SIZE, VARIANT_NAMES, has_crib, hand_size, make_config
from engine.pegging import MAX_COUNT, peg_points, peg_reasons
from engine.show import score_flush, score_nobs, score_ranks

USAGE = """usage: python tools/handstats.py [--cards N | --caps] [--json]

The exact score distribution of every deal of N cards (3-6, default 4) and a
starter, hands and (for 4) cribs; --caps: per hand size, the highest hand and
crib, the totals no hand makes, and the highest single peg.
"""

RANKS = range(1, 14)
# The hand sizes the variants play (five-card 3 ... shotgun 6).
HAND_SIZES = sorted(set(hand_size(make_config(variant=v)) for v in range(len(VARIANT_NAMES))))
SUITS = 4
DEALS = 270725 * 48  # C(52, 4) hands, 48 starters each
_BONUS = ("fifteen", "thirty-one")


def deals(size):
    """C(52, size) hands x (52 - size) starters."""
    n = 1
    for i in range(size):
        n = n * (52 - i) // (i + 1)
    return n * (52 - size)


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
        taken = [SUIT[c] for c in hand if RANK[c] == starter]
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


def _rank_multisets(size, low=1):
    """Every multiset of `size` ranks (at most 4 of one), as a sorted list."""
    if size == 0:
        return [[]]
    out = []
    for r in range(low, 14):
        for m in range(1, min(4, size) + 1):
            for rest in _rank_multisets(size - m, r + 1):
                out.append([r] * m + rest)
    return out


def distribution(starter_ranks=RANKS, size=4):
    """(hand counts, crib counts): deals of `size` cards scoring 0, 1, ...,
    starters of `starter_ranks`; crib counts only for 4 cards (else None)."""
    hands, cribs = {}, {}
    memo = {}
    for ranks in _rank_multisets(size):
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
                hands[base + extra] = hands.get(base + extra, 0) + n
            for extra, n in crib_split.items():
                cribs[base + extra] = cribs.get(base + extra, 0) + n
    return _listed(hands), (_listed(cribs) if size == CRIB_SIZE else None)


def _listed(counts):
    out = [0] * (max(counts) + 1)
    for score, n in counts.items():
        out[score] = n
    return out


def never_scored(counts):
    return [s for s in range(len(counts)) if not counts[s]]


def _piles(size):
    """Every pile of `size` cards as ranks (at most 4 of one) counting <= 31."""
    out = []

    def grow(pile, count, used):
        if len(pile) == size:
            out.append(list(pile))
            return
        for rank in RANKS:
            value = VALUE[make_card(rank, 0)]
            if used[rank] < 4 and count + value <= MAX_COUNT:
                used[rank] += 1
                pile.append(rank)
                grow(pile, count + value, used)
                pile.pop()
                used[rank] -= 1

    grow([], 0, [0] * 14)
    return out


def _distinct_piles(size):
    """Every pile of `size` different ranks counting <= 31 (the runs' piles)."""
    out = []

    def grow(pile, count):
        if len(pile) == size:
            out.append(list(pile))
            return
        for rank in RANKS:
            value = VALUE[make_card(rank, 0)]
            if rank not in pile and count + value <= MAX_COUNT:
                pile.append(rank)
                grow(pile, count + value)
                pile.pop()

    grow([], 0)
    return out


def _reach(tail, total):
    """A pile ending in `tail` (card ints) whose count is `total`: cards laid
    before it, from those the tail leaves, highest count first; None if none fit."""
    need = total
    for c in tail:
        need -= VALUE[c]
    before = []
    for card in range(51, -1, -1):
        if need <= 0:
            break
        if card not in tail and VALUE[card] <= need:
            before.append(card)
            need -= VALUE[card]
    return before + tail if need == 0 else None


def max_play_peg():
    """(the most one card pegs in the play, a pile whose last card pegs it,
    the bound no pile can pass).

    A card's pairs and runs come from the tail of the pile (its last 4 cards,
    or its last 3-7 different ranks); 15 and 31 (2 points, never both) from the
    count, which cards laid before the tail can raise. So no card pegs more
    than the best tail's pairs or run plus 2; a real pile that pegs that much
    proves it the most."""
    tails = []
    for size in range(1, 5):
        tails.extend(_piles(size))
    for size in range(5, 8):
        tails.extend(_distinct_piles(size))
    best, witness, bound = 0, None, 0
    for ranks in tails:
        tail = [make_card(r, i % 4) for i, r in enumerate(ranks)]
        points = 0
        for reason, n in peg_reasons(tail):
            if reason not in _BONUS:
                points += n
        bound = max(bound, points + 2)
        if points + 2 <= best:
            continue
        for total in (0, 15, MAX_COUNT):
            pile = tail if total == 0 else _reach(tail, total)
            if pile is not None:
                scored = peg_points(pile)
                if scored > best:
                    best, witness = scored, pile
    return best, witness, bound


def caps():
    """{hand size: {max_hand, impossible_hand, max_crib, impossible_crib}} by
    counting every deal of every size, and the highest play peg."""
    hands_4, cribs = distribution(size=CRIB_SIZE)
    out = {}
    for size in HAND_SIZES:
        hands = hands_4 if size == CRIB_SIZE else distribution(size=size)[0]
        out[size] = {"max_hand": len(hands) - 1, "impossible_hand": never_scored(hands),
                     "max_crib": len(cribs) - 1, "impossible_crib": never_scored(cribs),
                     "deals": sum(hands)}
    return out, max_play_peg()


def mean(counts):
    total = 0
    for score, n in enumerate(counts):
        total += score * n
    return total / sum(counts)


def report(hands, cribs, seconds):
    lines = ["score        hands        cribs" if cribs else "score        hands"]
    for score in range(len(hands)):
        if cribs:
            lines.append("%5d %12d %12d" % (score, hands[score], cribs[score]))
        else:
            lines.append("%5d %12d" % (score, hands[score]))
    if cribs:
        lines.append("total %12d %12d" % (sum(hands), sum(cribs)))
        lines.append("mean  %12.6f %12.6f" % (mean(hands), mean(cribs)))
    else:
        lines.append("total %12d" % sum(hands))
        lines.append("mean  %12.6f" % mean(hands))
    lines.append("never scored: %s" % ", ".join(str(s) for s in never_scored(hands)))
    lines.append("%d deals counted exactly in %.3f s" % (sum(hands), seconds))
    return "\n".join(lines)


def variant_caps(table, play_peg):
    """{variant name: Limits} from the counted table, as engine.rules.limits() gives them."""
    out = {}
    for variant, name in enumerate(VARIANT_NAMES):
        config = make_config(variant=variant)
        row = table[hand_size(config)]
        crib = table[CRIB_SIZE] if has_crib(config) else None
        max_crib = crib["max_crib"] if crib else 0
        out[name] = Limits(row["max_hand"], max_crib, tuple(row["impossible_hand"]),
                           tuple(crib["impossible_crib"]) if crib else (),
                           max(row["max_hand"], max_crib, play_peg))
    return out


def caps_report(table, play, seconds):
    peg, pile, bound = play
    lines = ["cards        deals  highest  never scored"]
    for size in sorted(table):
        row = table[size]
        lines.append("%5d %12d %8d  %s" % (size, row["deals"], row["max_hand"],
                                          ", ".join(str(s) for s in row["impossible_hand"])))
    row = table[CRIB_SIZE]
    lines.append(" crib %12d %8d  %s" % (row["deals"], row["max_crib"],
                                        ", ".join(str(s) for s in row["impossible_crib"])))
    lines.append("the play: one card pegs at most %d (%s; no pile can pass %d)"
                 % (peg, " ".join(card_name(c) for c in pile), bound))
    agree = peg == MAX_PLAY_PEG
    for name, caps_of in variant_caps(table, peg).items():
        lines.append("%-11s highest single peg %d" % (name, caps_of.max_peg))
        agree = agree and caps_of == limits(make_config(variant=VARIANT_NAMES.index(name)))
    lines.append("engine/rules.py %s this table" % ("agrees with" if agree else "DIFFERS FROM"))
    lines.append("counted exactly in %.1f s" % seconds)
    return "\n".join(lines)


def _usage_error(message):
    sys.stderr.write(USAGE.splitlines()[0] + "\n")
    sys.stderr.write("error: %s\n" % message)
    return 2


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "-h" in argv or "--help" in argv:
        sys.stdout.write(USAGE)
        return 0
    as_json = "--json" in argv
    argv = [a for a in argv if a != "--json"]
    size, want_caps = CRIB_SIZE, False
    if argv == ["--caps"]:
        want_caps = True
    elif len(argv) == 2 and argv[0] == "--cards":
        if argv[1] not in [str(n) for n in HAND_SIZES]:
            return _usage_error("--cards is 3, 4, 5 or 6, not %s" % argv[1])
        size = int(argv[1])
    elif argv:
        return _usage_error("unknown arguments: %s" % " ".join(argv))
    start = time.perf_counter()
    if want_caps:
        table, play = caps()
        seconds = time.perf_counter() - start
        if as_json:
            print(json.dumps({"sizes": {str(k): v for k, v in table.items()},
                              "max_play_peg": play[0], "play_pile": [card_name(c) for c in play[1]],
                              "play_bound": play[2],
                              "seconds": round(seconds, 3)}))
        else:
            print(caps_report(table, play, seconds))
        return 0
    hands, cribs = distribution(size=size)
    seconds = time.perf_counter() - start
    if as_json:
        data = {"cards": size, "deals": sum(hands), "hand": hands,
                "hand_mean": round(mean(hands), 6), "seconds": round(seconds, 3)}
        if cribs:
            data.update({"crib": cribs, "crib_mean": round(mean(cribs), 6)})
        print(json.dumps(data))
    else:
        print(report(hands, cribs, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
