"""deployer.manifest: the list of files a deploy wrote, kept on the drive with their hashes.

Only files on this list are ever deleted from the board (when they leave the
firmware), and only while their content is still what was written; a file whose
content is neither is the maker's edit, never overwritten. While a deploy runs
the list claims what it is writing, and keeps under "earlier" the hashes those
files had before: a deploy cut short leaves each file with one or the other.
"""

from __future__ import annotations

import json
from pathlib import Path

from .paths import valid_rel
from .report import note

MANIFEST_NAME = ".cribbage-deploy.json"


def read_manifest(target: Path) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The files listed (path -> hash), and the earlier hashes of a deploy cut short."""
    path = target / MANIFEST_NAME
    if not path.is_file():
        return {}, {}
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
        files = data["files"]
        earlier = data.get("earlier", {})
        if not isinstance(files, dict) or not isinstance(earlier, dict):
            raise TypeError
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        note(f"ignoring unreadable {MANIFEST_NAME} on the target; no old files will be removed")
        return {}, {}
    good = {rel: digest for rel, digest in files.items()
            if valid_rel(rel) and isinstance(digest, str)}
    if len(good) != len(files):
        note(f"ignoring {len(files) - len(good)} odd path(s) in {MANIFEST_NAME}")
    before = {rel: [d for d in digests if isinstance(d, str)] for rel, digests in earlier.items()
              if rel in good and isinstance(digests, list)}
    return good, before


def manifest_bytes(files: dict[str, str], earlier: dict[str, list[str]] | None = None) -> bytes:
    body: dict[str, object] = {
        "about": ("files written by tools/deploy.py;"
                  " it removes them when they leave the firmware"),
        "files": dict(sorted(files.items()))}
    if earlier:
        body["earlier"] = {rel: sorted(set(d)) for rel, d in sorted(earlier.items())}
    return (json.dumps(body, indent=1, sort_keys=True) + "\n").encode("utf-8")
