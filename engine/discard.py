"""engine.discard: which cards to lay away, with the exact expected points of each way.

For every way to lay away the cards dealt (2 of 6 for two players, 1 of 5 for
three or four, 2 of 5 in five-card, 2 of 7 in seven-card):
- hand: the mean show of the kept cards over every starter not among the cards
  dealt (46 of them for six cards), flush and nobs included;
- crib: the mean crib over every starter and every set of the crib's other
  cards, all drawn from the cards not seen (two players: 46 x C(45,2) deals),
  the crib flush rule included; his heels is left out (it is the same whatever
  is laid away);
- expected: hand + crib when the crib is yours (or your partner's), hand - crib
  when it is not.
Each is exact: an integer numerator over the advice's denominator, the number
of crib deals, which every starter divides. Only integers are used, so this runs
on any Python; on the board the crib part comes from engine.cribtable instead.

Fifteens, pairs and runs depend on ranks only (engine.show.score_ranks), so the
crib's other cards are walked as multisets of ranks, each weighed by how many
sets of unseen cards give it; a flush and his nobs depend on suits only, and
are counted per suit with score_flush and score_nobs.
"""

from collections import namedtuple

from engine.cards import DECK_SIZE, KING, SUITS, parse_cards, rank_of, suit_of
from engine.errors import BadConfig, WrongCards
from engine.rules import (CRIB_SIZE, LOWBALL, STANDARD, VARIANT_NAMES, hand_size, has_crib,
                          make_config)
from engine.show import score_flush, score_nobs, score_ranks

# laid, kept: tuples of card ints in the order dealt; hand, crib, expected:
# integer numerators over the Advice's denominator.
Choice = namedtuple("Choice", ("laid", "kept", "hand", "crib", "expected"))
# choices best first; starters: cards the starter can be; deals: crib deals
# averaged over (0 for a table's estimate).
Advice = namedtuple("Advice", ("choices", "denominator", "starters", "deals"))


def laid_count(players):
    """Cards each player lays away. The crib is 4 cards: with 3 players the deck
    gives the fourth."""
    return 2 if players == 2 else 1


def deal_shape(players=2, variant=STANDARD):
    """(cards dealt to each player, cards each lays away); BadConfig if the
    game has no crib or is not a game at all."""
    config = make_config(players=players, variant=variant)
    if not has_crib(config):
        raise BadConfig("%s has no crib: all %d cards are kept, none laid away"
                        % (VARIANT_NAMES[variant], hand_size(config)))
    laid = laid_count(players)
    return hand_size(config) + laid, laid


def crib_draw(laid):
    """Cards of a crib deal not laid by you: the crib's other cards and the starter."""
    return CRIB_SIZE - laid + 1


def check_deal(cards, players=2, variant=STANDARD):
    """(the cards dealt as card ints, cards laid away); BadConfig, BadCard or
    WrongCards (all ValueErrors) saying why not."""
    dealt, laid = deal_shape(players, variant)
    cards = parse_cards(cards)
    if len(cards) != dealt:
        raise WrongCards("give the %d cards dealt (%s, %d players), not %d"
                         % (dealt, VARIANT_NAMES[variant], players, len(cards)))
    return cards, laid


def choose(n, k):
    """C(n, k) in integers."""
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def lay_aways(cards, laid):
    """Every way to lay away `laid` of the cards: [(laid, kept)] as tuples, in
    the order of the cards' places (the first card with each later one, ...)."""
    picks = [[]]  # type: list
    for _ in range(laid):
        grown = []
        for pick in picks:
            start = pick[-1] + 1 if pick else 0
            for i in range(start, len(cards)):
                grown.append(pick + [i])
        picks = grown
    out = []
    for pick in picks:
        out.append((tuple([cards[i] for i in pick]),
                    tuple([cards[i] for i in range(len(cards)) if i not in pick])))
    return out


class Unseen:
    """The cards not seen, grouped the way the scoring needs them: how many of
    each rank, and which of each suit."""

    def __init__(self, cards):
        self.size = len(cards)
        self.ranks = [0] * (KING + 1)  # by rank 1..13
        self.suits = [[] for _ in range(len(SUITS))]  # type: list
        for c in cards:
            self.ranks[rank_of(c)] += 1
            self.suits[suit_of(c)].append(c)


def unseen_of(dealt):
    return Unseen([c for c in range(DECK_SIZE) if c not in dealt])


def hand_total(kept, unseen):
    """The kept cards' show summed over every unseen starter (divide by unseen.size)."""
    ranks = [rank_of(c) for c in kept]
    total = 0
    for rank in range(1, KING + 1):
        n = unseen.ranks[rank]
        if n:
            ranks.append(rank)
            total += n * score_ranks(ranks)
            ranks.pop()
    # A flush and nobs depend only on the starter's suit: one starter per suit.
    for cards in unseen.suits:
        if cards:
            starter = cards[0]
            total += len(cards) * (score_flush(kept, starter) + score_nobs(kept, starter))
    return total


def rank_draws(unseen, size):
    """Every multiset of `size` ranks the unseen cards can make: [(key, ranks,
    ways)], ways = how many sets of unseen cards have those ranks."""
    partial = [(0, [], 1)]  # type: list
    for rank in range(1, KING + 1):
        n = unseen.ranks[rank]
        if not n:
            continue
        grown = []
        for key, ranks, ways in partial:
            k = 0
            while k <= n and len(ranks) + k <= size:
                grown.append((key + k * _key(rank), ranks + [rank] * k, ways * choose(n, k)))
                k += 1
        partial = grown
    return [d for d in partial if len(d[1]) == size]


