"""deployer.manifest: the list of files a deploy wrote, kept on the drive with their hashes.

Only files on this list are ever deleted from the board (when they leave the
firmware), and only while their content is still what was written.
"""

from __future__ import annotations

import json
from pathlib import Path

from .paths import valid_rel
from .report import note

MANIFEST_NAME = ".cribbage-deploy.json"


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
    good = {rel: digest for rel, digest in files.items()
            if valid_rel(rel) and isinstance(digest, str)}
    if len(good) != len(files):
        note(f"ignoring {len(files) - len(good)} odd path(s) in {MANIFEST_NAME}")
    return good


def manifest_bytes(files: dict[str, str]) -> bytes:
    body = {"about": ("files written by tools/deploy.py;"
                      " it removes them when they leave the firmware"),
            "files": dict(sorted(files.items()))}
    return (json.dumps(body, indent=1, sort_keys=True) + "\n").encode("utf-8")
