"""deployer.boot_out: what boot_out.txt on CIRCUITPY says (CircuitPython version, board id)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .report import DeployError
from .sources import BOARDS_DIR

BOOT_OUT = "boot_out.txt"
MIN_CIRCUITPYTHON = 9


@dataclass
class BootInfo:
    version: tuple[int, int, int]
    version_text: str  # exactly as CircuitPython names itself: "10.0.3", "9.0.0-beta.2"
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


def check_circuitpy(target: Path, configs: list[str]) -> BootInfo:
    """boot_out.txt of `target`: CircuitPython new enough, on a board with a config."""
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
