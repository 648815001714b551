"""The show: hands and cribs counted, checked by hand and against tools/naive.py."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools import naive
from engine import is_impossible, parse_card, parse_cards, score_hand, score_show
from engine.cards import rank_of, suit_of
from engine import limits, make_config
from engine.show import score_ranks

MAX_HAND = limits(make_config()).max_hand

KINDS = ("fifteen", "pair", "run", "flush", "nobs")


def deal(text):
    """'4C 5D 5H 6S | KC' -> (hand, starter) as ints."""
    hand, starter = text.split("|")
    return parse_cards(hand.split()), parse_card(starter.strip())


def kinds(show):
    out = {}
    for item in show.items:
        out[item.kind] = out.get(item.kind, 0) + item.points
    return out


def naive_cards(cards):
    return [(rank_of(c), suit_of(c)) for c in cards]


# --- docs/rules.md's reference hands -------------------------------------------

def test_reference_hand_sixteen():
    show = score_show(*deal("4C 5D 5H 6S | KC"))
    assert show.total == 16
    assert kinds(show) == {"fifteen": 8, "pair": 2, "run": 6}
    assert show.spoken == ("fifteen two, fifteen four, fifteen six, fifteen eight, "
                           "a pair is ten, a run of three is thirteen, a run of three is sixteen")


def test_reference_hand_twenty_nine():
    show = score_show(*deal("5H 5D 5S JC | 5C"))
    assert show.total == 29 == MAX_HAND
    assert kinds(show) == {"fifteen": 16, "pair": 12, "nobs": 1}
    assert show.spoken.endswith("fifteen sixteen, a double pair royal is twenty-eight, "
                                "one for his nobs is twenty-nine")
    nobs = [item for item in show.items if item.kind == "nobs"]
    assert nobs[0].cards == (parse_card("JC"),)


def test_reference_hand_seven():
    show = score_show(*deal("5H 6D 7S 9C | KH"))
    assert show.total == 7
    assert kinds(show) == {"fifteen": 4, "run": 3}
    fifteens = sorted(sorted(item.cards) for item in show.items if item.kind == "fifteen")
    assert (fifteens
            == sorted([sorted(parse_cards(["5H", "KH"])), sorted(parse_cards(["6D", "9C"]))]))
    run = [item for item in show.items if item.kind == "run"][0]
    assert sorted(run.cards) == sorted(parse_cards(["5H", "6D", "7S"]))


def test_spoken_count_wording():
    show = score_show(*deal("9S 10S 6C JS | 6S"))
    assert show.total == 10
    assert show.spoken == ("fifteen two, fifteen four, a pair is six, "
                           "a run of three is nine, one for his nobs is ten")
    assert [item.kind for item in show.items] == ["fifteen", "fifteen", "pair", "run", "nobs"]


def test_zero_hand_is_nineteen():
    show = score_show(*deal("AH 3S 7D 9C | QH"))
    assert show.total == 0 and show.items == []
    assert show.spoken == "nineteen: no score"


# --- runs with duplicates ---------------------------------------------------

def test_double_run_4556_is_eight_before_fifteens():
    assert score_ranks([4, 5, 5, 6]) == 8 + 2 * 2  # 4+5+6 twice makes two fifteens too
    show = score_show(*deal("4C 5D 5H 6S | KC"))
    assert kinds(show)["run"] + kinds(show)["pair"] == 8


def test_double_double_run_56677_is_sixteen_before_fifteens():
    show = score_show(*deal("5C 6D 6H 7S | 7C"))
    assert kinds(show)["run"] == 12 and kinds(show)["pair"] == 4
    assert len([i for i in show.items if i.kind == "run"]) == 4
    assert show.total == 16  # and no fifteens


@pytest.mark.parametrize("text, runs", [
    ("3C 4D 5H 5S | 5C", 9),      # triple run
    ("3C 4D 5H 6S | 6C", 8),      # double run of four
    ("AC 2D 3H 4S | 5C", 5),      # run of five
    ("QC KD AH 2S | 3C", 3),      # runs do not wrap: only A-2-3
    ("9C 10D JH QS | KC", 5),
    ("2C 4D 6H 8S | 10C", 0),
])
def test_runs(text, runs):
    show = score_show(*deal(text))
    assert kinds(show).get("run", 0) == runs


# --- flush and nobs ----------------------------------------------------------

@pytest.mark.parametrize("text, hand, crib", [
    ("2H 4H 6H 8H | QH", 5, 5),
    ("2H 4H 6H 8H | QS", 4, 0),   # a 4-card crib flush scores nothing
    ("2H 4H 6H 8S | QH", 0, 0),   # 3 in hand + a matching starter is no flush
    ("2C 4C 6C 8C | QC", 5, 5),
])
def test_flush(text, hand, crib):
    assert kinds(score_show(*deal(text))).get("flush", 0) == hand
    assert kinds(score_show(*deal(text), crib=True)).get("flush", 0) == crib


def test_nobs_needs_the_jack_of_the_starters_suit_in_the_hand():
    assert kinds(score_show(*deal("JH 2S 4D 9C | 6H"))).get("nobs") == 1
    assert kinds(score_show(*deal("JS 2S 4D 9C | 6H"))).get("nobs") is None
    assert kinds(score_show(*deal("JH 2S 4D 9C | 6H"), crib=True)).get("nobs") == 1
    # A jack starter is his heels (in the play), never nobs.
    assert kinds(score_show(*deal("JS 2S 4D 9C | JH"))).get("nobs") is None


# --- hands of 5 and 6 cards (seven-card and shotgun games) ---------------------

def test_five_card_hand_with_starter():
    show = score_show(*deal("5S 5H 5D 5C JS | KS"))
    # 5+J x4, 5+K x4, 5+5+5 x4 = 12 fifteens; six pairs; nobs
    assert kinds(show) == {"fifteen": 24, "pair": 12, "nobs": 1}
    assert show.total == 37
    assert score_hand(*deal("5S 5H 5D 5C JS | KS")) == 37


def test_six_card_hand_with_starter():
    show = score_show(*deal("2H 3H 4H 5H 6H 7H | 8H"))
    assert kinds(show) == {"fifteen": 14, "run": 7, "flush": 7}
    assert show.total == 28
    assert score_show(*deal("2H 3H 4H 5H 6H 7H | 8S")).total == 14 + 7 + 6
    assert score_show(*deal("2H 3H 4H 5H 6H 7H | 8S"), crib=True).total == 14 + 7


def test_five_card_hand_flush():
    assert kinds(score_show(*deal("AD 3D 7D 9D QD | 2S"))).get("flush") == 5
    assert kinds(score_show(*deal("AD 3D 7D 9D QD | 2D"))).get("flush") == 6


# --- the interface -----------------------------------------------------------

def test_text_and_int_cards_count_the_same():
    assert score_hand(["4c", "5d", "5h", "6s"], "kc") == 16
    assert score_hand(parse_cards(["4C", "5D", "5H", "6S"]), parse_card("KC")) == 16
    assert (score_show(["10S", "5D", "5H", "JS"], "5S").total
            == score_hand(["TS", "5D", "5H", "JS"], "5S"))


def test_the_same_card_twice_is_refused():
    with pytest.raises(ValueError):
        score_hand(["4C", "5D", "5H", "6S"], "4C")
    with pytest.raises(ValueError):
        score_show(["4C", "4C", "5H", "6S"], "KC")


def test_items_are_namedtuples_with_kind_cards_points():
    show = score_show(*deal("4C 5D 5H 6S | KC"))
    for item in show.items:
        assert item.kind in KINDS
        assert isinstance(item.cards, tuple) and item.cards
        assert item.points == {"fifteen": 2, "pair": 2}.get(item.kind, item.points)
    assert show.total == show[0] and show.items is show[1] and show.spoken is show[2]


@pytest.mark.parametrize("total", range(0, 40))
def test_is_impossible(total):
    assert is_impossible(total) == (total in (19, 25, 26, 27) or total > 29)


def test_negative_totals_are_impossible():
    assert is_impossible(-1)
    for size in (3, 4, 5, 6):
        assert is_impossible(-1, size)


@pytest.mark.parametrize("size, top, never", [
    (3, 20, (16, 17, 18, 19)), (4, 29, (19, 25, 26, 27)), (5, 46, (35, 41, 42, 43, 44, 45)),
    (6, 72, (53, 55, 61, 64, 65, 67, 68, 69, 71))])
def test_is_impossible_for_each_hand_size(size, top, never):
    for total in range(0, 100):
        assert is_impossible(total, size) == (total in never or total > top), total
    for total in range(0, 40):  # the crib is 4 cards whatever the hand size
        assert is_impossible(total, size, crib=True) == is_impossible(total, 4)


@pytest.mark.parametrize("hand, starter, total", [
    ("5S 5H 5D", "5C", 20), ("4S 5S 5H 6S 6H", "4H", 46), ("4S 5S 5H 5D 6S 6H", "4H", 72)])
def test_the_highest_hand_of_each_size(hand, starter, total):
    # the hands that reach each size's cap, and the naive scorer agrees
    cards, card = parse_cards(hand.split()), parse_card(starter)
    assert score_hand(cards, card) == total
    assert naive.score(naive_cards(cards), naive_cards([card])[0]) == total


# --- properties against the naive reference ------------------------------------

def distinct_cards(n):
    return st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from([4, 5, 6]).flatmap(lambda n: distinct_cards(n + 1)), st.booleans())
def test_score_matches_the_naive_reference(cards, crib):
    hand, starter = cards[:-1], cards[-1]
    expected = naive.score(naive_cards(hand), naive_cards([starter])[0], crib)
    show = score_show(hand, starter, crib)
    assert score_hand(hand, starter, crib) == expected
    assert show.total == expected
    assert sum(item.points for item in show.items) == show.total


@settings(max_examples=300, deadline=None)
@given(distinct_cards(5), st.booleans(), st.randoms(use_true_random=False))
def test_items_are_in_a_stable_order(cards, crib, rnd):
    hand, starter = cards[:-1], cards[-1]
    show = score_show(hand, starter, crib)
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    again = score_show(shuffled, starter, crib)
    assert again == show
    order = [KINDS.index(item.kind) for item in show.items]
    assert order == sorted(order)
    # the spoken count ends on the total (or says there is none)
    if show.total:
        assert show.spoken.split(" ")[-1] in _number_words(show.total)
    else:
        assert show.spoken == "nineteen: no score"
    for item in show.items:
        assert item.points == {"fifteen": 2, "pair": 2, "nobs": 1}.get(item.kind, item.points)
        if item.kind == "run":
            assert item.points == len(item.cards)
        for card in item.cards:
            assert card in cards


def _number_words(total):
    ones = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen").split()
    if total < 20:
        return [ones[total]]
    tens = "twenty" if total < 30 else "thirty"
    return [tens if total % 10 == 0 else tens + "-" + ones[total % 10]]

