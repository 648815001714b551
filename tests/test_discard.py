"""Which two to lay away: engine.discard (exact), engine.cribtable (the board's
table) and `python -m engine discard`, against hands worked by hand and against
literal walks of every starter and crib deal with score_hand."""

import os
import random
import subprocess
import sys
from fractions import Fraction
from itertools import combinations

import pytest

from engine import cribtable, discard
from engine.cards import card_name, parse_cards
from engine.errors import BadCard, BadConfig, WrongCards
from engine.rules import FIVE_CARD, LOWBALL, SEVEN_CARD, SHOTGUN, STANDARD
from engine.show import score_hand
from tools import cribtable as maker
from tools import handstats

from worked_hands import THREE, THREE_CRIB, THREE_HAND, WORKED, WORKED_CRIB, WORKED_HAND

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cards(text):
    return parse_cards(text.split())


def cards_text(cards):
    return " ".join(card_name(c) for c in cards)


def choice_of(advice, laid):
    for choice in advice.choices:
        if choice.laid == tuple(cards(laid)):
            return choice
    raise AssertionError("no choice lays away %s" % laid)


def exact(advice, laid):
    """(hand, crib, expected) of a choice as Fractions."""
    choice = choice_of(advice, laid)
    den = advice.denominator
    return Fraction(choice.hand, den), Fraction(choice.crib, den), Fraction(choice.expected, den)


def unseen_of(dealt):
    return [c for c in range(52) if c not in dealt]


# --- the literal walks: every starter, every set of the crib's other cards --------

def walk_hand(kept, unseen):
    return Fraction(sum(score_hand(list(kept), s) for s in unseen), len(unseen))


def walk_crib(laid, unseen, others):
    """Mean crib: every starter, every set of `others` more crib cards."""
    total = deals = 0
    for starter in unseen:
        rest = [c for c in unseen if c != starter]
        for more in combinations(rest, others):
            total += score_hand(list(laid) + list(more), starter, crib=True)
            deals += 1
    return Fraction(total, deals)


# --- hands worked by hand ----------------------------------------------------------

def test_worked_hand_as_dealer():
    dealt = cards(WORKED)
    advice = discard.advise(dealt, players=2, own_crib=True)
    assert advice.denominator == advice.deals == 45540 and advice.starters == 46
    assert len(advice.choices) == 15
    best = advice.choices[0]
    assert cards_text(best.laid) == "JS KH" and cards_text(best.kept) == "5H 5D 6C 4D"
    assert walk_hand(best.kept, unseen_of(dealt)) == WORKED_HAND
    assert walk_crib(best.laid, unseen_of(dealt), 2) == WORKED_CRIB
    assert exact(advice, "JS KH") == (WORKED_HAND, WORKED_CRIB, WORKED_HAND + WORKED_CRIB)
    den = advice.denominator
    assert [discard.points_text(n, den) for n in best[2:]] == ["15.96", "3.97", "19.93"]
    # Laying the pair of fives: the richest crib of the hand, the worst choice.
    hand, crib, expected = exact(advice, "5H 5D")
    assert hand == walk_hand(cards("JS 6C 4D KH"), unseen_of(dealt)) == Fraction(90, 46)
    assert crib == walk_crib(cards("5H 5D"), unseen_of(dealt), 2) == Fraction(400454, 45540)
    assert advice.choices[-1].laid == tuple(cards("5H 5D"))
    assert [cards_text(c.laid) for c in advice.choices[:4]] == ["JS KH", "6C 4D", "5H JS", "5D JS"]


def test_worked_hand_as_pone():
    advice = discard.advise(cards(WORKED), players=2, own_crib=False)
    assert exact(advice, "JS KH") == (WORKED_HAND, WORKED_CRIB, WORKED_HAND - WORKED_CRIB)
    best = advice.choices[0]
    assert cards_text(best.laid) == "JS KH"
    assert discard.points_text(best.expected, advice.denominator) == "11.99"
    # Giving the pone's two fives to the dealer's crib: 45/23 - 400454/45540.
    worst = advice.choices[-1]
    assert cards_text(worst.laid) == "5H 5D"
    assert discard.points_text(worst.expected, advice.denominator) == "-6.84"
    expected = [c.expected for c in advice.choices]
    assert expected == sorted(expected, reverse=True)


