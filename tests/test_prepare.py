"""The answer before the key: the Turns made in the loop's idle passes are the keys' own.

While the board waits, the controller makes the Turn of each key most likely
next (a suit after a rank, a side after points), one a pass; the key pressed
is committed as made. A prepared answer must be byte for byte the one made on
the spot: the same OLED writes, the same strip frames, the same save.
"""

from cribbage import controller
from cribbage.keys import SUIT_KEYS
from tools import devgame

from firmware import Table

IDLE_PASSES = 6  # passes between keys: more than the most answers a mode makes (4 suits)


def play(keys, prepare=True, monkeypatch=None):
    """Each key, then its settle and IDLE_PASSES more passes; per key: the I2C
    writes, both strips' last frames and frame counts, the flash, and whether
    its answer was ready when it came."""
    if not prepare:
        monkeypatch.setattr(controller.Controller, "prepare", lambda ctrl: False)
    t = Table()
    bus = t.board.i2c
    bus.log_length = 10 ** 6
    out, ready = [], []
    for key in keys:
        ctrl = t.app.ctrl
        ready.append(ctrl.ready.get(key) is not None and ctrl.ready_at == ctrl._now())
        start = len(bus.log)
        t.press(key)
        t.settle()
        t.idle(IDLE_PASSES)
        out.append((key, bus.log[start:], [t.board.strip_bytes(i) for i in (0, 1)],
                    [t.board.strip_writes(i) for i in (0, 1)], t.nvm_image()))
    return t, out, ready


def test_every_prepared_answer_is_the_one_made_when_pressed(monkeypatch):
    keys = devgame.readme_keys()
    ahead, sent, ready = play(keys)
    on_the_spot, expected, _ = play(keys, False, monkeypatch)
    assert len(sent) == len(expected) == 31
    for i in range(len(keys)):
        assert sent[i] == expected[i], "key %d (%s)" % (i, keys[i])
    assert ahead.oled() == on_the_spot.oled() and ahead.scores == on_the_spot.scores == [25, 7]
    # Ready when pressed: every suit after a rank (the starter's, the eight cards
    # laid, the crib's four), the go in the play, and # for each show's claim (the
    # two hands counted by it, the crib's step to its cards).
    answered = "".join(k for k, r in zip(keys, ready) if r)
    assert answered == "DAADDBBC#B###BCDC"
    assert ahead.app.errors == on_the_spot.app.errors == 0


def test_answers_are_made_one_a_pass_and_the_key_not_yet_made_is_answered_when_pressed():
    t = Table().keys("#")  # the starter's card (the settle's pass collects the boot's garbage)
    t.keys("5")
    ctrl = t.app.ctrl
    assert ctrl.likely() == SUIT_KEYS
    assert list(ctrl.ready) == ["A"]  # the settle's pass made one
    t.idle()
    assert sorted(ctrl.ready) == ["A", "B"]
    t.idle(3)
    assert sorted(ctrl.ready) == ["A", "B", "C", "D"]
    assert ctrl.prepare() is False  # none left to make
    plain = Table().keys("#5")
    t.keys("C")
    plain.press("C")
    plain.settle()
    assert t.message == plain.message == "starter: 5\x04"  # the diamond's glyph
    assert t.game.starter == plain.game.starter and t.nvm_image() == plain.nvm_image()
    t.idle()  # (the settle's pass may be the idle collection's)
    assert list(ctrl.ready) == ["#"]  # the play began: its go is made ahead


def test_the_key_not_yet_made_is_answered_when_pressed():
    t = Table().keys("#5")  # one pass: A (spades) made
    t.keys("D")  # clubs: made when pressed
    plain = Table()
    for key in "#5D":
        plain.press(key)
    plain.settle()
    assert t.message == plain.message == "starter: 5\x05"
    assert t.oled() == plain.oled() and t.nvm_image() == plain.nvm_image()


def test_a_key_in_the_same_pass_comes_first_and_its_answer_stands():
    plain = Table().keys("#5")
    plain.press("C")
    plain.settle()
    t = Table().keys("#5")
    t.board.press("C")  # the pass that would make the next answer takes the key first
    t.app.step()
    # A commit drops what was made for the state before it, and lets go of that state.
    assert t.app.ctrl.ready == {} and t.app.ctrl.ready_at is None
    t.settle()
    assert t.oled() == plain.oled() and t.nvm_image() == plain.nvm_image()


