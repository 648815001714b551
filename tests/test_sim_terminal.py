"""tools/sim.py in a terminal: keys in a pseudo-terminal (pexpect), its ANSI output
rendered with pyte; escape sequences read whole; the screen at the sizes of real terminals.
"""

import json
import os
import sys
import time

import pexpect
import pyte
import pytest

from tools.simulator import marks, screen, terminal, text as text_module
from tools.simulator.session import Session

from sim_helpers import ENV, REPO, TOOL, played, run_tool, three_player_save


# ---- interactive, in a pseudo-terminal --------------------------------------------

ROWS, COLUMNS = 60, 170


class Terminal:
    """The simulator in a pseudo-terminal of ``size`` (columns, rows); its default
    state file goes under ``cache`` (never the user's own cache folder)."""

    def __init__(self, *args, cache, size=(COLUMNS, ROWS)):
        columns, rows = size
        env = dict(ENV, XDG_CACHE_HOME=str(cache))
        self.child = pexpect.spawn(sys.executable, [TOOL] + list(args), cwd=REPO, env=env,
                                   dimensions=(rows, columns), encoding="utf-8",
                                   codec_errors="replace")
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""

    def pump(self, until, timeout=20):
        """Feed output into the screen until until(self) holds on a whole frame
        (the simulator ends each frame by clearing below it: ESC [ J)."""
        end = time.time() + timeout
        while time.time() < end:
            try:
                data = self.child.read_nonblocking(100000, timeout=0.2)
            except pexpect.TIMEOUT:
                data = ""
            except pexpect.EOF:
                break
            self.raw += data
            self.stream.feed(data)
            if self.raw.endswith("\x1b[J") and until(self):
                return True
        return until(self)

    def text(self):
        return "\n".join(self.screen.display)

    def row(self, label):
        for y, line in enumerate(self.screen.display):
            if line.startswith(label):
                return y
        return None

    def finish(self):
        self.child.expect(pexpect.EOF, timeout=20)
        self.raw += self.child.before
        self.child.close()
        return self.child.exitstatus


def test_interactive_keys_move_the_pegs_and_the_state_is_kept(tmp_path):
    state = str(tmp_path / "play.nvm")
    term = Terminal("--state", state, cache=tmp_path)
    assert term.pump(lambda t: "A   0  (pegs 0/0)" in t.text()), term.text()
    assert "q or Ctrl-C quits" in term.text()
    term.child.send("12a")
    assert term.pump(lambda t: "A  12  (pegs 12/0)" in t.text()), term.text()
    # the peg jumps up the track in real time and lands in hole 12 of track A, in
    # the colour the strip received (brightened: the brightest LED is full red)
    y = term.row("A      1 ")
    x = screen.term_hole_column(12)

    def landed(t):
        cell = t.screen.buffer[y][x]
        return cell.data == "\u25cf" and cell.fg == "ff0000"

    assert term.pump(landed), term.text()
    assert term.screen.buffer[y][screen.term_hole_column(11)].data == "\u00b7"
    # the OLED's framebuffer in half blocks
    assert "\u2588" in term.text() and "\u2580" in term.text()
    assert "A+12 pegged" in term.text()
    term.child.send("q")
    assert term.finish() == 0
    assert term.raw.endswith("Left the board at A 12, B 0; saved to %s.\r\n" % state)
    assert "\x1b[?1049l" in term.raw  # the terminal's own screen is back
    assert os.path.getsize(state) == 4096

    again = Terminal("--state", state, cache=tmp_path)
    assert again.pump(lambda t: "A  12  (pegs 12/0)" in t.text()), again.text()
    again.child.send("5b")
    assert again.pump(lambda t: "B   5  (pegs 5/0)" in t.text()), again.text()
    again.child.send("\x03")  # Ctrl-C quits too
    assert again.finish() == 0

    result = run_tool("--state", state, "--keys", "", "--json")
    assert json.loads(result.stdout)["scores"] == [12, 5]


def test_interactive_names_a_key_it_does_not_have(tmp_path):
    term = Terminal(cache=tmp_path)
    assert term.pump(lambda t: "q or Ctrl-C quits" in t.text())
    term.child.send("x")
    assert term.pump(lambda t: "no key 'x'" in t.text()), term.text()
    term.child.send("q")
    assert term.finish() == 0


