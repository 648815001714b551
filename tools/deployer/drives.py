"""deployer.drives: find the CIRCUITPY drive (or the bootloader's drive) by its name."""

from __future__ import annotations

import glob
import os
import re
import sys
from pathlib import Path
from typing import Sequence

from .report import DeployError

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


def label_matches(name: str, label: str) -> bool:
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
        if ok and label_matches(name.value, label):
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
        candidates = [Path(p) for p in paths if label_matches(Path(p).name, label)]
    unique: dict[str, Path] = {}
    for path in candidates:
        if path.is_dir():
            unique.setdefault(os.path.realpath(path), path)
    return sorted(unique.values())


def pick_target(target: str | None, labels: Sequence[str], hint: str) -> Path:
    """--target if given (it must be a folder), else the one mounted drive named
    one of `labels`; none or several is a refusal."""
    if target is not None:
        path = Path(target).expanduser()
        if path.exists() and not path.is_dir():
            raise DeployError(f"--target {target} is a file; give the drive's folder"
                              f" (where it is mounted, e.g. /media/me/{labels[0]})")
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
