"""The game: seats and sides, dealing order, his heels, the show, claims and the end of
a game; refused actions change nothing. Matches and variants: tests/test_engine_match.py;
undo: tests/test_engine_undo.py; outcomes and asking first: tests/test_engine_outcomes.py."""

import pytest

from engine import Game, make_config, parse_card, score_hand
from engine.errors import BadClaim, GameOver, IllegalAction, WrongPhase
from engine.game import CUT, OVER, SHOW, STARTER

from engine_helpers import cards, deal, play_hand, refused_unchanged
from game_helpers import cards_as_keyed, peg_to, refused, showing_sixteen


# --- seats, sides, targets ----------------------------------------------------------

@pytest.mark.parametrize("players, sides", [(2, 2), (3, 3), (4, 2)])
def test_sides(players, sides):
    game = Game(make_config(players=players))
    assert game.sides == sides and game.scores == [0] * sides
    assert [game.side_of(seat) for seat in range(players)] == [s % sides for s in range(players)]


def test_targets():
    assert Game().config.target == 121
    assert Game(make_config(target=61)).config.target == 61
    with pytest.raises(IllegalAction):
        make_config(target=100)


def test_partners_share_a_score():
    game = Game(make_config(players=4))
    game.peg(0, 5)   # seats 0 and 2
    game.peg(1, 7)   # seats 1 and 3
    assert game.scores == [5, 7]
    refused(game, lambda: game.peg(2, 1))


def test_a_side_the_game_lacks_is_named_if_it_has_a_name():
    game = Game()
    assert refused_unchanged(game, lambda: game.peg(2, 1)) == "no player C in this game"
    assert refused_unchanged(game, lambda: game.peg(3, 1)) == "no such player"


# --- the first dealer, and dealing round the table ------------------------------------

def test_the_lower_cut_deals_ace_low():
    game = Game(cut=True)
    assert game.phase == CUT
    assert game.cut_for_deal(cards("KS AH")).scores == []
    assert game.dealer == 1 and game.pone == 0 and game.phase == STARTER


def test_a_tied_cut_is_refused():
    game = Game(cut=True)
    assert refused(game, lambda: game.cut_for_deal(cards("7S 7H"))) == "a tie: cut again"
    # ranks tie, not count values: 10 and K do not tie
    game.cut_for_deal(cards("KS 10H"))
    assert game.dealer == 1


def test_a_cut_needs_one_card_a_player():
    game = Game(make_config(players=3), cut=True)
    assert "3" in refused(game, lambda: game.cut_for_deal(cards("5H 6H")))
    refused(game, lambda: game.cut_for_deal(cards_as_keyed("5H 6H 5H")))
    game.cut_for_deal(cards("9H 4C 6D"))
    assert game.dealer == 1
    game.turn_starter(parse_card("2C"))
    refused(game, lambda: game.cut_for_deal(cards("9H 4C 6D")), WrongPhase)