def test_interactive_keeps_the_game_in_the_default_state_file(tmp_path):
    kept = tmp_path / "cribbage-board" / "sim.nvm"
    term = Terminal(cache=tmp_path)
    assert term.pump(lambda t: "game kept in %s (a new game" % kept in t.text()), term.text()
    assert kept.read_bytes() == Session().nvm_image()  # kept from the start
    term.child.send("9a")
    assert term.pump(lambda t: "A   9  (pegs 9/0)" in t.text()), term.text()
    term.child.send("q")
    assert term.finish() == 0
    assert term.raw.endswith("Left the board at A 9, B 0; saved to %s.\r\n" % kept)

    again = Terminal(cache=tmp_path)
    assert again.pump(lambda t: "A   9  (pegs 9/0)" in t.text()), again.text()
    assert "game kept in %s (carried on" % kept in again.text()
    again.child.send("q")
    assert again.finish() == 0

    fresh = Terminal("--fresh", cache=tmp_path)
    assert fresh.pump(lambda t: "A   0  (pegs 0/0)" in t.text()), fresh.text()
    assert "game kept in %s (a new game; --fresh starts anew)" % kept in fresh.text()
    fresh.child.send("q")
    assert fresh.finish() == 0
    assert kept.read_bytes() == Session().nvm_image()  # the new game replaced the old


def test_interactive_refuses_an_unreadable_default_state_file(tmp_path):
    kept = tmp_path / "cribbage-board" / "sim.nvm"
    kept.parent.mkdir()
    kept.write_bytes(bytes(4096))
    term = Terminal(cache=tmp_path)
    assert term.finish() == 2
    assert term.raw == ("tools/sim.py: state file %s is not a saved board: neither erased "
                        "flash nor a game the board can read (--fresh starts a new game in "
                        "its place)\r\n" % kept)
    assert kept.read_bytes() == bytes(4096)


# ---- escape sequences: read whole, never keys ---------------------------------------

ARROWS_AND_FUNCTION_KEYS = ["\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1bOP", "\x1bOS",
                            "\x1b[15~", "\x1b[24~", "\x1b[1;5C", "\x1b[H", "\x1b[3~", "\x1ba"]


def test_escape_sequences_are_split_off_whole():
    typed = "5" + "".join(ARROWS_AND_FUNCTION_KEYS) + "b"
    assert terminal.split_keys(typed) == (["5", "b"], "")
    assert terminal.split_keys("1\x1b[1;") == (["1"], "\x1b[1;")  # the rest still to come
    assert terminal.split_keys("\x1b") == ([], "\x1b")
    reader = terminal.KeyReader()
    assert reader.feed(b"2\x1b", now=0.0) == ["2"]
    assert reader.feed(b"[B3", now=0.05) == ["3"]  # the sequence, split over two reads
    assert reader.feed(b"\x1b", now=1.0) == []
    reader.expire(1.0 + terminal.ESC_WAIT_S)  # the Esc key alone: dropped
    assert reader.feed(b"a\xe2\x99", now=2.0) == ["a"]
    assert reader.feed(b"\xa5", now=2.0) == ["\u2665"]  # UTF-8 split over reads


def test_arrow_and_function_keys_do_nothing_in_the_terminal(tmp_path):
    term = Terminal(cache=tmp_path)
    assert term.pump(lambda t: "A   0  (pegs 0/0)" in t.text()), term.text()
    term.child.send("5")
    for seq in ARROWS_AND_FUNCTION_KEYS:
        term.child.send(seq)
    term.child.send("\x1b")
    time.sleep(0.02)
    term.child.send("[D")  # Left, split in two
    term.child.send("b")
    assert term.pump(lambda t: "B   5  (pegs 5/0)" in t.text()), term.text()
    text = term.text()
    assert "A   0  (pegs 0/0)" in text and "no key" not in text and "\\x1b" not in text
    assert "pts+A/B #step D menu" in text  # still the scoreboard: no D opened the menu
    assert "B+5 pegged" in text
    term.child.send("\x1b")  # Esc alone: nothing
    term.pump(lambda t: False, timeout=terminal.ESC_WAIT_S * 3)
    term.child.send("3a")
    assert term.pump(lambda t: "A   3  (pegs 3/0)" in t.text()), term.text()
    assert "no key" not in term.text()
    term.child.send("q")
    assert term.finish() == 0
    assert "Left the board at A 3, B 5;" in term.raw


