"""Cards: text in, small ints out, and back."""

import pytest

from engine.cards import (JACK, RANK, SUIT, VALUE, card_name, make_card, parse_card,
                          parse_cards, rank_of, suit_of, value_of)
from engine.errors import BadCard

ACE, KING = 1, 13


@pytest.mark.parametrize("text, rank, suit", [
    ("AS", ACE, 0), ("as", ACE, 0), ("2H", 2, 1), ("5h", 5, 1), ("9c", 9, 3),
    ("10D", 10, 2), ("10d", 10, 2), ("TD", 10, 2), ("td", 10, 2), ("JC", JACK, 3),
    ("Q\u2660", 12, 0), ("q\u2660", 12, 0), ("K\u2665", KING, 1), ("7\u2666", 7, 2),
    ("3\u2663", 3, 3), (" 4s ", 4, 0),
])
def test_parse_card(text, rank, suit):
    card = parse_card(text)
    assert rank_of(card) == rank
    assert suit_of(card) == suit


def test_every_card_round_trips_through_its_name():
    for card in range(52):
        assert parse_card(card_name(card)) == card
        assert parse_card(card_name(card, symbols=True)) == card
        assert parse_card(card_name(card).lower()) == card


def test_names():
    assert card_name(parse_card("TD")) == "10D"
    assert card_name(parse_card("qs")) == "QS"
    assert card_name(parse_card("5h"), symbols=True) == "5\u2665"


def test_ints_pass_through_and_the_layout_is_rank_then_suit():
    assert parse_card(0) == 0 and parse_card(51) == 51
    assert make_card(ACE, 0) == 0 and make_card(KING, 3) == 51
    assert card_name(0) == "AS" and card_name(51) == "KC"


@pytest.mark.parametrize("text, values", [
    ("A", 1), ("5", 5), ("9", 9), ("10", 10), ("J", 10), ("Q", 10), ("K", 10)])
def test_count_values(text, values):
    for suit in "SHDC":
        assert value_of(parse_card(text + suit)) == values


@pytest.mark.parametrize("bad, named", [
    ("5X", "X"), ("1H", "1"), ("11H", "11"), ("0S", "0"), ("ZZ", "Z"), ("H", "H"),
    ("", "''"), ("10", "10"), ("5\u2661", "\u2661"), ("KS!", "!"), ("BH", "B"),
])
def test_bad_text_raises_value_error_naming_the_token(bad, named):
    with pytest.raises(BadCard) as err:
        parse_card(bad)
    assert named in str(err.value)
    assert repr(bad) in str(err.value)


@pytest.mark.parametrize("bad", [-1, 52, 100, True, None, 5.0, b"5H"])
def test_bad_values_raise_value_error(bad):
    with pytest.raises(BadCard):
        parse_card(bad)


def test_parse_cards_refuses_the_same_card_twice():
    assert (parse_cards(["5h", "5D", "10c"])
            == [parse_card("5H"), parse_card("5D"), parse_card("TC")])
    with pytest.raises(ValueError) as err:
        parse_cards(["5H", "6D", "5h"])
    assert "duplicate" in str(err.value) and "5H" in str(err.value)
    with pytest.raises(ValueError, match="10D"):
        parse_cards(["10D", "TD"])
    with pytest.raises(ValueError, match="QS"):
        parse_cards(["Q\u2660", "qs"])


def test_parse_cards_names_the_bad_token_in_a_deal():
    with pytest.raises(ValueError, match="'7Z'"):
        parse_cards(["5H", "7Z", "8C"])


def test_the_tables_are_the_layout():
    # rank, suit and count value read from tables (the board's hot path): the
    # same as the arithmetic of the layout, card by card
    for card in range(52):
        assert RANK[card] == rank_of(card) == card // 4 + 1
        assert SUIT[card] == suit_of(card) == card % 4
        assert VALUE[card] == value_of(card) == min(card // 4 + 1, 10)
        assert make_card(rank_of(card), suit_of(card)) == card
    assert len(RANK) == len(SUIT) == len(VALUE) == 52


def test_bad_card_is_a_value_error_and_not_an_illegal_action():
    from engine.errors import IllegalAction
    assert issubclass(BadCard, ValueError) and not issubclass(BadCard, IllegalAction)
    with pytest.raises(BadCard, match="duplicate"):
        parse_cards(["5H", "5h"])
