"""deployer.sources: which files of the repository go onto the board, and where.

Also the board ids the repository has a config for (boards/<board_id>.py).
"""

from __future__ import annotations

import ast
import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path

from .report import DeployError, note

# Firmware roots, relative to the repository root, in the order they are written.
# A directory contributes its FIRMWARE_SUFFIXES files, recursively, at the same
# relative path on the board; a file is copied as is.
# ENTRY_POINT is always written last, whatever its place here: CircuitPython reloads
# as soon as writes stop, and it must not start a new code.py against old modules.
FIRMWARE_ROOTS: tuple[str, ...] = ("engine", "boards", "lib", "font5x8.bin", "code.py")
ENTRY_POINT = "code.py"
FIRMWARE_SUFFIXES: tuple[str, ...] = (".py",)
# Laptop-only files inside the firmware roots (fnmatch patterns on the relative path):
# the simulator's boards/sim/, and __main__.py command-line entries, which
# CircuitPython never runs.
EXCLUDED: tuple[str, ...] = ("boards/sim*", "*/__main__.py")
# The board's /lib, on CircuitPython's import path: the app's package goes there.
TARGET_LIB_DIR = "lib"
# boards/<board_id>.py is the config for the board whose boot_out.txt says that id.
# When boards/__init__.py lists them in a literal CONFIGS tuple, only those count
# (the folder also holds shared helper modules).
BOARDS_DIR = "boards"
BOARD_CONFIGS_NAME = "CONFIGS"


@dataclass
class Item:
    rel: str  # path on the target
    src: Path  # file it comes from (before any compiling)
    data: bytes = b""
    uncompiled: bool = False  # a dry run's .mpy, named but not compiled: data is its source
    fetch: str = ""  # a dry run's driver not in the cache: what it is, no data


def excluded(rel: str) -> bool:
    return any(fnmatch.fnmatchcase(rel, pattern) for pattern in EXCLUDED)


def _wanted_file(name: str) -> bool:
    return (
        not name.startswith(".")
        and name.endswith(FIRMWARE_SUFFIXES)
        and not name.endswith((".pyi", ".pyc"))
    )


def walk_py(folder: Path) -> list[Path]:
    """Files with FIRMWARE_SUFFIXES under folder, sorted, without hidden files or
    __pycache__ (symlinked folders are not followed)."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if _wanted_file(name):
                found.append(Path(root) / name)
    return found


def collect_firmware(source: Path) -> list[Item]:
    """The firmware files of the repository at `source`, ENTRY_POINT last."""
    if not (source / ENTRY_POINT).is_file():
        raise DeployError(f"{source} has no {ENTRY_POINT}; point --source at the repository root")
    items = []
    for root in FIRMWARE_ROOTS:
        if root == ENTRY_POINT:
            continue
        path = source / root
        if path.is_dir():
            for file in walk_py(path):
                rel = file.relative_to(source).as_posix()
                if not excluded(rel):
                    items.append(Item(rel, file))
        elif path.is_file():
            if not excluded(root):
                items.append(Item(root, path))
        else:
            note(f"{root} is missing from {source}; deploying without it")
    items.append(Item(ENTRY_POINT, source / ENTRY_POINT))
    return items


def _declared_configs(init: Path) -> list[str] | None:
    """The literal CONFIGS tuple/list of boards/__init__.py, if it has one."""
    try:
        tree = ast.parse(init.read_bytes(), filename=str(init))
    except (OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == BOARD_CONFIGS_NAME for t in node.targets)
            and isinstance(node.value, (ast.Tuple, ast.List))
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                    for e in node.value.elts)
        ):
            return [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
    return None


def board_configs(source: Path) -> list[str]:
    """Board ids this firmware has a config for: boards/<board_id>.py, minus sim
    files (and minus helpers, when boards/__init__.py names its CONFIGS)."""
    folder = source / BOARDS_DIR
    if not folder.is_dir():
        return []
    ids = []
    for path in folder.glob("*.py"):
        rel = f"{BOARDS_DIR}/{path.name}"
        if path.is_file() and not path.stem.startswith("_") and not excluded(rel):
            ids.append(path.stem)
    declared = _declared_configs(folder / "__init__.py")
    if declared is not None:
        ids = [board for board in ids if board in declared]
    return sorted(ids)
