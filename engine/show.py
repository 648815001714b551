"""engine.show: counting a hand or crib in the show."""

from collections import namedtuple

from engine.cards import DECK_SIZE, JACK, RANK, SUIT, VALUE, make_card, parse_cards
from engine.pegging import PAIR_NAMES
from engine.rules import is_impossible as is_impossible  # the caps live in engine.rules

Item = namedtuple("Item", ("kind", "cards", "points"))
Show = namedtuple("Show", ("total", "items", "spoken"))
# What a show counts: the reason its Score gives, and the word every message says.
HAND = "hand"
CRIB = "crib"

_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven",
            "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
            "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("twenty", "thirty")


def _checked(hand, starter):
    """[hand cards..., starter] as card ints; ValueError for a bad or repeated card."""
    cards = list(hand)
    cards.append(starter)
    for c in cards:
        # Card ints (the board's own) skip the text parser; anything else goes through it.
        if type(c) is not int or c < 0 or c >= DECK_SIZE:
            return parse_cards(cards)
    if len(set(cards)) != len(cards):
        parse_cards(cards)  # raises, naming the card seen twice
    return cards


def count_fifteens(values):
    """How many sets of cards sum to 15 (subset-sum count)."""
    if len(values) == 5:
        # A hand and its starter. No card is 15 alone; a set of 3 or 4 cards makes
        # 15 exactly when the 2 or 1 left out make the total less 15.
        a, b, c, d, e = values
        rest = a + b + c + d + e - 15
        pairs = (a + b, a + c, a + d, a + e, b + c, b + d, b + e, c + d, c + e, d + e)
        return pairs.count(15) + pairs.count(rest) + values.count(rest) + (rest == 0)
    ways = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    top = 0  # the most the values so far can sum to: no sum above it is reachable
    for v in values:
        top += v
        t = top if top < 15 else 15
        while t >= v:
            ways[t] += ways[t - v]
            t -= 1
    return ways[15]


def score_ranks(ranks):
    """Points from fifteens, pairs and runs: everything suits don't touch."""
    ordered = sorted(ranks)
    values = []
    for r in ordered:  # loops, not comprehensions, on the count's path: a frame less deep
        values.append(10 if r > 10 else r)
    points = 2 * count_fifteens(values)
    # Walk the ranks in order: a rank seen again pairs with each copy before it;
    # a block of 3+ consecutive ranks is that many runs as the product of the
    # copies of each of its ranks (4-5-5-6 is two runs of three).
    prev = -2
    same = 0  # copies of the current rank so far
    run = 0   # distinct ranks in the current block of consecutive ones
    ways = 1  # product of the copies of the block's earlier ranks
    for r in ordered:
        if r == prev:
            points += 2 * same
            same += 1
        elif r == prev + 1:
            ways *= same
            run += 1
            same = 1
            prev = r
        else:
            if run >= 3:
                points += run * ways * same
            run = 1
            ways = 1
            same = 1
            prev = r
    if run >= 3:
        points += run * ways * same
    return points


def score_flush(hand, starter, crib=False):
    suit = SUIT[hand[0]]
    for c in hand:
        if SUIT[c] != suit:
            return 0
    if SUIT[starter] == suit:
        return len(hand) + 1
    return 0 if crib else len(hand)  # a crib flush needs the starter too


def score_nobs(hand, starter):
    """His nobs: the jack of the starter's suit in the hand."""
    return 1 if make_card(JACK, SUIT[starter]) in hand else 0


def score_hand(hand, starter, crib=False):
    """The total of a hand (or crib) with the starter; cards as text or ints."""
    hand = _checked(hand, starter)
    ranks = []
    for c in hand:
        ranks.append(RANK[c])
    starter = hand.pop()
    return score_ranks(ranks) + score_flush(hand, starter, crib) + score_nobs(hand, starter)