def test_keeping_a_flush_wins():
    # Pone with KS 2S 3S 8S 10C KC. Keeping the four spades: 214 rank points
    # over the 46 starters (K+2+3 is fifteen two; each starter rank adds its
    # own), and the flush 4 with every starter, 5 with the 9 spades unseen:
    # 4 x 46 + 9 = 193. Without the flush the pair of kings would be kept.
    dealt = cards("KS 2S 3S 10C KC 8S")
    advice = discard.advise(dealt, players=2, own_crib=False)
    best = advice.choices[0]
    assert cards_text(best.laid) == "10C KC" and cards_text(best.kept) == "KS 2S 3S 8S"
    hand, crib, expected = exact(advice, "10C KC")
    assert hand == walk_hand(best.kept, unseen_of(dealt)) == Fraction(214 + 193, 46)
    assert crib == walk_crib(best.laid, unseen_of(dealt), 2) == Fraction(160509, 45540)
    kings = exact(advice, "10C 8S")  # keeps KS 2S 3S KC
    assert kings[0] == Fraction(386, 46) and kings[1] == Fraction(210336, 45540)
    assert expected > kings[2] > Fraction(214, 46) - crib
    assert discard.points_text(best.expected, advice.denominator) == "5.32"


def test_three_players():
    advice = discard.advise(cards(THREE), players=3, own_crib=True)
    assert advice.denominator == 713460 and advice.starters == 47 and len(advice.choices) == 5
    assert [cards_text(c.laid) for c in advice.choices] == ["JS", "5H", "5D", "6C", "4D"]
    assert exact(advice, "JS") == (THREE_HAND, THREE_CRIB, THREE_HAND + THREE_CRIB)
    assert [discard.points_text(n, advice.denominator) for n in advice.choices[0][2:]] == \
        ["15.96", "4.34", "20.30"]
    assert walk_hand(cards("5H 5D 6C 4D"), unseen_of(cards(THREE))) == THREE_HAND
    # Partnerships are dealt the same, and a partner's crib counts as yours.
    assert discard.advise(cards(THREE), players=4, own_crib=True) == advice
    pone = discard.advise(cards(THREE), players=4, own_crib=False)
    assert exact(pone, "JS")[2] == THREE_HAND - THREE_CRIB


def test_hand_sizes_of_the_variants():
    five = discard.advise(cards("5H 5D JS 6C 4D"), variant=FIVE_CARD)
    assert len(five.choices) == 10 and five.starters == 47 and five.deals == 47 * 1035
    assert all(len(c.laid) == 2 and len(c.kept) == 3 for c in five.choices)
    seven = discard.advise(cards("5H 5D JS 6C 4D KH AS"), variant=SEVEN_CARD)
    assert len(seven.choices) == 21 and seven.starters == 45 and seven.deals == 45 * 946
    assert all(len(c.kept) == 5 for c in seven.choices)
    hand, crib, _ = exact(seven, "JS KH")
    assert hand == walk_hand(cards("5H 5D 6C 4D AS"), unseen_of(cards("5H 5D JS 6C 4D KH AS")))
    assert discard.deal_shape(2, STANDARD) == (6, 2)
    assert discard.deal_shape(3, SEVEN_CARD) == (6, 1)
    with pytest.raises(BadConfig, match="shotgun has no crib: all 6 cards are kept"):
        discard.advise(cards(WORKED), variant=SHOTGUN)
    with pytest.raises(BadConfig, match="five-card: 2 players"):
        discard.advise(cards(THREE), players=3, variant=FIVE_CARD)


def test_ties_keep_the_order_dealt():
    # 5H JS and 5D JS are worth exactly the same: the one dealt first comes first.
    advice = discard.advise(cards(WORKED))
    assert exact(advice, "5H JS") == exact(advice, "5D JS")
    laid = [cards_text(c.laid) for c in advice.choices]
    assert laid.index("5H JS") + 1 == laid.index("5D JS")
    swapped = discard.advise(cards("5D 5H JS 6C 4D KH"))
    laid = [cards_text(c.laid) for c in swapped.choices]
    assert laid.index("5D JS") + 1 == laid.index("5H JS")
    same = [discard.Choice((i,), (), 0, 0, 7) for i in range(5)]
    assert [c.laid for c in discard.ranked(same)] == [(0,), (1,), (2,), (3,), (4,)]
    assert [c.laid for c in discard.ranked(same, lowball=True)] == [(0,), (1,), (2,), (3,), (4,)]


