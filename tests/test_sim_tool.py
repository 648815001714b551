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
from tools.simulator import marks, picture, screen
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
        """Feed output into the screen until until(self) holds."""
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
            if until(self):
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
