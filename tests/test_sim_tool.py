"""tools/sim.py: the firmware on the sim board, driven by scripted keys or a terminal.

Scripted runs are checked both in-process (``main(argv)``) and as a subprocess;
what they report is compared with what a separately built sim board's strips
and OLED received. The interactive mode runs in a pseudo-terminal (pexpect)
and its ANSI output is rendered with pyte.
"""

import json
import os
import subprocess
import sys
import time

import pexpect
import pyte
import pytest
from PIL import Image

from tools import sim as tool
from tools.simulator import marks, picture, screen, terminal, text as text_module
from tools.simulator.session import Session, parse_keys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(REPO, "tools", "sim.py")
ENV = dict(os.environ, BLINKA_OS_AGNOSTIC="1")


def run_tool(*args, stdin=subprocess.DEVNULL):
    return subprocess.run([sys.executable, TOOL] + list(args), cwd=REPO, env=ENV,
                          stdin=stdin, capture_output=True, text=True, timeout=120)


def run_main(capsys, *args):
    code = tool.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def played(keys, tracks=2, nvm=None):
    """A board of our own, keyed the same way, to read the strips and OLED from."""
    return Session(tracks=tracks, nvm=nvm).keys(parse_keys(keys))


def lit_holes(board, track):
    """[[hole, [r, g, b]]] read straight off the strip (straight layout: LED = hole - 1)."""
    return [[led + 1, list(rgb)] for led, rgb in enumerate(board.board.strip_pixels(track))
            if rgb != (0, 0, 0)]


# ---- scripted: JSON ---------------------------------------------------------------

