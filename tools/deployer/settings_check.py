"""deployer.settings_check: settings.toml on the drive, read as the firmware deployed reads it.

The deploy never writes settings.toml (it is the maker's), but it reads it with
the firmware's own parser (boards/settings.py) and asks every key as the board
does at start (boards.hardware, then the app's cribbage.settings), so a value the
board would not take is said now, as a note, in the words the OLED would show.
The firmware being deployed answers, not this tool's copy: a child Python runs it
from --source, with the drive's file on its stdin.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .report import note

SETTINGS_NAME = "settings.toml"
PARSER = "boards/settings.py"
TIMEOUT_S = 30

# What the board asks at start, in its order: code.py's hardware.build (the tracks,
# then the tuned values), then the App's lights (tests/test_deploy.py holds the
# two to the sim board's own notices).
_ASK_AS_THE_BOARD_DOES = """
import sys
source = sys.argv[1]
sys.path[:0] = [source, source + "/lib"]
import boards
from boards import hardware, settings
from cribbage.settings import Settings
told = settings.parse(sys.stdin.buffer.read())
config = boards.config_for(sys.argv[2])
hardware.tune(config, told, hardware.track_count(config, told))
Settings.from_board(told)
sys.stdout.write("".join(line + "\\n" for line in told.problems + told.unknown()))
"""


def board_would_say(source: Path, board_id: str, data: bytes) -> list[str]:
    """The lines the board would show at start about settings.toml's `data`."""
    run = subprocess.run(
        [sys.executable, "-I", "-c", _ASK_AS_THE_BOARD_DOES, str(source), board_id],
        input=data, capture_output=True, timeout=TIMEOUT_S)
    if run.returncode != 0:
        lines = run.stderr.decode("utf-8", errors="replace").strip().splitlines()
        raise RuntimeError(lines[-1] if lines else f"exit code {run.returncode}")
    return run.stdout.decode("utf-8", errors="replace").splitlines()


def check_settings(source: Path, target: Path, board_id: str) -> None:
    """A note for each line the board would show about the drive's settings.toml."""
    path = target / SETTINGS_NAME
    if not path.is_file():
        return
    if not (source / PARSER).is_file():
        note(f"{SETTINGS_NAME} on the target is not checked: {source} has no {PARSER}")
        return
    try:
        data = path.read_bytes()
        lines = board_would_say(source, board_id, data)
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:
        note(f"{SETTINGS_NAME} on the target could not be checked ({e})")
        return
    for line in lines:
        note(f"{line} (as the board will say at start)")
