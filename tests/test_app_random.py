"""Long random key sequences: the board never crashes and its invariants hold."""

from hypothesis import HealthCheck, given, settings, strategies as st

from engine import state
from engine.game import OVER
from boards import KEY_LEGEND as LEGEND
from cribbage.pegs import BACK_SHARE, MATCH_WIN_MS, _scale

from firmware import Table

WIN_SETTLE_MS = MATCH_WIN_MS + 500  # longer than any winner's comet


def expected_colours(t, side):
    s = t.app.ctrl.settings
    front = _scale(s.colour(side), s.fraction() * t.app.pegs.cap)
    back = (front[0] // BACK_SHARE, front[1] // BACK_SHARE, front[2] // BACK_SHARE)
    return front, back


def check_invariants(t):
    game = t.game
    target = game.config.target
    assert t.app.errors == 0
    # The panel holds what was drawn: partial page updates miss nothing.
    assert t.board.oled_frame() == bytes(t.board.display.window(0, 7))
    for side in range(game.sides):
        assert 0 <= game.backs[side] <= game.scores[side] <= target + 29
        if game.phase != OVER:
            assert game.scores[side] < target
        front, back = expected_colours(t, side)
        hole = min(game.scores[side], target)
        if hole:
            assert t.led(side, hole) == front
        back_hole = min(game.backs[side], target)
        if back_hole and back_hole != hole:
            assert t.led(side, back_hole) == back
    front = expected_colours(t, 0)[0]
    lit = [i for i, rgb in enumerate(t.board.strip_pixels(0)) if rgb == front]
    assert len(lit) <= 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(LEGEND), min_size=1, max_size=80))
def test_random_keys_never_break_the_board(keys):
    t = Table()
    seen = {}
    games = []  # keep each game alive so id() stays unique
    for key in keys:
        t.board.press(key)
        t.app.step()
        t.board.clock.advance(WIN_SETTLE_MS)
        t.app.step()
        game = t.game
        games.append(game)
        now = state.encode(game)
        n = len(game.journal)
        if t.message == "undone":
            # Undo restores exactly the state before the undone action.
            assert seen.get((id(game), n)) == now
        seen[(id(game), n)] = now
        check_invariants(t)
