"""Faults at the table: each keyed on the sim board, each once a silent or wrong outcome."""

import pytest

from engine import state
from engine.game import Game, SHOW
from cribbage import app as app_module
from cribbage import controller as controller_module
from cribbage import view as view_module
from cribbage.pegs import Pegs
from cribbage.screen import Screen
from cribbage.store import Store
from boards.sim.nvm import SimNVM

from firmware import Table

SPADE, HEART, DIAMOND, CLUB = "\x06", "\x03", "\x04", "\x05"


def saved_game(t):
    """The game as the flash holds it now, as bytes (None: no game)."""
    game, _ = Store(SimNVM(t.board.nvm.snapshot())).load()
    return None if game is None else state.to_bytes(game)


# --- the starter skipped with muggins on: key it for the show ---------------

@pytest.mark.parametrize("menu", ["D14#", "D134#"])  # standard and five-card, muggins on
def test_a_skipped_starter_is_asked_for_before_a_show_is_counted(menu):
    t = Table().keys(menu + "###")  # skip the starter, skip the play: the show
    assert t.game.phase == SHOW and t.game.starter == 255
    assert t.oled()[3] == "key the starter first"
    t.keys("5A")  # the starter, keyed late: 5 spades
    assert t.game.starter == 16 and t.message == "starter: 5" + SPADE
    assert t.oled()[3] == "claim? #board counts"
    t.keys("1 #")  # claim 1, then the hand: A D (jack clubs) ...
    if menu == "D14#":
        # J clubs, A hearts, 2 hearts, 3 diamonds + 5S: fifteens J5 and J23 (4),
        # the run A-2-3 (3): 7, so a claim of 1 misses 6.
        t.keys("AD 1B 2B 3C")
        assert t.oled()[3] == "A takes 6? # yes *no"
    else:
        t.keys("AD 1B 2B")  # three cards: J clubs, A H, 2 H + 5S: fifteen J5 = 2
        assert t.oled()[3] == "A takes 1? # yes *no"
    assert t.app.errors == 0


def test_a_late_jack_starter_pegs_his_heels():
    t = Table().keys("# # #")  # no starter, no play
    t.keys("AC")  # J diamonds
    assert t.scores == [2, 0] and t.message == "starter: J" + DIAMOND + "  A+2 his heels"


def test_skipping_the_show_without_a_starter_pegs_nothing():
    t = Table().keys("# # # #")
    assert t.message == "skipped: peg it by points" and t.oled()[2] == "show: A hand"


# --- a saved game that needs more tracks than the board has -----------------

def test_a_three_player_game_on_a_two_track_board_is_said_at_boot():
    three = Table(tracks=3).keys("D 1 1 # 7C")
    two = Table(nvm=three.board.nvm.snapshot(), tracks=2)
    assert two.scores == [0, 0, 7] and len(two.board.tracks) == 2
    assert two.app.ctrl.detail == ["C has no track: set CRIBBAGE_TRACKS = 3, or D 1 for a new game"]
    assert (two.oled()[4:7]
            == ["C has no track: set", "CRIBBAGE_TRACKS = 3,", "or D 1 for a new game"])
    two.keys("5A")  # it plays on
    assert two.scores == [5, 0, 7]


# --- the winner's comet ends for good ---------------------------------------

def test_the_winners_comet_does_not_come_back_when_the_clock_wraps():
    t = Table().keys("29A 29A 29A 29A")
    t.board.press("5")
    t.board.press("A")
    t.app.step()
    assert t.game.winner == 0
    t.board.clock.advance(4000)  # past the comet
    t.app.step()
    frames = t.board.strip_writes(0)
    t.board.clock.advance((1 << 29) - 4000 + 500)  # the clock wraps to 500 ms after the win
    t.app.step()
    t.board.clock.advance(300)
    t.app.step()
    assert t.board.strip_writes(0) == frames  # no comet frame was sent
    assert not t.app.pegs.busy(t.board.clock.ticks_ms())


# --- more keys than the keypad's queue holds ----------------------------------

def test_keys_beyond_the_queue_are_said_lost():
    t = Table()
    t.board.press("1A" * 40)  # 80 presses, 160 events: the queue holds 64
    t.app.step()
    assert t.scores == [16, 0]  # 64 events: 32 presses, so 16 pegs of "1A"
    assert t.message == "keys came too fast: some were lost, check the board"
    assert not t.board.keys.overflowed
    t.keys("2B")
    assert t.scores == [16, 2] and t.message == "B+2 pegged"


# --- MemoryError anywhere in a key: the before or the after state, never a mix --

def fail_once(monkeypatch, owner, name, calls=1):
    """Make owner.name raise MemoryError on its first ``calls`` calls."""
    real = getattr(owner, name)
    left = [calls]

    def failing(*args, **kwargs):
        if left[0] > 0:
            left[0] -= 1
            raise MemoryError("memory allocation failed, allocating 1280 bytes")
        return real(*args, **kwargs)
    monkeypatch.setattr(owner, name, failing)
    return left


# (keyed before, the key that meets the fault, keys after it)
KEYS = [("12A 5", "B", "3A"),         # a peg
        ("# CD 6A", "9", "A 9D"),     # a rank waiting for its suit
        ("# CD 6A 9", "A", "9D 7D")]  # a card laid: fifteen two