# ---- the interactive screen at the sizes of real terminals --------------------------

HALF_BLOCKS = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}
OLED_TOP = "\u250c" + "\u2500" * 128 + "\u2510"


def render(session, size, note=""):
    """The interactive screen as a terminal of ``size`` (columns, rows) shows it."""
    columns, rows = size
    lines = screen.term_screen(session, size, note)
    assert len(lines) <= rows
    shown = pyte.Screen(columns, rows)
    pyte.Stream(shown).feed("\x1b[H" + "\x1b[K\r\n".join(lines))
    return shown


def full_size_oled(shown):
    """The OLED's 64x128 pixels read back from its half blocks on screen (None if
    it is not drawn at full size)."""
    for y, line in enumerate(shown.display):
        x = line.find(OLED_TOP)
        if x >= 0:
            break
    else:
        return None
    pixels = []
    for row in shown.display[y + 1:y + 33]:
        assert row[x] == "\u2502" and row[x + 129] == "\u2502"
        pairs = [HALF_BLOCKS[ch] for ch in row[x + 1:x + 129]]
        pixels.append([top for top, _ in pairs])
        pixels.append([bottom for _, bottom in pairs])
    assert shown.display[y + 33][x:x + 130] == "\u2514" + "\u2500" * 128 + "\u2518"
    return pixels


def assert_legend_whole(text):
    for key in "ABCD*#":
        assert "%s  %s" % (key, text_module.KEY_NOTES[key]) in text
    for row in ("1 2 3 A", "4 5 6 B", "7 8 9 C", "* 0 # D"):
        assert row in text
    assert "q or Ctrl-C quits" in text
    for item in marks.GLYPH_LEGEND:
        assert item in text


def track_rows(session):
    labels = []
    for start in (1, 31, 61, 91):
        for track in range(session.tracks):
            letter = "AB"[track] if track < 2 else "-"
            labels.append("%-3s %4d " % (letter, start))
    return labels


@pytest.mark.parametrize("tracks", [2, 3])
@pytest.mark.parametrize("size", [(160, 50), (160, 56), (170, 60)])
def test_the_oled_is_full_size_from_160x50(size, tracks):
    ours = played("12A 5B # 5C 0A", tracks=tracks)
    shown = render(ours, size, "game kept in /tmp/x.nvm")
    assert full_size_oled(shown) == ours.board.oled_pixels()
    text = "\n".join(shown.display)
    assert_legend_whole(text)
    starts = [line[:9] for line in shown.display]
    for label in track_rows(ours):
        assert label in starts
    assert "game kept in /tmp/x.nvm" in text
    assert "A  12  (pegs 12/0)" in text and "B   5  (pegs 5/0)" in text


@pytest.mark.parametrize("tracks", [2, 3])
@pytest.mark.parametrize("size", [(80, 24), (100, 40), (150, 45)])
def test_below_full_size_the_oled_is_its_text_and_the_legend_is_whole(tracks, size):
    # a shrunk OLED's 5x8 font cannot be read: its text rows are shown instead
    ours = played("12A 5B # 5C", tracks=tracks)
    shown = render(ours, size, "game kept in /tmp/x.nvm")
    text = "\n".join(shown.display)
    assert full_size_oled(shown) is None
    for line in text_module.oled_text(ours):
        assert "\u2502%-21s\u2502" % line in text
    assert not set("\u2580\u2584\u2588") & set(text)  # no pixels in half blocks
    assert "OLED text:" not in text  # the box is the text: not shown twice
    assert_legend_whole(text)
    assert "laptop keys: 0-9, a-d or A-D, * #; q or Ctrl-C quits" in text
    starts = [line[:9] for line in shown.display]
    for label in track_rows(ours):
        assert label in starts
    assert "game kept in /tmp/x.nvm" in text


