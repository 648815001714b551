"""Undo: action by action, the event returned, random games where refusals change nothing
and undo is exact; and the counters of a long session.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, make_config, parse_card, score_hand
from engine import state
from engine.cards import value_of
from engine.errors import IllegalAction
from engine.game import CUT, PLAY, SHOW, STARTER
from engine.rules import FIVE_CARD, LOWBALL, SEVEN_CARD, SHOTGUN, STANDARD

from engine_helpers import deal, play_hand
from game_helpers import refused


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
    event = game.undo().event
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