def where(t):
    """The game and what the keys are in the middle of (digits typed, cards keyed)."""
    here = t.app.ctrl.here
    if hasattr(here, "purpose"):
        here = (here.purpose, here.rank, here.cards, here.claim)
    return state.to_bytes(t.game), t.app.ctrl.mode, here


@pytest.mark.parametrize("owner, name", [
    (Game, "replay"), (Game, "commit"), (Store, "record_event"), (view_module.View, "__init__"),
    (controller_module, "make_face"), (Pegs, "draw"), (Screen, "draw")])
@pytest.mark.parametrize("prefix, key, follow", KEYS)
def test_a_memory_error_once_leaves_before_or_after_and_the_next_key_works(
        monkeypatch, owner, name, prefix, key, follow):
    before_t, after_t = Table().keys(prefix), Table().keys(prefix + key)
    t = Table().keys(prefix)
    fail_once(monkeypatch, owner, name)
    t.keys(key)
    monkeypatch.undo()  # reading the flash back must not meet the fault
    assert saved_game(t) in (saved_game(before_t), saved_game(after_t))
    assert where(t) in (where(before_t), where(after_t))
    if where(t) == where(before_t) != where(after_t):
        t.keys(key)  # the key did nothing, and says so: key it again
    t.keys(follow)
    done = Table().keys(prefix + key + follow)
    assert where(t) == where(done) and t.scores == done.scores
    assert saved_game(t) == saved_game(done)
    assert t.oled() == done.oled()


def quickly(t, keys):
    """Keys pressed with no idle pass between them: none is answered before it comes."""
    for key in keys:
        t.press(key)
    t.settle()


def test_a_memory_error_in_the_engine_is_retried_once_after_a_collection(monkeypatch):
    t = Table()
    t.settle()  # the first idle pass collects the boot's garbage
    collected = []
    monkeypatch.setattr(app_module.gc, "collect", lambda: collected.append(1))
    fail_once(monkeypatch, Game, "replay")
    quickly(t, "12A")
    assert t.scores == [12, 0] and t.message == "A+12 pegged" and collected == [1]
    assert t.app.errors == 0


def test_a_memory_error_while_an_answer_is_made_ahead_drops_it(monkeypatch):
    t = Table().keys("7B 1")
    before = saved_game(t)
    left = fail_once(monkeypatch, Game, "replay")
    t.keys("2")  # the idle pass after it makes A's answer (12 for A): short of memory
    assert left == [0] and t.app.ctrl.ready == {} and t.app.errors == 0
    assert t.scores == [0, 7] and saved_game(t) == before and t.app.ctrl.here == "12"
    t.keys("A")  # answered when pressed
    assert t.scores == [12, 7] and t.message == "A+12 pegged" and t.app.errors == 0


def test_a_memory_error_while_a_face_or_its_rows_are_made_ahead_loses_nothing(monkeypatch):
    from cribbage import controller, screen
    plain = Table().keys("7B 12A")
    t = Table().keys("7B 1")
    t.press("2")
    fail_once(monkeypatch, controller, "make_face")  # the face of A's answer: short
    t.idle()
    assert t.app.ctrl.after["A"][4] is None and t.app.errors == 0  # made when shown
    fail_once(monkeypatch, screen, "_row_bytes")  # and the rows of B's answer
    t.idle()
    assert "B" in t.app.ctrl.ready and t.app.screen.made == {} and t.app.errors == 0
    t.keys("A")  # drawn when pressed, as on a board that made nothing ahead
    assert t.oled() == plain.oled() and t.nvm_image() == plain.nvm_image()


def test_a_key_that_fails_twice_does_nothing_and_says_so(monkeypatch):
    t = Table().keys("7B 1")
    before = saved_game(t)
    fail_once(monkeypatch, Game, "replay", calls=2)
    quickly(t, "2A")
    monkeypatch.undo()
    assert t.scores == [0, 7] and saved_game(t) == before
    assert t.message == "out of memory: that key did nothing"
    assert t.app.ctrl.here == "12"  # as before the key: A again pegs them
    t.keys("A")
    assert t.scores == [12, 7] and saved_game(t) == state.to_bytes(t.game)


def test_a_save_that_fails_twice_says_not_saved_and_the_next_save_catches_up(monkeypatch):
    t = Table().keys("7B")
    before = saved_game(t)
    fail_once(monkeypatch, Store, "record_event", calls=2)
    t.keys("12A")
    monkeypatch.undo()
    assert t.scores == [12, 7] and saved_game(t) == before
    assert t.message == "out of memory: not saved"
    t.keys("1A")
    assert saved_game(t) == state.to_bytes(t.game) and t.scores == [13, 7]


def test_an_error_message_that_cannot_be_built_still_reaches_the_oled(monkeypatch):
    class Unsayable(Exception):
        def __str__(self):
            raise MemoryError()

    t = Table()
    real = Game.peg

    def broken(self, side, points):
        raise Unsayable()
    monkeypatch.setattr(Game, "peg", broken)
    t.keys("5A")
    assert t.message == "error" and t.app.errors == 1
    monkeypatch.setattr(Game, "peg", real)
    t.keys("5A")
    assert t.scores == [5, 0]
