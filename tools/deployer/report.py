"""deployer.report: refusals, notes, progress lines and the sizes they print.

Every refusal is one DeployError, printed as one line on stderr with exit code 2.
Notes (warnings) wait until the checks have passed, so a refusal stays one line.
"""

from __future__ import annotations

import hashlib
import sys

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


def clear_notes() -> None:
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