def test_lowball_puts_the_fewest_points_first():
    low = discard.advise(cards(WORKED), variant=LOWBALL)
    assert cards_text(low.choices[0].laid) == "5H 5D"
    assert [c.expected for c in low.choices] == sorted(c.expected for c in low.choices)


def test_points_text():
    assert discard.points_text(785, 100) == "7.85"
    assert discard.points_text(367, 23) == "15.96"
    assert discard.points_text(1, 200) == "0.01"       # a half goes away from zero
    assert discard.points_text(-1, 200) == "-0.01"
    assert discard.points_text(-1, 300) == "0.00"      # never "-0.00"
    assert discard.points_text(29 * 97290, 97290) == "29.00"
    assert discard.points_text(-1999, 1000) == "-2.00"


@pytest.mark.parametrize("dealt, error, message", [
    ("5H 5D JS 6C 4D", WrongCards, "give the 6 cards dealt (standard, 2 players), not 5"),
    ("5H 5D JS 6C 4D 5d", BadCard, "duplicate card 5D"),
    ("5H 5D JS 6C 4D 1C", BadCard, "bad card '1C'"),
])
def test_bad_deals_say_why(dealt, error, message):
    with pytest.raises(error) as err:
        discard.advise(dealt.split())
    assert message in str(err.value)
    with pytest.raises(error) as err:
        cribtable.advise(dealt.split())
    assert message in str(err.value)


def test_too_few_unseen_cards():
    with pytest.raises(WrongCards, match="2 unseen cards cannot make a crib and a starter"):
        discard.advise(cards(WORKED), unseen=cards("AS AH"))


def test_a_small_unseen_deck_walked():
    unseen = cards("AS 2H 5C 5S JH JD 9H 10H QH KH")
    advice = discard.advise(cards("3H 4H 7H 8H JS KD"), unseen=unseen)
    for choice in advice.choices:
        assert Fraction(choice.hand, advice.denominator) == walk_hand(choice.kept, unseen)
        assert Fraction(choice.crib, advice.denominator) == walk_crib(choice.laid, unseen, 2)


# --- fast path = literal walk on random deals (slow) -------------------------------

SHAPES = ((2, STANDARD), (3, STANDARD), (2, FIVE_CARD), (2, SEVEN_CARD))


@pytest.mark.slow
def test_walks_slow():
    """A few hundred random deals of every shape, each with a random small
    unseen deck (often of two suits, for flushes and nobs), walked in full;
    then two deals and the three-player hand with the whole deck unseen."""
    rng = random.Random(1234)
    for n in range(240):
        players, variant = SHAPES[n % len(SHAPES)]
        dealt_size, laid = discard.deal_shape(players, variant)
        deck = list(range(52))
        if n % 3 == 0:
            suits = rng.sample(range(4), 2)
            deck = [c for c in deck if c % 4 in suits] + rng.sample(range(52), 6)
            deck = sorted(set(deck))
        dealt = rng.sample(deck, dealt_size)
        rest = [c for c in deck if c not in dealt]
        unseen = rng.sample(rest, rng.randint(5, 9) if laid == 2 else rng.randint(5, 8))
        advice = discard.advise(dealt, players, rng.random() < 0.5, variant, unseen=unseen)
        for choice in advice.choices:
            assert Fraction(choice.hand, advice.denominator) == walk_hand(choice.kept, unseen)
            crib = walk_crib(choice.laid, unseen, 4 - laid)
            assert Fraction(choice.crib, advice.denominator) == crib, (dealt, unseen, choice.laid)
    for _ in range(2):
        dealt = rng.sample(range(52), 6)
        advice = discard.advise(dealt)
        choice = advice.choices[rng.randrange(15)]
        assert (Fraction(choice.crib, advice.denominator)
                == walk_crib(choice.laid, unseen_of(dealt), 2))
    assert walk_crib(cards("JS"), unseen_of(cards(THREE)), 3) == THREE_CRIB


# --- the board's table --------------------------------------------------------------

def test_the_table_is_the_generators_byte_for_byte():
    table = maker.build()
    assert table == cribtable.TABLE
    assert len(table) == 3 * (169 + 13) == 546
    with open(os.path.join(ROOT, "engine", "cribtable.py"), encoding="utf-8") as f:
        text = f.read()
    assert maker.render(table) in text
    assert sorted(at for at, _ in maker.entries()) == list(range(182))


