"""tests.sim_helpers: tools/sim.py run as a process or in-process (``main(argv)``), a
board of our own keyed the same way to read the strips and the OLED from, and a saved
3-player game."""

import os
import subprocess
import sys

from tools import sim as tool
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


def three_player_save(tmp_path, capsys):
    """A 3-player game (C pegged 7) saved from a 3-track board."""
    saved = str(tmp_path / "three.nvm")
    code, _, _ = run_main(capsys, "--keys", "D11# 7C", "--tracks", "3", "--save", saved)
    assert code == 0
    return saved
