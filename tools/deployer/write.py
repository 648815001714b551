"""deployer.write: carry out a plan on the target (atomic writes, code.py last), then verify.

_write_temp and _read_back are the only places that touch file data on the
target, so the tests can put a full or read-only drive behind them.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

from .manifest import MANIFEST_NAME, manifest_bytes
from .paths import inside, target_path
from .plan import Plan, current
from .report import DeployError, human, nbytes, say, sha256
from .sources import ENTRY_POINT, TARGET_LIB_DIR

TEMP_SUFFIX = ".deploy-tmp"


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
        fix = ("check boot.py does not remount it for the board (storage.remount)"
               " and that it is mounted writable")
    else:
        what = f"cannot write to {target}: {e.strerror or e}{where}"
        fix = "check the drive"
    if changed:
        partial = f"{changed} file(s) were already updated or removed, {ENTRY_POINT} was not"
    else:
        partial = "nothing was changed"
    return f"{what}; {partial}; {fix}, then run deploy again"


def _remove_empty_parents(path: Path, target: Path) -> None:
    folder = path.parent
    while folder != target and inside(target, folder) and folder != target / TARGET_LIB_DIR:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def _write_one(dest: Path, item_rel: str, data: bytes) -> None:
    write_atomic(dest, data)
    say(f"  wrote {item_rel} ({nbytes(len(data))})")


def _carry_out(plan: Plan, done: list[int]) -> None:
    """The deletes and writes, ENTRY_POINT after the final manifest; done[0] counts
    the files changed so far (for the message when a write fails)."""
    if plan.writes or plan.deletes:
        # First claim every path this run may create, so a run that stops half
        # way still knows them next time, with what the files it rewrites held
        # before (each holds one or the other until the run is done); the final
        # list goes in before code.py.
        claim = dict(plan.old_manifest)
        claim.update(plan.new_manifest)
        earlier = {rel: [digest, *plan.earlier.get(rel, [])]
                   for rel, digest in plan.old_manifest.items()
                   if claim[rel] != digest or rel in plan.earlier}
        if claim != plan.old_manifest or earlier != plan.earlier:
            write_atomic(plan.manifest_path, manifest_bytes(claim, earlier))
    for rel, dest, _ in plan.deletes:
        dest.unlink()
        done[0] += 1
        _remove_empty_parents(dest, plan.target)
        say(f"  deleted {rel}")
    entry = [(item, dest) for item, dest in plan.writes if item.rel == ENTRY_POINT]
    for item, dest in plan.writes:
        if item.rel != ENTRY_POINT:
            _write_one(dest, item.rel, item.data)
            done[0] += 1
    final = manifest_bytes(plan.new_manifest)
    if current(plan.manifest_path, MANIFEST_NAME) != final:
        write_atomic(plan.manifest_path, final)
    for item, dest in entry:
        _write_one(dest, item.rel, item.data)
        done[0] += 1
    sync()


def apply(plan: Plan) -> None:
    """Carry out the plan; a failed write is a refusal saying what was changed."""
    done = [0]
    try:
        _carry_out(plan, done)
    except OSError as e:
        raise DeployError(describe_oserror(e, plan.target, done[0])) from None


def verify(plan: Plan) -> None:
    """Read every deployed file back from the target and compare."""
    for item in plan.items:
        dest = target_path(plan.target, item.rel)
        try:
            back = _read_back(dest)
        except OSError as e:
            raise DeployError(f"verification failed: cannot read back {item.rel}:"
                              f" {e.strerror or e}") from None
        if sha256(back) != plan.new_manifest[item.rel]:
            raise DeployError(
                f"verification failed: {item.rel} on the target differs from what was written; "
                "the drive may be failing, run deploy again"
            )


def show_summary(plan: Plan) -> None:
    free = shutil.disk_usage(plan.target).free
    written = sum(len(i.data) for i, _ in plan.writes)
    deleted = sum(n for _, _, n in plan.deletes)
    say(f"Verified {len(plan.items)} file(s) on the target.")
    say(
        f"Summary: wrote {len(plan.writes)} file(s) ({human(written)}),"
        f" deleted {len(plan.deletes)} ({human(deleted)}), {plan.unchanged} unchanged;"
        f" {human(free)} free on the target."
    )
