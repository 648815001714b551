"""Pegging: points for the card just laid, by hand and against tools/naive.py."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools import naive
from engine import parse_cards, peg_points
from engine.cards import rank_of, suit_of, value_of
from engine.pegging import MAX_COUNT, peg_reasons, pile_count


def pile(text):
    return parse_cards(text.split())


@pytest.mark.parametrize("text, points, reasons", [
    ("5H KS", 2, ["fifteen"]),
    ("7H 8S", 2, ["fifteen"]),
    ("KH QS JD AC", 2, ["thirty-one"]),
    ("5H 5S", 2, ["pair"]),
    ("5H 5S 5D", 8, ["fifteen", "pair royal"]),
    ("4H 4S 4D", 6, ["pair royal"]),
    ("5H 5S 5D 5C", 12, ["double pair royal"]),
    ("KH QS", 0, []),                      # both count ten, but no pair
    ("AH 7S 7D", 4, ["fifteen", "pair"]),  # A-7-7: fifteen for 4
    ("2H 8S 6D 7C 5S", 4, ["run of 4"]),   # docs/rules.md: ends in a run of 4 (8,6,7,5)
    ("2H 5C 7C 7D 6S", 0, []),             # the second 7 is in the way
    ("3H 4S 2D", 3, ["run of 3"]),
    ("4H 2S 3D", 3, ["run of 3"]),
    ("AH 2S 3D 4C 5H", 7, ["fifteen", "run of 5"]),
    ("5H 3S 4D 2C AH", 7, ["fifteen", "run of 5"]),
    ("3H 4S 5D 3C", 5, ["fifteen", "run of 3"]),  # the last three: 4-5-3
    ("3H 4S 5D 3C 2S", 4, ["run of 4"]),          # 4-5-3-2
    ("3H 4S 3D 5C", 5, ["fifteen", "run of 3"]),  # 4-3-5 after a 3
    ("3H 4S 5D 5C", 2, ["pair"]),
    ("QH KS AD", 0, []),                   # runs do not wrap round
    ("9H 10S JD", 3, ["run of 3"]),
    ("AH 9H JS 10D", 3, ["run of 3"]),
    ("6H 7S 7D 8C", 0, []),               # a repeated rank breaks the run

    ("6H 6S 6D 4C", 0, []),
    ("KH 10S 5D AC", 0, []),
    ("KH 10S 5D 6C", 2, ["thirty-one"]),
    ("10H 10S 10D AC", 2, ["thirty-one"]),
    ("7H 7S 7D 10C", 2, ["thirty-one"]),
    ("2H 3S 4D 5C 6S 7H", 6, ["run of 6"]),
    ("AH AS 2D 2C 3S 3H 4D 4C 5S", 0, []),
])
def test_peg_points(text, points, reasons):
    assert peg_points(pile(text)) == points
    assert [r for r, _ in peg_reasons(pile(text))] == reasons


def test_run_of_seven_in_any_order():
    assert peg_points(pile("4H 2S 7D 3C 6H AS 5D")) == 7


def test_text_cards_and_an_empty_pile():
    assert peg_points(["5h", "10d"]) == 2
    assert peg_points([]) == 0


def test_over_thirty_one_is_refused_with_the_count():
    with pytest.raises(ValueError, match="32"):
        peg_points(pile("KH QS JD 2C"))


def test_pile_count():
    assert pile_count(pile("KH 5S AD")) == 16


def legal_piles():
    """A series: distinct cards whose running count stays within 31."""
    def trim(cards):
        out, count = [], 0
        for card in cards:
            if count + value_of(card) > MAX_COUNT:
                break
            count += value_of(card)
            out.append(card)
        return out
    return st.lists(st.integers(0, 51), min_size=1, max_size=14, unique=True).map(trim)


@settings(max_examples=1000, deadline=None)
@given(legal_piles())
def test_peg_points_match_the_naive_reference(cards):
    expected = naive.peg_score([(rank_of(c), suit_of(c)) for c in cards])
    assert peg_points(cards) == expected
    assert sum(points for _, points in peg_reasons(cards)) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 13), min_size=1, max_size=10))
def test_peg_points_on_rank_heavy_piles(ranks):
    # Many repeats of few ranks: pairs royal and broken runs. Suits just cycle.
    cards, used, count = [], {}, 0
    for r in ranks:
        if used.get(r, 0) == 4 or count + min(r, 10) > MAX_COUNT:
            break
        cards.append((r - 1) * 4 + used.get(r, 0))
        used[r] = used.get(r, 0) + 1
        count += min(r, 10)
    expected = naive.peg_score([(rank_of(c), suit_of(c)) for c in cards])
    assert peg_points(cards) == expected