def test_anything_said_drops_the_answers_made():
    t = Table().keys("1")
    t.idle()
    ctrl = t.app.ctrl
    assert "A" in ctrl.ready
    ctrl.say("keys lost: press them again")
    assert ctrl.ready == {} and ctrl.ready_at is None
    t.keys("A")
    assert t.scores == [1, 0] and t.message == "A+1 pegged"


def test_a_prepared_answer_of_a_game_moved_on_is_never_used():
    t = Table().keys("1")
    t.idle()
    ctrl = t.app.ctrl
    made = ctrl.ready["A"]
    game = ctrl.game
    game.commit(game.propose(game.peg, 1, 5))  # behind the controller's back
    t.keys("A")  # made again for the game as it is: A's 1 on top of B's 5
    assert t.scores == [1, 5] and t.message == "A+1 pegged" and t.app.errors == 0
    assert made.change.at == game.moves - 2


def test_what_a_prepared_commit_shows_is_made_ahead_too(monkeypatch):
    # The face (the OLED's rows, the pegs' view) of a key made ahead is made in
    # the idle pass, on the game as the key would leave it, and shown as made.
    plain = Table()
    t = Table().keys("1")
    t.idle()
    ctrl = t.app.ctrl
    mode, here, message, detail, face = ctrl.after["A"]
    assert (mode, here, message, detail) == ("home", "", "A+1 pegged", None)
    assert face.pegs.scores == [1, 0] and ctrl.game.scores == [0, 0]  # the game as it was
    made = []
    monkeypatch.setattr(controller, "make_face", lambda *args: made.append(args))
    t.keys("A")
    assert made == [] and ctrl.face is face  # committed as made: no face made at the key
    monkeypatch.undo()
    for key in "1A":
        plain.press(key)
    plain.settle()
    assert t.oled() == plain.oled() and t.board.strip_bytes(0) == plain.board.strip_bytes(0)


def test_the_oled_rows_of_a_prepared_answer_are_made_ahead_and_sent_as_made(monkeypatch):
    plain = Table()
    t = Table().keys("1")
    t.idle()
    screen = t.app.screen
    made = {(page, row[1]) for page, row in screen.made}  # A's, and B's made after it
    assert {(2, "A+1*      B+0       "), (4, "pts+A/B #step D menu"), (5, "A+1 pegged")} <= made
    cells = []
    monkeypatch.setattr(type(screen), "_cells", lambda *args: cells.append(args))
    t.keys("A")
    assert cells == [] and screen.made == {}  # each text row drawn from its cells made ahead
    monkeypatch.undo()
    for key in "1A":
        plain.press(key)
    plain.settle()
    assert t.oled() == plain.oled()
    assert t.board.i2c.log[-12:] == plain.board.i2c.log[-12:]  # the same windows, the same bytes


def test_rows_made_ahead_go_with_the_picture_they_were_made_against():
    t = Table().keys("1")
    t.idle()
    screen = t.app.screen
    assert screen.made
    t.keys("*")  # the digits cleared: drawn, and what was made for A's 1 let go
    assert "A+1 pegged" not in [row[1] for _page, row in screen.made]
    assert "A" not in t.app.ctrl.ready
    t.keys("2A")
    assert t.oled()[3:5] == ["pts+A/B #step D menu", "A+2 pegged"]


def test_the_yes_of_an_undo_is_made_ahead_and_undoes_as_when_pressed(monkeypatch):
    monkeypatch.setattr(controller.Controller, "prepare", lambda ctrl: False)
    plain = Table().keys("5A3B*#")  # every answer made when pressed
    monkeypatch.undo()
    t = Table().keys("5A3B*")
    t.idle()  # undo offered: its # (the game put back a step) made ahead
    ctrl = t.app.ctrl
    assert ctrl.likely() == "#" and ctrl.ready["#"].change.kind == 1  # engine.change.UNDO
    t.keys("#")
    assert t.scores == plain.scores == [5, 0] and t.message == plain.message
    assert t.oled() == plain.oled() and t.nvm_image() == plain.nvm_image()
