"""tests.engine_checks_parts: the checks of the engine's parts, for any Python: cards,
the show, pegging, the play, the rules and the match (tests/engine_checks.py runs them).
"""

from engine import Game, is_impossible, make_config, parse_card, parse_cards, peg_points
from engine.cards import card_name, rank_of, suit_of, value_of
from engine.errors import IllegalAction, OverThirtyOne
from engine.match import games_to_win, game_value, skunk_level, skunk_line, skunk_lines
from engine.pegging import peg_reasons
from engine.play import NOBODY, Play
from engine.rules import (FIVE_CARD, LOWBALL, SEVEN_CARD, SHOTGUN, has_crib, hand_size,
                          limits, sides_of)
from engine.show import score_hand, score_ranks, score_show
from engine_helpers import cards, raises, refused_unchanged, shuffled

try:
    from tools import naive
except ImportError:  # run without tools/ beside engine/
    naive = None


# --- cards -------------------------------------------------------------------

def check_cards_parse():
    assert card_name(parse_card("5h")) == "5H"
    assert card_name(parse_card("10D")) == "10D"
    assert parse_card("TD") == parse_card("10d")
    assert parse_card("Q\u2660") == parse_card("qs")
    assert parse_card("a\u2663") == parse_card("AC")
    for c in range(52):
        assert parse_card(card_name(c)) == c
        assert parse_card(card_name(c, True)) == c
    assert rank_of(parse_card("KC")) == 13 and suit_of(parse_card("KC")) == 3
    assert value_of(parse_card("QH")) == 10 and value_of(parse_card("AH")) == 1


def check_cards_bad_text():
    for bad in ("5X", "1H", "11S", "", "Z", "10"):
        message = raises(ValueError, lambda: parse_card(bad))
        assert repr(bad) in message
    assert "duplicate" in raises(ValueError, lambda: parse_cards(["5H", "5h"]))


# --- the show ----------------------------------------------------------------

def check_show_reference_hands():
    assert score_hand(cards("4C 5D 5H 6S"), parse_card("KC")) == 16
    assert score_hand(cards("5H 5D 5S JC"), parse_card("5C")) == 29
    assert score_hand(cards("5H 6D 7S 9C"), parse_card("KH")) == 7
    assert score_hand(["4c", "5d", "5h", "6s"], "kc") == 16


def check_show_double_runs():
    assert score_ranks([4, 5, 5, 6]) == 8 + 4  # two runs, a pair, two fifteens
    show = score_show(cards("5C 6D 6H 7S"), parse_card("7C"))
    assert show.total == 16
    runs = [i for i in show.items if i.kind == "run"]
    assert len(runs) == 4


def check_show_flush_and_nobs():
    hand = cards("2H 4H 6H 8H")
    assert score_hand(hand, parse_card("QH")) - score_hand(hand, parse_card("QS")) == 1
    assert score_hand(hand, parse_card("QS"), True) == score_hand(hand, parse_card("QS")) - 4
    assert score_hand(cards("2H 4H 6H 8S"), parse_card("QH")) == 0  # 3 + starter: no flush
    assert score_hand(cards("JH 2S 4D 9C"), parse_card("6H")) == 5  # 2+4+9, 6+9, nobs
    assert score_hand(cards("JS 2S 4D 9C"), parse_card("6H")) == 4


def check_show_items_and_spoken():
    show = score_show(cards("9S 10S 6C JS"), parse_card("6S"))
    assert show.total == 10
    assert [i.kind for i in show.items] == ["fifteen", "fifteen", "pair", "run", "nobs"]
    assert show.spoken == ("fifteen two, fifteen four, a pair is six, "
                           "a run of three is nine, one for his nobs is ten")
    total = 0
    for item in show.items:
        total += item.points
    assert total == show.total
    assert score_show(cards("AH 3S 7D 9C"), parse_card("QH")).spoken == "nineteen: no score"
    # A rank's pairs are said as one: a pair royal, a double pair royal.
    assert (score_show(cards("5H 5D 5C 6S"), parse_card("6D")).spoken
            == "fifteen two, a pair royal is eight, a pair is ten")
    assert (score_show(cards("AH AD AC AS"), parse_card("2D")).spoken
            == "a double pair royal is twelve")


def check_show_bigger_hands():
    assert score_hand(cards("5S 5H 5D 5C JS"), parse_card("KS")) == 37
    assert score_hand(cards("2H 3H 4H 5H 6H 7H"), parse_card("8H")) == 28


def check_show_impossible():
    for total in (19, 25, 26, 27, 30, 100):
        assert is_impossible(total)
    for total in (0, 1, 18, 20, 24, 28, 29):
        assert not is_impossible(total)


def check_show_against_naive():
    if naive is None:
        return
    for seed in range(40):
        deck = shuffled(seed + 1000)
        hand, starter = deck[:4], deck[4]
        pairs = [(rank_of(c), suit_of(c)) for c in hand]
        for crib in (False, True):
            want = naive.score(pairs, (rank_of(starter), suit_of(starter)), crib)
            assert score_hand(hand, starter, crib) == want
            assert score_show(hand, starter, crib).total == want
            yield


# --- pegging -------------------------------------------------------------------

def check_pegging_points():
    assert peg_points(cards("5H KS")) == 2
    assert peg_points(cards("KH QS JD AC")) == 2
    assert peg_points(cards("4H 4S")) == 2
    assert peg_points(cards("4H 4S 4D")) == 6
    assert peg_points(cards("4H 4S 4D 4C")) == 12
    assert peg_points(cards("2H 8S 6D 7C 5S")) == 4
    assert peg_points(cards("2H 5C 7C 7D 6S")) == 0
    assert peg_points(cards("AH 7S 7D")) == 4
    assert [r for r, _ in peg_reasons(cards("AH 7S 7D"))] == ["fifteen", "pair"]
    assert "32" in raises(ValueError, lambda: peg_points(cards("KH QS JD 2C")))