def test_points_for_both_players_as_json_in_a_subprocess():
    result = run_tool("--keys", "12A5B", "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    leds = state.pop("leds")
    state.pop("milliamps")
    assert state == {
        "players": 2,
        "tracks": 2,
        "target": 121,
        "phase": "starter",
        "mode": "home",
        "sides": ["A", "B"],
        "scores": [12, 5],
        "pegs": [[12, 0], [5, 0]],
        "dealer": 1,
        "dealer_name": "A",
        "winner": None,
        "message": "B+5 pegged",
        "detail": [],
        "oled": ["12  5", "A+12*     B+5       ", "A deals: # starter",
                 "pts+A/B #step D menu", "B+5 pegged", "", ""],
    }
    ours = played("12A5B")
    front_a = list(ours.board.strip_pixels(0)[12 - 1])
    front_b = list(ours.board.strip_pixels(1)[5 - 1])
    assert front_a[0] > 0 and front_a[1] == front_a[2] == 0  # player A is red
    assert front_b[2] > 0 and front_b[0] == front_b[1] == 0  # player B is blue
    assert [12, front_a] in leds[0]
    assert [5, front_b] in leds[1]
    assert leds == [lit_holes(ours, 0), lit_holes(ours, 1)]


def test_a_fresh_board_is_ready_to_peg(capsys):
    code, out, err = run_main(capsys, "--keys", "", "--json")
    assert code == 0 and err == ""
    state = json.loads(out)
    assert state["scores"] == [0, 0]
    assert state["pegs"] == [[0, 0], [0, 0]]
    assert state["dealer"] == 1 and state["dealer_name"] == "A"
    assert state["winner"] is None
    assert (state["players"], state["target"], state["phase"]) == (2, 121, "starter")
    assert state["oled"][3] == "pts+A/B #step D menu"
    fresh = Session()
    assert state["leds"] == [lit_holes(fresh, 0), lit_holes(fresh, 1)]
    # the dealer's game hole glows on track 1, not on track 2
    assert dict((h, tuple(c)) for h, c in state["leds"][0])[121] != \
        dict((h, tuple(c)) for h, c in state["leds"][1])[121]


def test_the_play_scores_fifteen_and_pairs_and_shows_suits(capsys):
    code, out, _ = run_main(capsys, "--keys", "# 5C 0A 5B 5D 5A", "--json")
    assert code == 0
    state = json.loads(out)
    assert state["phase"] == "play" and state["mode"] == "cards"
    assert state["scores"] == [8, 2]          # A: fifteen 2 + pair royal 6; B: pair 2
    assert state["pegs"] == [[8, 2], [2, 0]]
    assert state["message"] == "A: 5♠  A+6 pair royal"
    assert state["oled"][2:6] == ["play: B  count 25", "lay a card  #go *back",
                                  "A: 5♠  A+6 pair royal", ""]


def test_suit_glyphs_come_out_as_unicode_suits(capsys):
    code, out, _ = run_main(capsys, "--keys", "#5", "--json")
    assert code == 0
    assert json.loads(out)["oled"][3] == "5? suit A\u2660B\u2665C\u2666D\u2663"
    code, out, _ = run_main(capsys, "--keys", "#5B # # 5A 5C 5D 0A", "--json")
    state = json.loads(out)
    assert state["scores"] == [0, 28]
    assert "pair 5\u2660 5\u2665 =2" in state["detail"]
    assert "total 28" in state["detail"]


def test_lower_case_player_keys_and_three_tracks(capsys):
    code, out, _ = run_main(capsys, "--keys", "7a", "--json", "--tracks", "3")
    assert code == 0
    state = json.loads(out)
    assert state["tracks"] == 3 and state["scores"] == [7, 0]
    assert len(state["leds"]) == 3
    assert state["leds"][2] == []  # a two-player game leaves the third track dark


def test_the_readable_summary(capsys):
    code, out, _ = run_main(capsys, "--keys", "12A5B")
    assert code == 0
    assert "Phase: starter   dealer: A (seat 1)   no winner yet" in out
    assert "  A   12   front peg 12, back peg 0   (track 1)" in out
    assert "   1 ....+ ....+ .A..+ ....+ ....+ ....+" in out
    assert "   1 ....B ....+ ....+ ....+ ....+ ....+" in out
    assert "  | A+12*     B+5       " in out
    assert "\u2588" in out  # the OLED's pixels in half blocks


# ---- scripted: saved state --------------------------------------------------------

def test_save_then_state_resumes_the_game(tmp_path, capsys):
    saved = str(tmp_path / "board.nvm")
    code, _, _ = run_main(capsys, "--keys", "12A", "--save", saved)
    assert code == 0
    assert os.path.getsize(saved) == 4096
    code, out, _ = run_main(capsys, "--keys", "5B", "--state", saved, "--json")
    assert code == 0
    assert json.loads(out)["scores"] == [12, 5]
    # the same through the command line, and the file is only read
    before = open(saved, "rb").read()
    result = run_tool("--keys", "3A", "--state", saved, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["pegs"] == [[15, 12], [0, 0]]
    assert open(saved, "rb").read() == before


def test_a_saved_image_matches_the_boards_flash(tmp_path, capsys):
    saved = str(tmp_path / "board.nvm")
    run_main(capsys, "--keys", "9B 4A", "--save", saved)
    assert open(saved, "rb").read() == played("9B 4A").nvm_image()


# ---- scripted: refusals -----------------------------------------------------------

def test_a_bad_key_is_one_line_and_exit_2():
    result = run_tool("--keys", "12X", "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "'X'" in result.stderr and "Traceback" not in result.stderr


def test_a_bad_key_in_process(capsys):
    code, out, err = run_main(capsys, "--keys", "1%A")
    assert code == 2 and out == ""
    assert "'%'" in err and err.count("\n") == 1


@pytest.mark.parametrize("content", [b"", b"\xff" * 100, b"\xff" * 4097])
def test_a_state_file_of_the_wrong_size_is_refused(tmp_path, content):
    path = tmp_path / "bad.nvm"
    path.write_bytes(content)
    result = run_tool("--keys", "1A", "--state", str(path))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "4096" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_or_unreadable_state_file_is_refused(tmp_path, capsys):
    for path in (tmp_path / "missing.nvm", tmp_path):
        code, out, err = run_main(capsys, "--keys", "1A", "--state", str(path))
        assert code == 2 and out == ""
        assert err.startswith("tools/sim.py: cannot read state file")
        assert err.count("\n") == 1


def test_a_fifo_as_state_file_is_refused_at_once(tmp_path):
    fifo = tmp_path / "game.nvm"
    os.mkfifo(fifo)
    result = subprocess.run([sys.executable, TOOL, "--keys", "1A", "--state", str(fifo)],
                            cwd=REPO, env=ENV, stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=60)  # opening a FIFO to read would hang
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "tools/sim.py: cannot read state file %s: it is a FIFO, " \
        "not a saved board\n" % fifo


@pytest.mark.parametrize("content", [bytes(4096), bytes((i * 7 + 3) % 256 for i in range(4096)),
                                     b"CRB\x01\x00\x00" + b"\x00" * 4090])
def test_a_state_file_the_board_cannot_read_is_refused(tmp_path, content):
    path = tmp_path / "garbage.nvm"
    path.write_bytes(content)
    result = run_tool("--keys", "1A", "--state", str(path), "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "tools/sim.py: state file %s is not a saved board: neither " \
        "erased flash nor a game the board can read\n" % path
    assert path.read_bytes() == content


def test_an_erased_state_file_is_a_fresh_board(tmp_path, capsys):
    path = tmp_path / "erased.nvm"
    path.write_bytes(b"\xff" * 4096)
    code, out, err = run_main(capsys, "--keys", "1A", "--state", str(path), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["scores"] == [1, 0]


@pytest.mark.parametrize("name", ["board.txt", "board", "board.png.txt"])
def test_png_needs_a_png_name(tmp_path, name):
    path = tmp_path / name
    saved = tmp_path / "saved.nvm"
    result = run_tool("--keys", "1A", "--png", str(path), "--save", str(saved))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "tools/sim.py: --png %s: the picture is a PNG; give a file " \
        "name ending in .png\n" % path
    assert not path.exists() and not saved.exists()  # refused before anything is done


def test_png_into_a_missing_folder_or_onto_a_folder_is_refused(tmp_path, capsys):
    folder = tmp_path / "shots.png"
    folder.mkdir()
    for path, why in ((tmp_path / "none" / "b.png", "no folder %s" % (tmp_path / "none")),
                      (folder, "it is a directory")):
        code, out, err = run_main(capsys, "--keys", "1A", "--png", str(path))
        assert code == 2 and out == ""
        assert err == "tools/sim.py: cannot write %s: %s\n" % (path, why)


# ---- a game with more players than the board has tracks ---------------------------

def three_player_save(tmp_path, capsys):
    """A 3-player game (C pegged 7) saved from a 3-track board."""
    saved = str(tmp_path / "three.nvm")
    code, _, _ = run_main(capsys, "--keys", "D11# 7C", "--tracks", "3", "--save", saved)
    assert code == 0
    return saved


WARNING = ("a 3-player game on a 2-track board: C has no track, so its pegs show nowhere "
           "(--tracks 3 shows them)")


def test_a_three_player_save_on_two_tracks_warns_in_json(tmp_path, capsys):
    saved = three_player_save(tmp_path, capsys)
    code, out, err = run_main(capsys, "--keys", "", "--state", saved, "--json")
    assert code == 0
    assert err == "tools/sim.py: warning: %s\n" % WARNING
    state = json.loads(out)
    assert (state["players"], state["tracks"], state["sides"]) == (3, 2, ["A", "B", "C"])
    assert state["scores"] == [0, 0, 7]
    assert len(state["leds"]) == 2  # no third track reported
    code, out, err = run_main(capsys, "--keys", "", "--state", saved, "--json",
                              "--tracks", "3")
    assert (code, err) == (0, "")  # with three tracks nothing to warn about


def test_a_three_player_save_on_two_tracks_warns_in_the_summary(tmp_path, capsys):
    saved = three_player_save(tmp_path, capsys)
    code, out, _ = run_main(capsys, "--keys", "", "--state", saved)
    assert code == 0
    assert "  C    7   front peg 7, back peg 0   (no track on this board)" in out
    assert "Warning: %s" % WARNING in out
    assert "Track 1 (A)" in out and "Track 2 (B)" in out
    assert "Track 3" not in out and "(track 3)" not in out


# ---- the picture ------------------------------------------------------------------

def test_png_shows_the_strips_pegs_and_the_oleds_pixels(tmp_path, capsys):
    path = str(tmp_path / "board.png")
    keys = "12A5B"
    code, _, _ = run_main(capsys, "--keys", keys, "--png", path)
    assert code == 0
    img = Image.open(path).convert("RGB")
    geo = picture.board_geometry(2)
    assert img.size == (geo["width"], geo["height"])

    ours = played(keys)
    peak = ours.peak()
    front = ours.board.strip_pixels(0)[12 - 1]
    assert img.getpixel(picture.hole_centre(0, 12, 2)) == marks.display_colour(front, peak)
    assert img.getpixel(picture.hole_centre(0, 12, 2)) == (255, 0, 0)  # the brightest: full red
    assert img.getpixel(picture.hole_centre(1, 5, 2)) == (0, 0, 255)
    mark = ours.board.strip_pixels(1)[10 - 1]
    assert mark != (0, 0, 0)
    assert img.getpixel(picture.hole_centre(1, 10, 2)) == marks.display_colour(mark, peak)
    assert img.getpixel(picture.hole_centre(0, 3, 2)) == (40, 40, 40)  # unlit: dark grey

    ox, oy = geo["oled"]
    s = picture.OLED_SCALE
    pixels = ours.board.oled_pixels()
    lit = 0
    for y in range(64 * s):
        for x in range(128 * s):
            if img.getpixel((ox + x, oy + y)) == picture.OLED_ON:
                lit += 1
    assert lit == sum(map(sum, pixels)) * s * s
    for y in range(64):
        for x in range(128):
            centre = img.getpixel((ox + x * s + 1, oy + y * s + 1))
            assert (centre == picture.OLED_ON) == bool(pixels[y][x])


def test_the_docs_picture_is_a_board_picture():
    img = Image.open(os.path.join(REPO, "docs", "board.png"))
    assert img.size == (picture.board_geometry(2)["width"], picture.board_geometry(2)["height"])


# ---- no terminal: the demo --------------------------------------------------------

def test_without_a_terminal_it_plays_the_demo_hand():
    result = run_tool()
    assert result.returncode == 0, result.stderr
    demo = played(tool.DEMO_KEYS)
    a, b = demo.game.scores
    assert a > 0 and b > 0
    assert "demo hand" in result.stdout
    assert "  A  %3d   front peg %d" % (a, a) in result.stdout
    assert "  B  %3d   front peg %d" % (b, b) in result.stdout
    assert "Phase: play" in result.stdout


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
def test_at_80x24_the_oled_is_its_text_and_the_legend_is_whole(tracks):
    ours = played("12A 5B # 5C", tracks=tracks)
    shown = render(ours, (80, 24), "game kept in /tmp/x.nvm")
    text = "\n".join(shown.display)
    assert full_size_oled(shown) is None
    for line in text_module.oled_text(ours):
        assert "\u2502%-21s\u2502" % line in text
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
    assert cell(row_a, 11).fg == "5a5a5a"   # unlit: grey


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
