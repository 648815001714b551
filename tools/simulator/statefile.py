"""tools.simulator.statefile: the board's flash image in a file, read with care, written whole.

A state file is the 4096 bytes of the nvm sector, as a power cut would leave
the board. Reading one refuses what the board could not use (a missing file,
a FIFO or a directory, the wrong size, bytes that are neither erased flash nor
a log the board's store can read) with a UsageError, never a fresh game in its
place. Writing goes through the deploy tool's ``write_atomic``: the file is the
old image or the new one, never half of each.
"""

import os
import stat
from pathlib import Path

from boards.sim.nvm import NVM_SECTOR, SimNVM
from cribbage.store import Store
from tools.deploy import write_atomic
from tools.simulator.session import UsageError

STATE_DIR = "cribbage-board"  # under the user's cache folder
STATE_NAME = "sim.nvm"

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


def default_path(environ=None):
    """Where the terminal simulator keeps its game: $XDG_CACHE_HOME (or ~/.cache)
    /cribbage-board/sim.nvm."""
    environ = os.environ if environ is None else environ
    cache = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, STATE_DIR, STATE_NAME)


def _kind(mode):
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def is_game_image(data):
    """Erased flash, or a log from which the board's store reads a game or settings."""
    if data == b"\xff" * len(data):
        return True
    game, settings = Store(SimNVM(data)).load()
    return game is not None or settings is not None


def read_state(path):
    """The saved nvm image in ``path``: exactly one flash sector the board can read."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise UsageError("cannot read state file %s: %s" % (path, err.strerror or err))
    if not stat.S_ISREG(info.st_mode):
        raise UsageError("cannot read state file %s: it is %s, not a saved board"
                         % (path, _kind(info.st_mode)))
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, never hang on it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            data = f.read(NVM_SECTOR + 1)
    except OSError as err:
        raise UsageError("cannot read state file %s: %s" % (path, err.strerror or err))
    if len(data) != NVM_SECTOR:
        raise UsageError("state file %s is %s bytes; a saved board is exactly %d"
                         % (path, "over %d" % NVM_SECTOR if len(data) > NVM_SECTOR
                            else len(data), NVM_SECTOR))
    if not is_game_image(data):
        raise UsageError("state file %s is not a saved board: neither erased flash nor "
                         "a game the board can read" % path)
    return data


def write_state(path, data):
    """Write the nvm image to ``path`` atomically (its folder is made if missing)."""
    dest = Path(path)
    for folder in [dest.parent] + list(dest.parent.parents):
        if folder.exists():
            if not folder.is_dir():
                raise UsageError("cannot write state file %s: %s is not a folder"
                                 % (path, folder))
            break
    try:
        write_atomic(dest, data)
    except OSError as err:
        raise UsageError("cannot write state file %s: %s" % (path, err.strerror or err))
