"""deployer.paths: paths on the target that stay inside it."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from .report import DeployError


def inside(root: Path, path: Path) -> bool:
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
    if not inside(target, parent):
        raise DeployError(f"refusing to write {rel}:"
                          f" {dest.parent} is a link leading outside {target}")
    if dest.is_symlink() and not inside(target, Path(os.path.realpath(dest))):
        raise DeployError(f"refusing to write {rel}: it is a link leading outside {target}")
    return dest
