"""The app's loop at work: what it draws and sends when, and when it collects."""

from cribbage.pegs import MARK

from firmware import Table

BLUE = (0, 0, 38)  # player B's front peg (see test_app.py)


def test_the_garbage_is_collected_after_each_key_once_its_answers_are_made_not_in_a_key():
    t = Table()
    made = []
    t.app.collect = lambda: made.append((list(t.game.scores), sorted(t.app.ctrl.ready)))
    t.idle()
    assert made == []  # the first pass makes the # to the cards ahead
    t.idle()
    assert made == [([0, 0], ["#"])]  # then the boot's own garbage goes, before a key
    t.idle(3)
    assert len(made) == 1  # and once
    made.clear()
    t.press("3")
    t.idle(2)
    assert made == []  # not in the key's own pass, nor while A's and B's are made
    t.idle()
    assert made == [([0, 0], ["A", "B"])]  # once none is left to make
    made.clear()
    t.press("B")  # pegs 3: its own pass and the passes that move the peg collect nothing
    assert made == [] and t.app.busy()
    while t.app.busy():
        t.idle()
        assert made == [] or not t.app.busy()
    t.idle(3)
    assert made == [([0, 3], ["#"])]  # one, once the pegs are still and the # is made


def test_rows_made_once_a_change_follow_an_undo_and_a_new_peg_of_the_same_length():
    t = Table().keys("5A")
    assert t.oled()[1] == "A+5*      B+0       "
    t.keys("*#")  # undo: the journal as long as before the 5
    assert t.scores == [0, 0] and t.oled()[1] == "A+0*      B+0       "
    t.keys("5B")  # as long a journal as after "5A", another game
    assert t.scores == [0, 5] and t.oled()[1] == "A+0*      B+5       "
    assert t.led(1, 5) == BLUE and t.led(0, 5) == MARK


def test_a_score_sends_only_the_digits_that_changed():
    t = Table().keys("12B")
    display = t.app.screen.display
    windows = []
    send = display.send
    display.send = lambda *w: (windows.append(w), send(*w))
    t.keys("5B")  # 12 -> 17: B's second digit, columns 64 + 12 .. 64 + 21, both pages
    assert [w for w in windows if w[0] < 2] == [(0, 0, 76, 85), (1, 1, 76, 85)]
    windows.clear()
    t.keys("*#")  # undone: 17 -> 12
    assert [w for w in windows if w[0] < 2] == [(0, 0, 76, 85), (1, 1, 76, 85)]
    windows.clear()
    t.keys("29A")  # A 0 -> 29: two digits where there was one
    assert [w for w in windows if w[0] < 2] == [(0, 0, 0, 21), (1, 1, 0, 21)]
    assert t.board.oled_frame() == bytes(display.window(0, 7))
    assert t.oled()[0] == "29  12"


def test_three_scores_where_the_middle_one_stays_send_only_the_two_that_changed():
    t = Table()
    screen = t.app.screen
    display = screen.display
    rows = [("text", "")] * 8
    screen.draw([("scores", (1, 2, 3)), ("bottom",)] + rows[2:])
    windows = []
    send = display.send
    display.send = lambda *w: (windows.append(w), send(*w))
    screen.draw([("scores", (5, 2, 7)), ("bottom",)] + rows[2:])
    # Each side has 42 columns; a digit is 10 wide: side 0 at 0-9, side 2 at 84-93.
    assert windows == [(0, 0, 0, 9), (1, 1, 0, 9), (0, 0, 84, 93), (1, 1, 84, 93)]
    assert t.board.oled_frame() == bytes(display.window(0, 7))