# --- the play --------------------------------------------------------------------

def check_play_rules_example():
    game = Game()
    game.turn_starter(parse_card("KC"))
    assert game.play.turn == 1
    assert game.lay(parse_card("6H")).scores == []
    assert game.lay(parse_card("9S")).scores[0].points == 2
    assert game.lay(parse_card("9D")).scores[0].reasons == ["pair"]
    s = game.lay(parse_card("7C")).scores
    assert s[0].side == 0 and s[0].points == 2 and s[0].reasons == ["thirty-one"]
    assert game.play.count == 0 and game.play.turn == 1


def check_play_go_and_refusals():
    game = Game()
    game.turn_starter(parse_card("2C"))
    for t in ("KH", "QS", "5D"):
        game.lay(parse_card(t))
    message = refused_unchanged(game, lambda: game.lay(parse_card("9S")), OverThirtyOne)
    assert message == "9S makes the count 34; the limit is 31"
    game.go()
    assert game.play.turn == 1
    game.lay(parse_card("4C"))
    s = game.go().scores
    assert s[0].side == 1 and s[0].points == 1 and s[0].reasons == ["go"]
    assert game.play.turn == 0
    game.lay(parse_card("5H"))
    assert "5" in refused_unchanged(game, game.go)


def check_play_three_and_four_players():
    game = Game(make_config(players=3), dealer=2)
    game.turn_starter(parse_card("2C"))
    for t in ("KH", "QS", "5D"):
        game.lay(parse_card(t))
    game.go()
    game.lay(parse_card("AS"))
    game.go()
    s = game.go().scores
    assert s[0].side == 1 and s[0].points == 1
    assert game.play.turn == 2
    game = Game(make_config(players=4), dealer=3)
    game.turn_starter(parse_card("JC"))
    assert game.scores == [0, 2]
    for t in ("5H", "KH", "5S", "5D"):
        game.lay(parse_card(t))
    assert game.scores == [0, 6]


def check_play_class_last_card():
    play = Play(2, 1, 3)
    for t in ("KH", "KS", "5H", "3S"):
        play.lay(parse_card(t))
    assert play.go() == []
    assert play.lay(parse_card("2S")) == [(0, 1, ["go"])]
    assert play.lay(parse_card("9D")) == [(1, 1, ["last card"])]
    assert play.over and play.turn == NOBODY
    again, _ = Play.from_list(play.to_list())
    assert again.to_list() == play.to_list()


# --- rules and match ---------------------------------------------------------------

def check_rules_config():
    assert make_config().target == 121 and make_config(target=61).target == 61
    assert make_config(variant=FIVE_CARD).target == 61
    assert hand_size(make_config(variant=SEVEN_CARD)) == 5
    assert hand_size(make_config(variant=SHOTGUN)) == 6
    assert not has_crib(make_config(variant=SHOTGUN))
    assert sides_of(2) == 2 and sides_of(3) == 3 and sides_of(4) == 2
    for bad in ({"players": 5}, {"target": 100}, {"match_games": 2}, {"variant": 9},
                {"values": (2, 1, 4, 0)}, {"players": 3, "variant": FIVE_CARD}):
        raises(IllegalAction, lambda: make_config(**bad))


def check_match_skunks():
    assert skunk_level(91, 121) == 0 and skunk_level(90, 121) == 1
    assert skunk_level(61, 121) == 1 and skunk_level(60, 121) == 2
    assert skunk_level(30, 121) == 2 and skunk_level(30, 121, (1, 2, 4, 5)) == 3
    assert skunk_level(31, 121, (1, 2, 4, 5)) == 2
    assert skunk_level(30, 61) == 1 and skunk_level(31, 61) == 0
    assert game_value(0) == 1 and game_value(1) == 2 and game_value(2) == 4
    assert games_to_win(1) == 1 and games_to_win(3) == 2 and games_to_win(5) == 3


def check_match_skunk_lines():
    assert skunk_lines(121) == (91, 61) and skunk_lines(61) == (31,)
    assert skunk_lines(121, (1, 2, 4, 5)) == (91, 61, 31)
    assert [skunk_line(level, 121) for level in range(4)] == [0, 91, 61, 31]
    assert skunk_line(1, 61) == 31 and skunk_line(0, 61) == 0


def check_rules_caps():
    caps = [limits(make_config(variant=v)) for v in (0, FIVE_CARD, SEVEN_CARD, SHOTGUN, LOWBALL)]
    assert [c.max_hand for c in caps] == [29, 20, 46, 72, 29]
    assert [c.max_peg for c in caps] == [29, 29, 46, 72, 29]
    assert caps[0].impossible_hand == (19, 25, 26, 27) == caps[1].impossible_crib
    assert caps[3].max_crib == 0 and caps[3].impossible_crib == ()
    assert is_impossible(16, 3) and not is_impossible(16, 3, True) and is_impossible(47, 5)


# In the order they run.
CHECKS = [
    check_cards_parse, check_cards_bad_text, check_show_reference_hands, check_show_double_runs,
    check_show_flush_and_nobs, check_show_items_and_spoken, check_show_bigger_hands,
    check_show_impossible, check_show_against_naive, check_pegging_points,
    check_play_rules_example, check_play_go_and_refusals, check_play_three_and_four_players,
    check_play_class_last_card, check_rules_config, check_match_skunks, check_match_skunk_lines,
    check_rules_caps,
]