def test_the_table_averages_to_every_crib_dealt():
    # Over every laid pair (or card), weighed by how many ways it is dealt, the
    # table's exact averages are the mean crib of all 12,994,800 deals, which
    # tools/handstats.py counts another way (by rank shapes).
    _, cribs = handstats.distribution()
    mean = Fraction(sum(score * n for score, n in enumerate(cribs)), sum(cribs))
    memo = {}
    pairs = singles = Fraction(0)
    for at, laid in maker.entries():
        total, deals = maker.exact_crib(laid, memo)
        if len(laid) == 1:
            singles += Fraction(total, deals) * 4
        elif laid[0] // 4 == laid[1] // 4:
            pairs += Fraction(total, deals) * 6    # a pair: 6 ways
        elif laid[0] % 4 == laid[1] % 4:
            pairs += Fraction(total, deals) * 4    # one suit: 4 ways
        else:
            pairs += Fraction(total, deals) * 12   # two suits: 12 ways
    assert pairs / 1326 == mean == singles / 52
    assert round(float(mean), 6) == 4.734819


@pytest.mark.parametrize("laid", ["5S 5H", "5S JS", "JH 5C"])
def test_table_entries_walked(laid):
    laid = cards(laid)
    walked = walk_crib(laid, unseen_of(laid), 2)
    assert cribtable.table_crib(laid) == (2 * walked * cribtable.SCALE + 1) // 2  # halves up
    assert cribtable.table_crib(laid[::-1]) == cribtable.table_crib(laid)


def test_board_advice_hand_exact_crib_from_the_table():
    board = cribtable.advise(cards(WORKED), 2, True)
    assert board.denominator == cribtable.SCALE and board.deals == 0
    best = board.choices[0]
    assert cards_text(best.laid) == "JS KH"
    assert Fraction(best.hand, cribtable.SCALE) == WORKED_HAND
    assert best.crib == cribtable.table_crib(cards("JS KH")) == best.expected - best.hand
    assert discard.points_text(best.crib, board.denominator) == "4.30"  # the table's K-J
    pone = cribtable.advise(cards(WORKED), 2, False)
    assert cards_text(pone.choices[0].laid) == "JS KH"
    assert pone.choices[0].expected == best.hand - best.crib
    for players, variant, dealt in ((3, STANDARD, THREE), (2, FIVE_CARD, THREE),
                                    (2, SEVEN_CARD, WORKED + " AS")):
        board = cribtable.advise(cards(dealt), players, True, variant)
        exact_advice = discard.advise(cards(dealt), players, True, variant)
        for choice in board.choices:
            twin = choice_of(exact_advice, cards_text(choice.laid))
            assert (Fraction(choice.hand, board.denominator)
                    == Fraction(twin.hand, exact_advice.denominator))
            assert choice.crib == cribtable.table_crib(choice.laid)
    with pytest.raises(BadConfig, match="shotgun has no crib"):
        cribtable.advise(cards(WORKED), variant=SHOTGUN)


def test_the_app_does_not_import_the_advisor():
    run = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path[:0] = ['.', 'lib']; import cribbage.app; "
         "print(sorted(m for m in sys.modules if m in ('engine.cribtable', 'engine.discard')))"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "[]\n"


# --- under MicroPython ----------------------------------------------------------------

_MP = """
from engine import cribtable, discard
def line(advice):
    return ";".join(["%s %s %d %d %d" % (c.laid, c.kept, c.hand, c.crib, c.expected)
                     for c in advice.choices])
print(line(cribtable.advise([29, 30, 40, 23, 26, 50], 2, True)))
print(line(cribtable.advise([29, 30, 40, 23, 26], 3, False)))
print(line(discard.advise([9, 13, 25, 29, 43, 50], 2, False, 0,
                          [0, 5, 19, 16, 41, 42, 33, 37, 45, 49])))
"""


def test_the_advice_runs_under_micropython():
    from tools.mprun import run_micropython
    result = run_micropython(_MP, files=("engine",))
    assert result.ok, result.error

    def line(advice):
        return ";".join(["%s %s %d %d %d" % (c.laid, c.kept, c.hand, c.crib, c.expected)
                         for c in advice.choices])
    assert result.stdout.splitlines() == [
        line(cribtable.advise([29, 30, 40, 23, 26, 50], 2, True)),
        line(cribtable.advise([29, 30, 40, 23, 26], 3, False)),
        line(discard.advise([9, 13, 25, 29, 43, 50], 2, False, 0,
                            [0, 5, 19, 16, 41, 42, 33, 37, 45, 49])),
    ]
