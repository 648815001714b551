"""deployer.mpy: compile the deployed modules to .mpy with a CircuitPython mpy-cross."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path, PurePosixPath

from .report import DeployError
from .sources import ENTRY_POINT, Item


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