def test_the_dealer_set_directly():
    game = Game(dealer=1)
    assert game.dealer == 1 and game.phase == STARTER
    game.set_dealer(0)
    assert game.dealer == 0
    refused(game, lambda: game.set_dealer(2))
    game.turn_starter(parse_card("2C"))
    refused(game, lambda: game.set_dealer(1), WrongPhase)
    with pytest.raises(IllegalAction):
        Game(dealer=2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_passes_clockwise(players):
    game = Game(make_config(players=players), dealer=0)
    dealers = []
    for seed in range(2 * players):
        dealers.append(game.dealer)
        hands, crib, starter = deal(game, seed)
        play_hand(game, hands, crib, starter)
        if game.over:
            break
    assert dealers == [i % players for i in range(len(dealers))]


# --- his heels ----------------------------------------------------------------------

def test_his_heels_pegs_two_for_the_dealer():
    game = Game(dealer=1)
    assert [(s.side, s.points, s.reasons) for s in game.turn_starter(parse_card("JH")).scores] == \
        [(1, 2, ["his heels"])]
    assert game.scores == [0, 2]


def test_his_heels_can_win():
    game = Game(dealer=0)
    peg_to(game, 0, 119)
    game.turn_starter(parse_card("JS"))
    assert game.over and game.winner == 0 and game.scores[0] == 121
    refused(game, lambda: game.lay(parse_card("5H")), GameOver)


def test_no_heels_for_other_starters():
    game = Game()
    assert game.turn_starter(parse_card("QH")).scores == []


# --- the show -------------------------------------------------------------------------

def test_show_order_two_players():
    game = Game(dealer=0)
    assert game.show_order() == [(1, False), (0, False), (0, True)]


@pytest.mark.parametrize("players, dealer, order", [
    (3, 0, [(1, False), (2, False), (0, False), (0, True)]),
    (3, 2, [(0, False), (1, False), (2, False), (2, True)]),
    (4, 1, [(2, False), (3, False), (0, False), (1, False), (1, True)]),
])
def test_show_order_three_and_four_players(players, dealer, order):
    assert Game(make_config(players=players), dealer=dealer).show_order() == order


def test_the_show_walks_pone_dealer_crib():
    game = Game(dealer=0)
    game.turn_starter(parse_card("KC"))
    game.advance()  # no cards keyed in the play
    assert game.phase == SHOW and game.showing() == (1, False)
    assert game.count_show(cards("4C 5D 5H 6S")).scores[0].side == 1
    assert game.showing() == (0, False)
    assert (game.count_show(cards("AH 2H 3H 9S")).show.total
            == score_hand(cards("AH 2H 3H 9S"), parse_card("KC")))
    assert game.showing() == (0, True)
    counted = game.count_show(cards("2S 4H 6H 8H"))
    assert counted.crib and counted.show.total == 0
    assert game.phase == STARTER and game.dealer == 1 and game.hand_no == 1


def test_a_shown_hand_must_hold_the_cards_it_laid():
    game = Game(dealer=0)
    game.turn_starter(parse_card("KC"))
    game.lay(parse_card("5H"))  # seat 1
    game.advance()
    assert "5H" in refused(game, lambda: game.count_show(cards("4C 5D 6H 6S")))
    refused(game, lambda: game.count_show(cards("4C 5D 5H KC")))       # the starter
    refused(game, lambda: game.count_show(cards("4C 5D 5H")))          # too few
    refused(game, lambda: game.count_show(cards_as_keyed("4C 4C 5H 6S")))  # twice
    game.count_show(cards("4C 5D 5H 6S"))


def test_the_crib_needs_four_unseen_cards():
    game = Game(dealer=0)
    game.turn_starter(parse_card("KC"))
    game.advance()
    game.count_show(cards("4C 5D 5H 6S"))
    game.count_show(cards("AH 2H 3H 9S"))
    refused(game, lambda: game.count_show(cards("4C 7D 8H 9D")))  # 4C was shown
    game.count_show(cards("7C 7D 8H 9D"))


# --- claims ----------------------------------------------------------------------------

def test_a_claim_too_high_is_refused_with_the_real_count():
    game, hand = showing_sixteen()
    assert refused(game, lambda: game.count_show(hand, claim=18), BadClaim) == \
        "18 is too high: the hand makes 16"


@pytest.mark.parametrize("claim", [19, 25, 26, 27, 30])
def test_an_impossible_claim_is_refused(claim):
    game, hand = showing_sixteen()
    assert "impossible" in refused(game, lambda: game.count_show(hand, claim=claim), BadClaim)


def test_a_right_claim_pegs_it():
    game, hand = showing_sixteen()
    counted = game.count_show(hand, claim=16)
    assert counted.claim == 16 and game.scores == [0, 16]


def test_a_low_claim_with_muggins_gives_the_difference_to_the_next_side():
    game, hand = showing_sixteen(muggins=True)
    counted = game.count_show(hand, claim=10, muggins=True)
    assert [(s.side, s.points, s.reasons) for s in counted.scores] == \
        [(1, 10, ["hand"]), (0, 6, ["muggins"])]
    assert game.scores == [6, 10]


def test_a_low_claim_with_muggins_not_called_stands():
    game, hand = showing_sixteen(muggins=True)
    game.count_show(hand, claim=10)
    assert game.scores == [0, 10]


def test_a_low_claim_without_muggins_pegs_the_real_count():
    game, hand = showing_sixteen()
    counted = game.count_show(hand, claim=10, muggins=True)
    assert ([(s.side, s.points, s.reasons) for s in counted.scores]
            == [(1, 16, ["hand", "corrected"])])
    assert game.scores == [0, 16]


def test_muggins_in_three_handed_goes_to_the_next_player():
    game = Game(make_config(players=3, muggins=True), dealer=0)
    game.turn_starter(parse_card("KC"))
    game.advance()
    counted = game.count_show(cards("4C 5D 5H 6S"), claim=12, muggins=True)
    assert [(s.side, s.points) for s in counted.scores] == [(1, 12), (2, 4)]


# --- the end of the game ---------------------------------------------------------------------

def test_the_game_ends_mid_play_and_later_counts_are_refused():
    game = Game(dealer=0)
    peg_to(game, 1, 119)
    game.turn_starter(parse_card("2C"))
    game.lay(parse_card("7H"))           # seat 1
    game.lay(parse_card("8S"))           # seat 0: fifteen for 2
    scores = game.lay(parse_card("8D")).scores  # seat 1: a pair wins it
    assert game.over and game.phase == OVER and game.winner == 1 and game.scores == [2, 121]
    assert [s.reasons for s in scores] == [["pair"]]
    for action in (lambda: game.lay(parse_card("9C")), game.go, game.advance,
                   lambda: game.count_show(cards("AH 2H 3H 4H")), lambda: game.peg(0, 1),
                   lambda: game.set_dealer(1), game.misdeal):
        assert "over" in refused(game, action, GameOver)


def test_the_game_ends_mid_show_the_pone_first():
    game = Game(dealer=0)
    peg_to(game, 0, 120)   # the dealer needs 1
    peg_to(game, 1, 110)   # the pone needs 11: counts first
    game.turn_starter(parse_card("KC"))
    game.advance()
    game.count_show(cards("4C 5D 5H 6S"))
    assert game.over and game.winner == 1 and game.loser == 0
    refused(game, lambda: game.count_show(cards("AH 2H 3H 9S")), GameOver)


def test_overshooting_is_fine():
    game = Game()
    peg_to(game, 0, 110)
    game.peg(0, 29)
    assert game.scores[0] == 139 and game.over


def test_front_and_back_pegs():
    game = Game()
    game.peg(0, 6)
    assert (game.scores[0], game.backs[0]) == (6, 0)
    game.peg(0, 4)
    assert (game.scores[0], game.backs[0]) == (10, 6)
    game.peg(1, 3)
    assert (game.scores, game.backs) == ([10, 3], [6, 0])


@pytest.mark.parametrize("points", [0, 30, 255])
def test_a_keyed_score_is_1_to_29(points):
    game = Game()
    refused(game, lambda: game.peg(0, points))
