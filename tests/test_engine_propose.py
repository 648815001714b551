"""A proposed action changes nothing; committed, it is exactly the action done.

The board's keys propose (game.propose, propose_undo, propose_next) and only
the controller commits: these check that the two steps are the one action."""

import pytest

from engine import Game, make_config, parse_card
from engine import state
from engine.errors import IllegalAction, WrongPhase
from engine.game import ACTION, NEXT, UNDO
from engine.hand import PLAY, STARTER

from engine_helpers import deal, play_hand
from test_engine_atomic import everything, long_game, mid_play, over


def test_every_event_of_whole_games_proposed_then_committed_is_the_event_replayed():
    for players, seed in ((2, 5), (3, 11), (4, 2)):
        done = Game(make_config(players=players, muggins=True), dealer=1)
        twin = Game(make_config(players=players, muggins=True), dealer=1)
        seed0 = seed
        while not done.over and len(done.journal) < 120:
            hands, crib, starter = deal(done, seed)
            seed += 1
            play_hand(done, hands, crib, starter)
        assert len(done.journal) > 40, seed0
        for event in done.journal:
            before = everything(twin)
            change = twin.propose(twin.replay, event)
            assert everything(twin) == before  # nothing kept yet
            assert change.kind == ACTION and change.outcome.event == event
            outcome = twin.commit(change)
            assert outcome is change.outcome
        assert everything(twin) == everything(done)
        # and every undo, proposed then committed, walks the same way back
        while done.journal:
            change = twin.propose_undo()
            assert change.kind == UNDO and change.outcome.event == done.journal[-1]
            assert twin.commit(change).event == done.undo().event
            assert everything(twin) == everything(done)


def test_a_proposal_carries_the_step_and_the_scores_it_would_make():
    game = mid_play()  # 5H laid on a 2C starter: a K makes fifteen
    before = everything(game)
    change = game.propose(game.lay, parse_card("KS"))
    assert [(s.side, s.points, s.reasons) for s in change.outcome.scores] == [(0, 2, ["fifteen"])]
    assert change.phase == PLAY  # still the play
    assert change.starter == parse_card("2C") and not change.over
    assert everything(game) == before and game.scores == [0, 0]
    game.commit(change)
    assert game.scores == [2, 0] and game.journal[-1] == bytes([state.LAY, parse_card("KS")])


def test_a_change_proposed_before_the_game_moved_is_refused_and_changes_nothing():
    game = mid_play()
    king = game.propose(game.lay, parse_card("KS"))
    queen = game.propose(game.lay, parse_card("QS"))
    game.commit(queen)
    after = everything(game)
    with pytest.raises(WrongPhase, match="moved on"):
        game.commit(king)
    assert everything(game) == after
    with pytest.raises(WrongPhase):
        game.commit(queen)  # a change is kept once


def test_a_refused_action_refuses_its_proposal_and_changes_nothing():
    game = mid_play()
    before = everything(game)
    with pytest.raises(IllegalAction):
        game.propose(game.lay, parse_card("5H"))  # laid already
    assert everything(game) == before


def test_undo_and_the_next_game_are_records_too():
    game = long_game()
    undo = game.propose_undo()
    assert undo.kind == UNDO and undo.outcome.scores == []
    game = over()
    before = everything(game)
    following = game.propose_next()
    assert following.kind == NEXT and following.outcome.event is None
    assert everything(game) == before
    game.commit(following)
    assert game.phase == STARTER and game.journal == [] and game.games_played == 1
    with pytest.raises(WrongPhase):
        Game().propose_next()
    with pytest.raises(WrongPhase):
        Game().propose_undo()


def test_a_peek_shows_the_state_a_change_leaves_and_puts_everything_back():
    game = mid_play()
    before = everything(game)
    change = game.propose(game.lay, parse_card("KS"))
    assert game.peek(change, lambda: (list(game.scores), game.play.count)) == ([2, 0], 15)
    assert everything(game) == before
    game.commit(change)
    with pytest.raises(WrongPhase):
        game.peek(change, lambda: None)  # of a game gone by
