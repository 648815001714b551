"""deployer.uf2: install CircuitPython itself, copying a UF2 to a Pico in bootloader mode."""

from __future__ import annotations

import argparse
import os
import re
import struct
from pathlib import Path

from .drives import BOOTLOADER_LABELS, pick_target
from .paths import target_path, valid_rel
from .report import EXIT_OK, DeployError, human, say

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


def check_uf2(data: bytes, name: str) -> list[int]:
    """Refuse what is not a UF2; return the family ids its blocks carry."""
    if len(data) < UF2_BLOCK or len(data) % UF2_BLOCK:
        raise DeployError(f"{name} is not a UF2 file"
                          f" (its size is not a multiple of {UF2_BLOCK} bytes)")
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
    """The bootloader label (RPI-RP2 or RP2350) that the drive's INFO_UF2.TXT names."""
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
            raise DeployError(f"{info} says Board-ID {board},"
                              " not an RP2040 (RPI-RP2) or RP2350 bootloader")
    raise DeployError(f"{info} has no Board-ID line; is this an RP2040/RP2350 bootloader drive?")


def _copy_uf2(dest: Path, data: bytes, uf2: Path, target: Path) -> None:
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
            raise DeployError(f"{uf2.name} is built for {other}, but the drive at {target}"
                              f" is {chip}; get the UF2 for your board")
    name = uf2.name
    if name.upper() in BOOTLOADER_FILES or not valid_rel(name) or not name.lower().endswith(".uf2"):
        name = "circuitpython.uf2"
    dest = target_path(target, name)
    if args.dry_run:
        say(f"Would copy {uf2.name} ({human(len(data))}) to {target} ({chip});"
            " nothing was written.")
        return EXIT_OK
    say(f"Copying {uf2.name} ({human(len(data))}) to {target} ({chip}) ...")
    _copy_uf2(dest, data, uf2, target)
    say(
        "Done. The Pico now reboots into CircuitPython and a CIRCUITPY drive appears "
        "(this takes a few seconds). Then run: python tools/deploy.py"
    )
    return EXIT_OK
