"""The game: seats and sides, dealing order, his heels, the show, claims, the end,
skunks and matches, variants, undo; and refused actions that change nothing."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, make_config, parse_card, parse_cards, score_hand
from engine import state
from engine.cards import value_of
from engine.errors import BadClaim, CardSeen, GameOver, IllegalAction, WrongPhase
from engine.game import CUT, OVER, PLAY, SHOW, STARTER
from engine.match import DEFAULT_VALUES
from engine.play import NOBODY
from engine.rules import FIVE_CARD, LOWBALL, SEVEN_CARD, SHOTGUN, STANDARD, hand_size

from engine_checks import deal, play_hand


def cards(text):
    return parse_cards(text.split())


def cards_as_keyed(text):
    """Cards as keyed on the board: the same card twice is possible."""
    return [parse_card(t) for t in text.split()]


def refused(game, action, kind=IllegalAction):
    """`action` is refused, with the game exactly as it was; the message."""
    before = state.encode(game)
    journal = list(game.journal)
    with pytest.raises(kind) as err:
        action()
    assert state.encode(game) == before
    assert game.journal == journal
    return str(err.value)


def peg_to(game, side, score):
    while game.scores[side] < score:
        game.peg(side, min(29, score - game.scores[side]))


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

def showing_sixteen(**config):
    game = Game(make_config(**config), dealer=0)
    game.turn_starter(parse_card("KC"))
    game.advance()
    return game, cards("4C 5D 5H 6S")


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


# --- undo -----------------------------------------------------------------------------

def test_undo_forty_actions_one_by_one():
    game = Game(make_config(players=3, muggins=True), dealer=1)
    log = [state.encode(game)]
    seed = 1
    while len(game.journal) < 45:
        hands, crib, starter = deal(game, seed)
        seed += 1
        play_hand(game, hands, crib, starter, log)
    assert len(game.journal) >= 40
    while game.journal:
        log.pop()
        game.undo()
        assert state.encode(game) == log[-1]
    assert "nothing to undo" in refused(game, game.undo)


def test_undo_returns_the_event_and_a_redo_gives_the_same_state():
    game = Game()
    game.turn_starter(parse_card("JC"))
    after = state.encode(game)
    event = game.undo()
    assert event == bytes([state.STARTER, parse_card("JC")])
    assert game.scores == [0, 0]
    game.turn_starter(parse_card("JC"))
    assert state.encode(game) == after


# --- random games: refusals change nothing, undo is exact ------------------------------------

VARIANTS = [STANDARD, FIVE_CARD, SEVEN_CARD, SHOTGUN, LOWBALL]


def random_action(game, rnd, deals):
    """One action a player might key, legal or not."""
    key = (game.games_played, game.hand_no)
    if key not in deals:
        deals[key] = deal(game, rnd.randrange(1 << 30))
    hands, crib, starter = deals[key]
    roll = rnd.random()
    if roll < 0.03:
        return lambda: game.peg(rnd.randrange(game.sides + 1), rnd.choice([1, 2, 5, 29, 30]))
    if roll < 0.05:
        return lambda: game.set_dealer(rnd.randrange(game.players))
    if roll < 0.06:
        return game.misdeal
    if roll < 0.07:
        return game.advance
    if roll < 0.09:
        return lambda: game.lay(rnd.randrange(52))
    if game.phase == CUT:
        return lambda: game.cut_for_deal(rnd.sample(range(52), game.players))
    if game.phase == STARTER:
        return lambda: game.turn_starter(starter if rnd.random() < 0.9 else rnd.randrange(52))
    if game.phase == PLAY:
        seat = game.play.turn
        left = [c for c in hands[seat] if c not in game.play.laid[seat]]
        fits = [c for c in left if game.play.count + value_of(c) <= 31]
        if fits and rnd.random() < 0.9:
            return lambda: game.lay(rnd.choice(fits))
        return game.go
    if game.phase == SHOW:
        seat, is_crib = game.showing()
        shown = crib if is_crib else hands[seat]
        real = score_hand(shown, starter, is_crib) if game.starter == starter else 0
        claim = rnd.choice([None, None, real, max(0, real - 2), real + 1, 19])
        return lambda: game.count_show(shown, claim, rnd.random() < 0.5)
    return game.advance


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.sampled_from(VARIANTS), st.booleans(), st.booleans(),
       st.randoms(use_true_random=False))
def test_random_games_refusals_change_nothing_and_undo_is_exact(players, variant, muggins, cut,
                                                                 rnd):
    if variant == FIVE_CARD:
        players = 2
    game = Game(make_config(players=players, variant=variant, muggins=muggins), cut=cut)
    deals = {}
    history = [state.encode(game)]
    for _ in range(250):
        if rnd.random() < 0.08 and game.journal:
            game.undo()
            history.pop()
            assert state.encode(game) == history[-1]
            continue
        action = random_action(game, rnd, deals)
        before, journal = state.encode(game), len(game.journal)
        try:
            action()
        except IllegalAction:
            assert state.encode(game) == before and len(game.journal) == journal
            continue
        assert len(game.journal) == journal + 1
        history.append(state.encode(game))
        assert max(game.scores) < game.config.target or game.over
        if game.over:
            break
    again = state.from_bytes(Game, state.to_bytes(game))
    assert state.encode(again) == state.encode(game) and again.journal == game.journal
    while game.journal:
        game.undo()
        history.pop()
        assert state.encode(game) == history[-1]


# --- long sessions ------------------------------------------------------------------------

def test_hand_and_game_counters_stop_at_255_and_the_game_goes_on():
    # Both are saved in one byte; they used to overflow it and make the action fail.
    game = Game()
    for _ in range(260):
        for _ in range(5):
            game.peg(0, 25)
        game.next_game()
    assert game.games_played == 255
    for _ in range(260 * 5):  # starter, play, three show steps: one hand
        game.advance()
    assert game.hand_no == 255
    again = state.from_bytes(Game, state.to_bytes(game))
    assert state.encode(again) == state.encode(game)
    game.undo()
    assert game.hand_no == 255


# --- what each action returns ------------------------------------------------------------

def test_every_action_returns_an_outcome_with_the_event_it_journalled():
    from engine import Outcome
    game = Game(make_config(muggins=True), dealer=0, cut=True)
    outcomes = [game.cut_for_deal(cards("9H AD")), game.set_dealer(0), game.peg(0, 3),
                game.turn_starter(parse_card("KC")), game.lay(parse_card("5H")),
                game.lay(parse_card("KS")), game.advance()]
    for outcome in outcomes:
        assert isinstance(outcome, Outcome)
        assert (outcome.seat, outcome.crib, outcome.show, outcome.claim) == (None,) * 4
    assert [o.event for o in outcomes] == game.journal
    assert [(s.side, s.points, s.reasons) for o in outcomes for s in o.scores] == \
        [(0, 3, ["pegged"]), (0, 2, ["fifteen"])]
    shown = game.count_show(cards("4C 5D 5H 6S"), claim=12, muggins=True)
    assert (shown.event == game.journal[-1]
            == bytes([state.SHOW, 12, 1, 4]) + bytes(cards("4C 5D 5H 6S")))
    assert (shown.seat, shown.crib, shown.claim, shown.show.total) == (1, False, 12, 16)
    assert [(s.side, s.points, s.reasons) for s in shown.scores] == \
        [(1, 12, ["hand"]), (0, 4, ["muggins"])]
    assert game.undo() == shown.event


def test_a_misdeal_returns_an_outcome_with_no_scores():
    game = Game()
    game.turn_starter(parse_card("5C"))
    outcome = game.misdeal()
    assert outcome.event == bytes([state.MISDEAL]) and outcome.scores == []


# --- asking the rules before acting ------------------------------------------------------

def test_refusal_gives_the_sentence_and_keeps_nothing():
    game = Game()
    game.turn_starter(parse_card("2C"))
    for t in ("KH", "QS", "5D"):
        game.lay(parse_card(t))
    before, journal = state.encode(game), list(game.journal)
    assert game.refusal(game.lay, parse_card("9S")) == "9S makes the count 34; the limit is 31"
    assert (game.refusal(game.lay, parse_card("KH"))
            == "KH is already out this deal (laid in the play)")
    assert game.refusal(game.lay, parse_card("2C")) == "2C is already out this deal (the starter)"
    assert game.refusal(game.lay, parse_card("AS")) is None  # allowed, and not kept
    assert game.refusal(game.go) is None
    assert game.refusal(game.misdeal) == "a misdeal is called before any card is played"
    assert (game.refusal(game.set_dealer, 1)
            == "the dealer changes only before the starter is turned")
    assert (game.refusal(game.cut_for_deal, cards("5H 6D"))
            == "the cut for deal comes before the first hand")
    assert state.encode(game) == before and game.journal == journal
    fresh = Game()
    fresh.turn_starter(parse_card("2C"))
    fresh.lay(parse_card("AS"))
    assert fresh.refusal(fresh.go) == "the count is 1: any card fits, no go"
    with pytest.raises(WrongPhase):
        fresh.go()


def test_check_card_says_where_a_card_went():
    game = Game(dealer=0)
    game.turn_starter(parse_card("KC"))
    game.lay(parse_card("5H"))
    game.advance()
    game.count_show(cards("4C 5D 5H 6S"))
    assert game.refusal(game.check_card, parse_card("QH")) is None
    assert (game.refusal(game.check_card, parse_card("KC"))
            == "KC is already out this deal (the starter)")
    assert (game.refusal(game.check_card, parse_card("5H"))
            == "5H is already out this deal (laid in the play)")
    assert (game.refusal(game.check_card, parse_card("4C"))
            == "4C is already out this deal (in a hand shown)")
    with pytest.raises(CardSeen):
        game.check_card(parse_card("6S"))


def test_check_claim_knows_the_hand_size_and_the_crib():
    game = Game(make_config(variant=FIVE_CARD), dealer=0)
    game.turn_starter(parse_card("KC"))
    game.advance()
    assert game.refusal(game.check_claim, 16) == "16 is impossible: no hand makes it"  # 3 cards
    assert game.refusal(game.check_claim, 20) is None
    assert game.refusal(game.check_claim, 21) == "21 is impossible: no hand makes it"
    game.count_show(cards("4C 5D 6S"))
    game.count_show(cards("AH 2H 3H"))
    assert game.showing() == (0, True)
    assert game.refusal(game.check_claim, 16) is None  # the crib is 4 cards
    assert game.refusal(game.check_claim, 19) == "19 is impossible: no crib makes it"
    assert (game.refusal(game.count_show, cards("7C 7D 8H 9D"), 19)
            == "19 is impossible: no crib makes it")


def test_preview_shows_what_a_count_would_peg():
    game, hand = showing_sixteen(muggins=True)
    before = state.encode(game)
    seen = list(game.journal)
    outcome = game.preview(game.count_show, hand, 10, True)
    assert outcome.show.total == 16
    assert [(s.side, s.points, s.reasons) for s in outcome.scores] == \
        [(1, 10, ["hand"]), (0, 6, ["muggins"])]
    assert state.encode(game) == before and game.journal == seen
    with pytest.raises(BadClaim):
        game.preview(game.count_show, hand, 18)
    skipped = Game(make_config(muggins=True))
    skipped.advance()
    skipped.advance()  # no starter keyed
    assert (skipped.refusal(skipped.count_show, hand)
            == "no starter was keyed: peg this hand by points")


# --- the caps of each hand size ----------------------------------------------------------

@pytest.mark.parametrize("variant, top", [(STANDARD, 29), (FIVE_CARD, 29), (SEVEN_CARD, 46),
                                          (SHOTGUN, 72), (LOWBALL, 29)])
def test_the_highest_single_peg_follows_the_hand_size(variant, top):
    game = Game(make_config(variant=variant))
    assert game.limits.max_peg == top
    assert "a score is 1 to %d" % top in refused(game, lambda: game.peg(0, top + 1))
    game.peg(1, top)
    assert game.scores[1] == top + (3 if variant == FIVE_CARD else 0)  # five-card: the pone's 3


def test_seven_card_and_shotgun_hands_over_29_are_claimed():
    game = Game(make_config(variant=SEVEN_CARD), dealer=0)
    game.turn_starter(parse_card("4H"))
    game.advance()
    counted = game.count_show(cards("4S 5S 5H 6S 6H"), claim=46)
    assert counted.claim == 46 and game.scores == [0, 46]
    game = Game(make_config(variant=SHOTGUN), dealer=0)
    game.turn_starter(parse_card("4H"))
    game.advance()
    assert "impossible" in refused(game, lambda: game.count_show(cards("4S 5S 5H 5D 6S 6H"), 71))
    game.count_show(cards("4S 5S 5H 5D 6S 6H"), claim=72)
    assert game.scores == [0, 72]
