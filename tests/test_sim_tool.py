"""tools/sim.py: the firmware on the sim board, driven by scripted keys.

Scripted runs are checked both in-process (``main(argv)``) and as a subprocess;
what they report is compared with what a separately built sim board's strips
and OLED received. The interactive mode, in a pseudo-terminal: tests/test_sim_terminal.py.
"""

import json
import os
import subprocess
import sys

import pytest
from PIL import Image

from tools import sim as tool
from tools.simulator import marks, picture
from tools.simulator.session import Session

from sim_helpers import (ENV, REPO, TOOL, lit_holes, played, run_main, run_tool,
                         three_player_save)


# ---- scripted: JSON ---------------------------------------------------------------

def test_points_for_both_players_as_json_in_a_subprocess():
    result = run_tool("--keys", "12A5B", "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    leds = state.pop("leds")
    state.pop("milliamps")
    kept = state.pop("stats")
    assert kept["games"] == 0 and len(kept["sides"]) == 2
    assert [side["typed_points"] for side in kept["sides"]] == [12, 5]
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


def test_the_stats_are_read_from_a_saved_state(tmp_path, capsys):
    saved = str(tmp_path / "board.nvm")
    keys = "29A 7B 29A 29A 29A 29A"  # A's 145 to B's 7: a double skunk
    code, _, _ = run_main(capsys, "--keys", keys, "--save", saved)
    assert code == 0
    result = run_tool("--keys", "", "--state", saved, "--json")
    assert result.returncode == 0, result.stderr
    kept = json.loads(result.stdout)["stats"]
    zero = dict.fromkeys(("skunks", "best_hand", "hands", "hand_points", "cribs",
                          "crib_points", "play_points", "skunked", "matches"), 0)
    a, b = kept["sides"]
    assert kept["games"] == 1
    assert dict(a, **zero) == a and dict(b, **zero) == b
    assert (a["wins"], a["double_skunks"], a["typed_points"]) == (1, 1, 145)
    assert a["hand_average"] is None
    assert (b["wins"], b["double_skunked"], b["typed_points"]) == (0, 1, 7)


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
