"""tools.naive: a deliberately slow, literal scorer to check the engine against.

Written from the rules text (docs/rules.md) alone: every subset of cards is tried for
fifteens, every pair of cards for pairs, every subset of 3 or more cards for runs
(keeping only runs no longer run contains). Nothing here is shared with
engine/show.py or engine/pegging.py, so a mistake would have to be made twice.

A card is a (rank, suit) pair: rank 1 (ace) .. 13 (king), suit 0..3.
"""

JACK = 11


def value(card):
    """Count value: faces count ten, the ace one."""
    rank = card[0]
    if rank >= 10:
        return 10
    return rank


def subsets(cards):
    """Every subset (as a tuple of indexes), the empty one included."""
    out = [()]
    for i in range(len(cards)):
        out = out + [s + (i,) for s in out]
    return out


def fifteens(cards):
    """2 points for every distinct set of cards adding up to 15."""
    points = 0
    for s in subsets(cards):
        if s and sum(value(cards[i]) for i in s) == 15:
            points += 2
    return points


def pairs(cards):
    """2 points for every two cards of one rank."""
    points = 0
    for i in range(len(cards)):
        for j in range(len(cards)):
            if i < j and cards[i][0] == cards[j][0]:
                points += 2
    return points


def is_run(ranks):
    """Distinct ranks, each one more than the one before once sorted."""
    ordered = sorted(ranks)
    for a, b in zip(ordered, ordered[1:]):
        if b != a + 1:
            return False
    return True


def runs(cards):
    """A point a card for every run that no longer run contains."""
    found = []
    for s in subsets(cards):
        if len(s) >= 3 and is_run([cards[i][0] for i in s]):
            found.append(set(s))
    points = 0
    for run in found:
        inside_longer = False
        for other in found:
            if len(other) > len(run) and run <= other:
                inside_longer = True
        if not inside_longer:
            points += len(run)
    return points


def flush(hand, starter, crib):
    """Hand: all hand cards one suit (one more with the starter's suit too).
    Crib: only all the cards and the starter one suit, else nothing."""
    suits = set(card[1] for card in hand)
    if len(suits) != 1:
        return 0
    with_starter = starter[1] in suits
    if crib:
        return len(hand) + 1 if with_starter else 0
    return len(hand) + 1 if with_starter else len(hand)


def nobs(hand, starter):
    """One for the jack of the starter's suit in the hand."""
    for card in hand:
        if card[0] == JACK and card[1] == starter[1]:
            return 1
    return 0


def score(hand, starter, crib=False):
    """The show total of `hand` (4, 5 or 6 cards) with the starter."""
    cards = list(hand) + [starter]
    return (fifteens(cards) + pairs(cards) + runs(cards)
            + flush(hand, starter, crib) + nobs(hand, starter))


def peg_score(pile):
    """Points for the last card laid, `pile` being this series so far."""
    if not pile:
        return 0
    points = 0
    count = sum(value(card) for card in pile)
    if count == 15 or count == 31:
        points += 2
    # Pairs: the last card with each card of its rank laid just before it.
    same = [pile[-1]]
    for card in reversed(pile[:-1]):
        if card[0] != pile[-1][0]:
            break
        same.append(card)
    points += 2 * (len(same) * (len(same) - 1) // 2)
    # Runs: the longest tail of the pile that is a run.
    best = 0
    for n in range(3, len(pile) + 1):
        if is_run([card[0] for card in pile[-n:]]):
            best = n
    return points + best