def _fifteen_items(cards):
    # Each subset's total from a smaller one's (the subset less its highest card):
    # a list is made only for the subsets that make fifteen.
    items = []  # type: list
    n = len(cards)
    sums = [0] * (1 << n)
    for i in range(n):
        low = 1 << i
        value = VALUE[cards[i]]
        for mask in range(low, low << 1):  # the subsets whose highest card is card i
            total = sums[mask] = sums[mask ^ low] + value
            if total == 15:
                items.append(mask)
    items.sort()  # by subset, as the breakdown lists them
    for k in range(len(items)):  # loops, not comprehensions: frames less deep
        mask = items[k]
        picked = []
        for i in range(n):
            if mask >> i & 1:
                picked.append(cards[i])
        items[k] = Item("fifteen", tuple(picked), 2)
    return items


def _pair_items(cards):
    items = []
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            if RANK[cards[i]] == RANK[cards[j]]:
                items.append(Item("pair", (cards[i], cards[j]), 2))
    return items


def _run_items(cards):
    by_rank = [[] for _ in range(15)]  # type: list
    for c in cards:
        by_rank[RANK[c]].append(c)
    items = []
    start = 1
    for r in range(1, 15):
        if by_rank[r]:
            continue
        length = r - start
        if length >= 3:
            runs = [()]  # type: list
            for k in range(start, r):
                runs = [run + (c,) for run in runs for c in by_rank[k]]
            for run in runs:
                items.append(Item("run", run, length))
        start = r + 1
    return items


def score_show(hand, starter, crib=False):
    """The itemised count: Show(total, items, spoken), items in a fixed order."""
    cards = _checked(hand, starter)  # (not a call deeper: the show is the board's deepest chain)
    hand, starter = cards[:-1], cards[-1]
    ordered = sorted(cards)
    items = _fifteen_items(ordered) + _pair_items(ordered) + _run_items(ordered)
    flush = score_flush(hand, starter, crib)
    if flush:
        suited = sorted(hand + [starter]) if flush > len(hand) else sorted(hand)
        items.append(Item("flush", tuple(suited), flush))
    if score_nobs(hand, starter):
        items.append(Item("nobs", (make_card(JACK, SUIT[starter]),), 1))
    total = 0
    for item in items:
        total += item.points
    return Show(total, items, spoken_count(items))


# What is said before the running total, by item; a run and a flush say their length.
_SAID = {"fifteen": "fifteen ", "run": "a run of ", "flush": "a flush of ",
         "nobs": "one for his nobs is "}
# The cards of one rank by how many pairs they make (1, 3 or 6): said as one.
_COPIES = (0, 2, 0, 3, 0, 0, 4)


def _number(n, out):
    """The words for ``n`` onto ``out``, in pieces."""
    if n < 20:
        out.append(_NUMBERS[n])
    elif n < 40:
        out.append(_TENS[n // 10 - 2])
        if n % 10:
            out.append("-")
            out.append(_NUMBERS[n % 10])
    else:
        out.append(str(n))


def spoken_count(items):
    """'fifteen two, fifteen four, a pair is six, ...' as said at the table.
    (Made of pieces joined once: on the board every string made is first
    looked for among all the names loaded.)"""
    if not items:
        return "nineteen: no score"
    out = []  # type: list
    total = 0
    i = 0
    n = len(items)
    while i < n:
        item = items[i]
        kind = item.kind
        total += item.points
        i += 1
        if out:
            out.append(", ")
        if kind == "pair":  # a rank's pairs come together: a pair royal is said once
            pairs = 1
            rank = RANK[item.cards[0]]
            while i < n and items[i].kind == "pair" and RANK[items[i].cards[0]] == rank:
                total += items[i].points
                pairs += 1
                i += 1
            out.append("a ")
            out.append(PAIR_NAMES[_COPIES[pairs]])
            out.append(" is ")
        else:
            out.append(_SAID[kind])
            if kind == "run" or kind == "flush":
                _number(item.points, out)
                out.append(" is ")
        _number(total, out)
    return "".join(out)