def test_pegs_back_pegs_and_marks_have_their_own_glyphs():
    ours = played("12A 3A 5B")
    shown = render(ours, (170, 60))
    peak = ours.peak()
    row_a = [y for y, line in enumerate(shown.display) if line.startswith("A      1 ")][0]
    row_a_61 = [y for y, line in enumerate(shown.display) if line.startswith("A     61 ")][0]
    row_a_91 = [y for y, line in enumerate(shown.display) if line.startswith("A     91 ")][0]

    def cell(y, hole):
        return shown.buffer[y][screen.term_hole_column(hole)]

    def hex_of(track, hole):
        return "%02x%02x%02x" % marks.display_colour(ours.led_at(track, hole), peak)

    expected = [(row_a, 15, "\u25cf"), (row_a, 12, "\u25cb"), (row_a, 10, "+"),
                (row_a, 11, "\u00b7"), (row_a_61, 61, "\u00d7"), (row_a_91, 91, "\u00d7"),
                (row_a_91, 121, "\u25a0")]
    for y, hole, glyph in expected:
        assert (cell(y, hole).data, hole) == (glyph, hole)
        if glyph != "\u00b7":
            assert cell(y, hole).fg == hex_of(0, hole)
    assert cell(row_a, 15).fg == "ff0000"   # the brightest LED on the board: full red
    assert cell(row_a, 12).fg != "ff0000"   # the back peg is dimmer
    assert cell(row_a + 1, 5).data == "\u25cf"  # B's front peg on a 5th hole: a peg
    assert cell(row_a, 11).fg == "%02x%02x%02x" % screen.UNLIT_FG  # unlit: grey
    # the dimmest mark, a fifth hole at (1, 1, 1), is clearly brighter than an unlit hole
    assert ours.led_at(0, 10) == (1, 1, 1)
    fifth = bytes.fromhex(cell(row_a, 10).fg)
    assert min(fifth) >= 1.5 * max(screen.UNLIT_FG), (fifth, screen.UNLIT_FG)


def test_a_three_player_save_on_two_tracks_warns_on_the_screen(tmp_path, capsys):
    saved = three_player_save(tmp_path, capsys)
    ours = Session(nvm=open(saved, "rb").read())
    for size in ((170, 60), (80, 24)):
        text = "\n".join(render(ours, size).display)
        assert not [line for line in text.split("\n") if line.startswith("C ")]
        assert "C   7  (pegs 7/0, no track)" in text or size == (80, 24)
        assert " ".join(text.split()).find("C has no track, so its pegs show nowhere") >= 0
        assert_legend_whole(text)


def test_a_160x50_terminal_shows_the_oled_full_size(tmp_path):
    term = Terminal(cache=tmp_path, size=(160, 50))
    assert term.pump(lambda t: OLED_TOP in t.text()), term.text()
    term.child.send("7b")
    assert term.pump(lambda t: "B   7  (pegs 7/0)" in t.text()), term.text()
    assert term.pump(lambda t: full_size_oled(t.screen) == played("7B").board.oled_pixels())
    assert_legend_whole(term.text())
    term.child.send("q")
    assert term.finish() == 0


def test_an_unwritable_default_folder_plays_without_a_state_file(tmp_path):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder would be")
    term = Terminal(cache=blocked)
    said = "no state file: cannot write state file %s: %s is not a folder" \
        % (blocked / "cribbage-board" / "sim.nvm", blocked)
    assert term.pump(lambda t: said in " ".join(t.text().split())), term.text()  # wrapped
    term.child.send("4a")
    assert term.pump(lambda t: "A   4  (pegs 4/0)" in t.text()), term.text()
    term.child.send("q")
    assert term.finish() == 0
    assert term.raw.endswith("Left the board at A 4, B 0.\r\n")


def test_an_unwritable_state_file_is_refused_before_play(tmp_path):
    blocked = tmp_path / "cache"
    blocked.write_text("not a folder")
    term = Terminal("--state", str(blocked / "game.nvm"), cache=tmp_path)
    assert term.finish() == 2
    assert term.raw == "tools/sim.py: cannot write state file %s: %s is not a folder\r\n" \
        % (blocked / "game.nvm", blocked)
