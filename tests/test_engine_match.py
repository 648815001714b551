"""The game's end in a match: skunks and their values, matches won by games, the next
game; and the variants (lowball, five-card, seven-card, shotgun) and a misdeal.
"""

import pytest

from engine import Game, make_config, parse_card
from engine.errors import WrongPhase
from engine.game import STARTER
from engine.match import DEFAULT_VALUES
from engine.play import NOBODY
from engine.rules import FIVE_CARD, LOWBALL, SEVEN_CARD, SHOTGUN, hand_size

from engine_helpers import cards, deal, play_hand
from game_helpers import peg_to, refused


# --- skunks, values, matches ---------------------------------------------------------------------

@pytest.mark.parametrize("loser, level, value", [
    (120, 0, 1), (91, 0, 1), (90, 1, 2), (61, 1, 2), (60, 2, 4), (0, 2, 4)])
def test_skunks_with_default_values(loser, level, value):
    assert DEFAULT_VALUES == (1, 2, 4, 0)
    game = Game()
    peg_to(game, 1, loser)
    peg_to(game, 0, 121)
    assert game.winner == 0 and game.loser == 1
    assert game.level == level and game.tally == [value, 0]


@pytest.mark.parametrize("loser, level, value", [(31, 2, 3), (30, 3, 5), (0, 3, 5), (60, 2, 3)])
def test_triple_skunk_when_valued(loser, level, value):
    game = Game(make_config(values=(1, 2, 3, 5)))
    peg_to(game, 1, loser)
    peg_to(game, 0, 121)
    assert game.level == level and game.tally == [value, 0]


@pytest.mark.parametrize("loser, level", [(31, 0), (30, 1), (0, 1)])
def test_skunk_in_a_61_hole_game(loser, level):
    game = Game(make_config(target=61))
    peg_to(game, 1, loser)
    peg_to(game, 0, 61)
    assert game.over and game.level == level


@pytest.mark.parametrize("games, need", [(1, 1), (3, 2), (5, 3)])
def test_a_match_is_won_by_games_and_skunks(games, need):
    game = Game(make_config(match_games=games))
    played = 0
    while game.match_winner() == NOBODY:
        if game.over:
            game.next_game()
        peg_to(game, 0, 100)   # plain wins for side 0
        peg_to(game, 1, 121)
        played += 1
        assert game.tally == [0, played]
    assert game.match_winner() == 1 and played == need


def test_next_game_the_loser_deals_and_a_new_match_starts():
    game = Game(make_config(match_games=3), dealer=0)
    peg_to(game, 1, 121)  # side 0 double skunked: 4 game points, the match
    assert game.tally == [0, 4] and game.match_winner() == 1
    game.next_game()
    assert game.tally == [0, 0] and game.dealer == 0 and game.phase == STARTER
    assert game.journal == [] and game.games_played == 1
    refused(game, game.undo)


def test_next_game_mid_match_keeps_the_tally():
    game = Game(make_config(match_games=5), dealer=1)
    peg_to(game, 1, 95)
    peg_to(game, 0, 121)
    game.next_game()
    assert game.tally == [1, 0] and game.dealer == 1 and game.scores == [0, 0]


def test_next_game_only_after_the_end():
    game = Game()
    with pytest.raises(WrongPhase):
        game.next_game()


# --- variants ------------------------------------------------------------------------

def test_lowball_the_first_to_the_target_loses():
    game = Game(make_config(variant=LOWBALL))
    peg_to(game, 1, 40)
    peg_to(game, 0, 121)
    assert game.over and game.loser == 0 and game.winner == 1 and game.tally == [0, 1]


def test_lowball_three_players_the_lowest_wins():
    game = Game(make_config(players=3, variant=LOWBALL))
    peg_to(game, 1, 50)
    peg_to(game, 2, 40)
    peg_to(game, 0, 121)
    assert game.loser == 0 and game.winner == 2


def test_five_card_cribbage():
    game = Game(make_config(variant=FIVE_CARD), dealer=0)
    assert game.config.target == 61 and hand_size(game.config) == 3
    assert game.scores == [0, 3]  # three for last to the pone
    hands, crib, starter = deal(game, 4)
    play_hand(game, hands, crib, starter)
    assert game.hand_no == 1 or game.over
    refused(game, lambda: make_config(players=3, variant=FIVE_CARD))


def test_five_card_the_three_follow_the_cut():
    game = Game(make_config(variant=FIVE_CARD), dealer=0, cut=True)
    assert game.scores == [0, 3]
    game.cut_for_deal(cards("5H 2D"))  # seat 1 deals: seat 0 is the pone
    assert game.dealer == 1 and game.scores == [3, 0]


def test_five_card_a_new_first_dealer_moves_only_the_three():
    # Points keyed before the first hand used to be wiped when the dealer
    # changed, and the 3 stayed put once the pone had pegged more.
    game = Game(make_config(variant=FIVE_CARD), dealer=0)
    game.peg(0, 5)
    game.set_dealer(1)
    assert game.dealer == 1 and game.scores == [8, 0]
    game = Game(make_config(variant=FIVE_CARD), dealer=0)
    game.peg(1, 2)
    game.set_dealer(1)
    assert game.scores == [3, 2]
    game.set_dealer(1)  # the same dealer again: nothing moves
    assert game.scores == [3, 2]
    game.undo()
    game.undo()
    assert game.scores == [0, 5] and game.dealer == 0


def test_seven_card_cribbage_counts_five_card_hands():
    game = Game(make_config(variant=SEVEN_CARD), dealer=0)
    game.turn_starter(parse_card("KS"))
    game.advance()
    counted = game.count_show(cards("5S 5H 5D 5C JS"))
    assert counted.show.total == 37
    refused(game, lambda: game.count_show(cards("2S 3H 4D 6C")))  # a 4-card hand


def test_shotgun_keeps_six_cards_and_no_crib():
    game = Game(make_config(variant=SHOTGUN), dealer=0)
    assert game.show_order() == [(1, False), (0, False)]
    hands, crib, starter = deal(game, 9)
    assert crib is None and len(hands[0]) == 6
    play_hand(game, hands, crib, starter)
    assert game.hand_no == 1 or game.over


def test_a_misdeal_before_any_card():
    game = Game()
    game.turn_starter(parse_card("5C"))
    game.misdeal()
    assert game.phase == STARTER and game.starter == NOBODY and game.dealer == 0
    game.turn_starter(parse_card("5C"))
    game.lay(parse_card("5H"))
    refused(game, game.misdeal, WrongPhase)