def _key(rank):
    # A multiset of ranks as one int, base 5 (up to 4 of a rank), so keys add;
    # five cards' keys stay under 2**30, a small int on the board.
    return _POWERS[rank - 1]


_POWERS = tuple([5 ** i for i in range(KING)])


def rank_total(laid, draws, draw, memo):
    """Fifteens, pairs and runs of the crib summed over every deal: each draw
    of rank_draws, each of its cards the starter once. `memo` keeps the points
    of each five-rank multiset met, whatever the unseen cards."""
    laid_ranks = [rank_of(c) for c in laid]
    base = 0
    for r in laid_ranks:
        base += _key(r)
    total = 0
    for key, ranks, ways in draws:
        points = memo.get(base + key)
        if points is None:
            points = memo[base + key] = score_ranks(laid_ranks + ranks)
        total += ways * points
    return draw * total


def crib_total(laid, unseen, draw, memo):
    """The crib's score summed over every deal of `draw` unseen cards to go with
    the laid ones (the crib's other cards and the starter)."""
    return (rank_total(laid, rank_draws(unseen, draw), draw, memo)
            + crib_suit_total(laid, unseen, draw) + drawn_nobs_total(unseen, draw))


def crib_suit_total(laid, unseen, draw):
    """Flush and nobs points of the laid cards in the crib, summed over every deal."""
    size = unseen.size
    total = 0
    suit = suit_of(laid[0])
    for c in laid:
        if suit_of(c) != suit:
            suit = -1
    if suit >= 0:
        # The crib's other cards all of the laid suit; the starter of it or not.
        cards = unseen.suits[suit]
        n = len(cards)
        others = draw - 1
        if n >= others:
            crib = list(laid) + cards[:others]
            ways = choose(n, others)
            if n > others:
                total += ways * (n - others) * score_flush(crib, cards[others], True)
            for rest in unseen.suits:
                if rest and suit_of(rest[0]) != suit:
                    total += ways * len(rest) * score_flush(crib, rest[0], True)
    for c in laid:  # his nobs: a laid card with a starter of its suit
        cards = unseen.suits[suit_of(c)]
        if cards:
            total += len(cards) * choose(size - 1, draw - 1) * score_nobs([c], cards[0])
    return total


def drawn_nobs_total(unseen, draw):
    """His nobs from the crib's other cards, summed over every deal (the same
    whatever is laid away)."""
    total = 0
    ways = choose(unseen.size - 2, draw - 2)  # deals with card c in the crib, a given starter
    for cards in unseen.suits:
        if len(cards) > 1:
            for c in cards:
                starter = cards[1] if c == cards[0] else cards[0]
                total += (len(cards) - 1) * ways * score_nobs([c], starter)
    return total


def ranked(choices, lowball=False):
    """Best first: the highest expected (the lowest in lowball, where points
    hurt); ties keep the order of lay_aways."""
    keyed = []
    for i, choice in enumerate(choices):
        keyed.append(((choice.expected if lowball else -choice.expected), i, choice))
    keyed.sort()  # the index settles ties: MicroPython's sort is not stable
    return [k[2] for k in keyed]


def advise(cards, players=2, own_crib=True, variant=STANDARD, unseen=None):
    """Every way to lay away the cards dealt, best first, with exact averages.

    `own_crib`: the crib is yours or your partner's. `unseen`: the cards the
    crib's other cards and the starter come from (default: all not dealt).
    A ValueError (BadConfig, BadCard, WrongCards) for a deal the game does not make."""
    cards, laid = check_deal(cards, players, variant)
    if unseen is None:
        pool = unseen_of(cards)
    else:
        pool = Unseen([c for c in parse_cards(unseen) if c not in cards])
    draw = crib_draw(laid)
    if pool.size < draw:
        raise WrongCards("%d unseen cards cannot make a crib and a starter" % pool.size)
    deals = pool.size * choose(pool.size - 1, draw - 1)
    per_starter = deals // pool.size
    draws = rank_draws(pool, draw)
    shared = drawn_nobs_total(pool, draw)
    memo = {}  # type: dict
    rank_totals = {}  # laying 5H or 5D away: the same rank points
    choices = []
    for laid_cards, kept in lay_aways(cards, laid):
        key = tuple(sorted([rank_of(c) for c in laid_cards]))
        if key not in rank_totals:
            rank_totals[key] = rank_total(laid_cards, draws, draw, memo)
        crib = rank_totals[key] + crib_suit_total(laid_cards, pool, draw) + shared
        hand = hand_total(kept, pool) * per_starter
        choices.append(Choice(laid_cards, kept, hand, crib,
                              hand + crib if own_crib else hand - crib))
    return Advice(ranked(choices, variant == LOWBALL), deals, pool.size, deals)


def fraction_text(numerator, denominator):
    """'367/23': the exact value in lowest terms ('5' when whole), as Python's
    Fraction writes it; CircuitPython has no fractions module."""
    a, b = abs(numerator), denominator
    while b:
        a, b = b, a % b
    numerator //= a  # a, the greatest common divisor, divides both exactly
    denominator //= a
    if denominator == 1:
        return "%d" % numerator
    return "%d/%d" % (numerator, denominator)


def hundredths(numerator, denominator):
    """Points of 0 or more as a whole number of hundredths, halves up."""
    return (200 * numerator + denominator) // (2 * denominator)


def points_text(numerator, denominator):
    """'7.85': points to 2 decimals, halves away from zero; never '-0.00'."""
    sign = ""
    if numerator < 0:
        numerator = -numerator
        sign = "-"
    cents = hundredths(numerator, denominator)
    if not cents:
        sign = ""
    return "%s%d.%02d" % (sign, cents // 100, cents % 100)
