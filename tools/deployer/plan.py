"""deployer.plan: what a deploy will write, delete and leave, decided before the first write.

Everything odd (two files for one place, a folder where a file goes, a link
leading outside the drive, too little room) is refused here, so a refused
deploy changes nothing.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from .manifest import MANIFEST_NAME, manifest_bytes, read_manifest
from .paths import target_path
from .report import DeployError, human, nbytes, note, say, sha256
from .sources import Item


@dataclass
class Plan:
    target: Path
    items: list[Item]  # everything that ends up on the target, in writing order
    new_manifest: dict[str, str]
    old_manifest: dict[str, str]
    earlier: dict[str, list[str]]  # the hashes a deploy cut short may have left instead
    manifest_path: Path
    writes: list[tuple[Item, Path]]  # changed or new files
    deletes: list[tuple[str, Path, int]]  # (rel, path, size) of files that left the firmware
    unchanged: int
    free: int  # bytes free on the target before the deploy


def current(dest: Path, rel: str) -> bytes | None:
    """What the target holds at `dest` now (None: nothing)."""
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


def _check_unique(items: list[Item]) -> None:
    rels = [item.rel for item in items]
    if len(set(rels)) != len(rels):
        dup = sorted({r for r in rels if rels.count(r) > 1})
        raise DeployError(f"two files would go to the same place on the board: {', '.join(dup)}")


def _changed(items: list[Item], target: Path) -> tuple[list[tuple[Item, Path]], int, int]:
    """The files to write, how many are already there, and the bytes rewriting frees."""
    writes: list[tuple[Item, Path]] = []
    unchanged = 0
    freed_by_rewrite = 0
    for item in items:
        dest = target_path(target, item.rel)
        now = current(dest, item.rel)
        if now == item.data and not item.uncompiled and not item.fetch:
            unchanged += 1
        else:
            writes.append((item, dest))
            if now is not None:
                freed_by_rewrite += len(now)
    return writes, unchanged, freed_by_rewrite


def _stale(old: dict[str, str], earlier: dict[str, list[str]], new: dict[str, str],
           target: Path) -> list[tuple[str, Path, int]]:
    """Files an earlier deploy wrote that left the firmware, unchanged since."""
    deletes: list[tuple[str, Path, int]] = []
    for rel, digest in sorted(old.items()):
        if rel in new:
            continue
        dest = target_path(target, rel)
        if not dest.is_file() or dest.is_symlink():
            continue
        now = current(dest, rel)
        assert now is not None
        if not deployed(rel, now, old, earlier):
            note(f"leaving {rel} on the target: it was changed there since it was deployed")
            continue
        deletes.append((rel, dest, len(now)))
    return deletes


# How a refusal for the maker's own files on the drive ends: nothing is lost.
KEEP_YOURS = ("nothing was changed. Copy off the drive what you want to keep (what a maker"
              " tunes goes in settings.toml: README, Parts and wiring), delete it there,"
              " then run deploy again")


def _listed(rels: list[str], one: str, several: str) -> str:
    return ", ".join(rels) + " " + (one if len(rels) == 1 else several)


def deployed(rel: str, data: bytes, old: dict[str, str], earlier: dict[str, list[str]]) -> bool:
    """Whether `data` at `rel` is what a deploy wrote there (not the maker's)."""
    return rel in old and sha256(data) in [old[rel], *earlier.get(rel, [])]


def _check_yours(items: list[Item], old: dict[str, str], earlier: dict[str, list[str]],
                 target: Path) -> None:
    """Refuse to replace a file edited on the drive since a deploy wrote it, or to
    leave a .py that CircuitPython would import instead of a .mpy written now."""
    new = {item.rel: item for item in items}
    edited: list[str] = []
    hiding: list[str] = []
    for rel, item in new.items():
        dest = target_path(target, rel)
        now = current(dest, rel)
        if (rel in old and now is not None and now != item.data
                and not deployed(rel, now, old, earlier)):
            edited.append(rel)
        if rel.endswith(".mpy"):
            source = rel[: -len(".mpy")] + ".py"
            dest = target_path(target, source)
            if dest.is_file() and source not in new:
                now = current(dest, source)
                assert now is not None
                if not deployed(source, now, old, earlier):
                    hiding.append(source)
    if edited:
        said = _listed(edited, "was changed on the target since a deploy wrote it",
                       "were changed on the target since a deploy wrote them")
        raise DeployError(f"{said}; {KEEP_YOURS}")
    if hiding:
        said = _listed(hiding, "on the target is not as a deploy wrote it, and CircuitPython"
                       " would import it instead of its .mpy", "on the target are not as a"
                       " deploy wrote them, and CircuitPython would import them instead of"
                       " their .mpy")
        raise DeployError(f"{said}; {KEEP_YOURS}")


def _check_room(plan: Plan, freed_by_rewrite: int) -> None:
    cluster = _cluster(plan.target)
    growth = sum(_on_disk(len(i.data), cluster) for i, _ in plan.writes) + _on_disk(
        len(manifest_bytes(plan.new_manifest)), cluster
    )
    growth -= _on_disk(freed_by_rewrite, cluster)
    growth -= sum(_on_disk(n, cluster) for _, _, n in plan.deletes)
    # Each file goes to a temporary name first: the biggest one needs room twice.
    peak = max((_on_disk(len(i.data), cluster) for i, _ in plan.writes), default=0)
    if plan.writes and growth + peak > plan.free:
        raise DeployError(
            f"{plan.target} is too full: the update needs about {human(growth + peak)} "
            f"and {human(plan.free)} is free; nothing was changed"
        )


def make_plan(items: list[Item], target: Path) -> Plan:
    """Decide every write and delete (and refuse anything odd) before the first write."""
    _check_unique(items)
    new_manifest = {item.rel: sha256(item.data) for item in items}
    old_manifest, earlier = read_manifest(target)
    _check_yours(items, old_manifest, earlier, target)
    manifest_path = target_path(target, MANIFEST_NAME)
    writes, unchanged, freed_by_rewrite = _changed(items, target)
    deletes = _stale(old_manifest, earlier, new_manifest, target)
    plan = Plan(target, items, new_manifest, old_manifest, earlier, manifest_path, writes,
                deletes, unchanged, shutil.disk_usage(target).free)
    _check_room(plan, freed_by_rewrite)
    return plan


def show_dry_run(plan: Plan) -> None:
    for rel, _, size in plan.deletes:
        say(f"  would delete {rel} ({nbytes(size)})")
    for item, _ in plan.writes:
        if item.fetch:
            say(f"  would fetch and write {item.rel} (from {item.fetch})")
        elif item.uncompiled:
            source = item.rel[: -len(".mpy")] + ".py"
            say(f"  would compile and write {item.rel} (from {source}, {nbytes(len(item.data))})")
        else:
            say(f"  would write {item.rel} ({nbytes(len(item.data))})")
    size = human(sum(len(i.data) for i, _ in plan.writes))
    say(
        f"Dry run: would write {len(plan.writes)} file(s) ({size}), "
        f"delete {len(plan.deletes)}, leave {plan.unchanged} unchanged; nothing was written. "
        f"{human(plan.free)} free on the target."
    )
