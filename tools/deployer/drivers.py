"""deployer.drivers: Adafruit's neopixel for the board's /lib, from the wheel the repository pins.

The board drives its strips through Adafruit's ``neopixel.NeoPixel``
(boards/hardware.py). ``adafruit_pixelbuf``, which neopixel imports, is a C module of
CircuitPython's RP2040 and RP2350 builds, so only neopixel.py goes to /lib. Its
version and sha256 hashes are read from the --source repository's
requirements/sim.txt (the lock the simulator installs from): one place for them,
and the board runs the file the simulator runs. The wheel comes from the cache
folder (mpy_fetch.cache_dir()), else from PyPI's JSON API
(https://pypi.org/pypi/<name>/<version>/json names the wheel's URL and sha256), and
is used and kept only when its sha256 is pinned. A deploy that cannot have it stops before
writing anything; a dry run fetches nothing.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
import urllib.parse
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from . import mpy_fetch
from .report import DeployError, note, say, sha256
from .sources import TARGET_LIB_DIR, Item

PIN_FILE = "requirements/sim.txt"
# (the distribution on PyPI, the module of its wheel that goes to /lib)
DRIVERS: tuple[tuple[str, str], ...] = (("adafruit-circuitpython-neopixel", "neopixel.py"),)
PYPI_URL = "https://pypi.org/pypi"
PYPI_ENV = "CRIBBAGE_PYPI_URL"  # another place with PyPI's JSON API (a mirror; the tests')
MAX_JSON = 4 << 20
MAX_WHEEL = 4 << 20  # neopixel's wheel is about 7 KB
_PIN_RE = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([0-9][0-9A-Za-z.+!-]*)")
_HASH_RE = re.compile(r"--hash=sha256:([0-9a-f]{64})")
_WHEEL_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*\.whl")


@dataclass(frozen=True)
class Pin:
    name: str  # normalized as pip compares names
    version: str
    hashes: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}"


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_pins(text: str) -> dict[str, Pin]:
    """Every `name==version` of a pip-compile lock with its --hash=sha256: values."""
    pins = {}
    for line in re.sub(r"\\[ \t]*\r?\n", " ", text).splitlines():
        words = line.split("#", 1)[0].split()
        match = _PIN_RE.fullmatch(words[0]) if words else None
        if match:
            hashes = tuple(m.group(1) for m in map(_HASH_RE.fullmatch, words[1:]) if m)
            name = normalize(match.group(1))
            pins[name] = Pin(name, match.group(2), hashes)
    return pins


def read_pin(source: Path, name: str) -> Pin:
    """`name`'s pin in the repository's requirements/sim.txt (a refusal when it has none)."""
    path = source / PIN_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise DeployError(f"cannot read {path} ({getattr(e, 'strerror', None) or e}): it"
                          f" pins {name}, which the board imports from /lib") from None
    pin = parse_pins(text).get(normalize(name))
    if pin is None or not pin.hashes:
        raise DeployError(f"{path} pins no {name}==VERSION with its --hash=sha256: lines;"
                          " the board imports it from /lib, so nothing was changed")
    return pin


def pypi_url() -> str:
    return (os.environ.get(PYPI_ENV) or PYPI_URL).rstrip("/")


def json_url(pin: Pin) -> str:
    return f"{pypi_url()}/{pin.name}/{pin.version}/json"


def cached(pin: Pin, folder: Path) -> bytes | None:
    """A wheel in the cache whose sha256 the pin names (the name alone proves nothing)."""
    try:
        paths = sorted(folder.glob("*.whl"))
    except OSError:
        return None
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if sha256(data) in pin.hashes:
            return data
    return None


def _get(url: str, what: str, limit: int) -> bytes:
    try:
        return mpy_fetch.download(url, what, limit)
    except mpy_fetch.NotPublished as e:
        raise mpy_fetch.FetchFailed(str(e)) from None


def _wheel_link(pin: Pin) -> tuple[str, str]:
    """The URL and file name of the pinned wheel, as PyPI's JSON API lists them."""
    url = json_url(pin)
    say(f"Fetching {pin.label}'s files from {url}")
    try:
        files = json.loads(_get(url, "PyPI's JSON", MAX_JSON))["urls"]
        wheels = [(f["url"], f["filename"], f["digests"]["sha256"]) for f in files
                  if f.get("packagetype") == "bdist_wheel"]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise mpy_fetch.FetchFailed(f"{url} does not answer as PyPI's JSON API does") from None
    for link, filename, digest in wheels:
        if digest in pin.hashes and isinstance(link, str) and isinstance(filename, str):
            link = urllib.parse.urljoin(url, link)
            if (urllib.parse.urlsplit(link).scheme in ("http", "https")
                    and _WHEEL_NAME_RE.fullmatch(filename)):
                return link, filename
    listed = ", ".join(str(d) for _, _, d in wheels) or "none"
    raise mpy_fetch.FetchFailed(f"{url} lists no wheel whose sha256 {PIN_FILE} pins"
                                f" (its wheels': {listed})")


def _keep(data: bytes, folder: Path, filename: str) -> None:
    """The checked wheel into the cache (written aside, then renamed in)."""
    name = ""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".download-", dir=folder)
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        os.replace(name, folder / filename)
    except OSError as e:
        if name and os.path.exists(name):
            os.unlink(name)
        note(f"could not keep {filename} in {folder} ({e.strerror or e});"
             " the next deploy fetches it again")
        return
    say(f"  kept as {folder / filename}")


def fetch(pin: Pin, folder: Path) -> bytes:
    """The pinned wheel from PyPI, checked and kept in `folder` (FetchFailed: why not)."""
    link, filename = _wheel_link(pin)
    say(f"Fetching {pin.label}: {link}")
    data = _get(link, "a wheel", MAX_WHEEL)
    digest = sha256(data)
    if digest not in pin.hashes:
        raise DeployError(f"the wheel from {link} is not {pin.label} as {PIN_FILE} pins it"
                          f" (its sha256 is {digest}); it was not kept, and nothing was changed")
    _keep(data, folder, filename)
    return data


def module_of(wheel: bytes, module: str, pin: Pin) -> bytes:
    try:
        with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
            return archive.read(module)
    except (zipfile.BadZipFile, KeyError, EOFError, OSError, NotImplementedError, ValueError,
            zlib.error) as e:
        raise DeployError(f"{pin.label}'s wheel has no readable {module} ({e});"
                          " nothing was changed") from None


def _reason(e: Exception) -> str:
    return str(e).removesuffix("; offline?")


def driver_items(source: Path, workdir: Path, may_fetch: bool) -> list[Item]:
    """The driver modules for /lib as .py items (their source in `workdir`); in a dry
    run (not `may_fetch`), one not in the cache is an Item named but not fetched."""
    folder = mpy_fetch.cache_dir()
    items = []
    for name, module in DRIVERS:
        pin = read_pin(source, name)
        rel = f"{TARGET_LIB_DIR}/{module}"
        wheel = cached(pin, folder)
        if wheel is None and not may_fetch:
            note(f"--dry-run fetches nothing: {pin.label} is not in {folder} yet"
                 f" (a deploy fetches it from {json_url(pin)})")
            items.append(Item(rel, folder, fetch=f"{pin.label}'s {module}"))
            continue
        if wheel is None:
            try:
                wheel = fetch(pin, folder)
            except mpy_fetch.FetchFailed as e:
                raise DeployError(
                    f"cannot fetch {pin.label} for the board's /lib ({_reason(e)}), and it is"
                    f" not in {folder} yet; nothing was changed: connect once (it is kept"
                    f" there) or set {PYPI_ENV} to a mirror") from None
        src = workdir / module
        src.parent.mkdir(parents=True, exist_ok=True)
        data = module_of(wheel, module, pin)
        src.write_bytes(data)
        items.append(Item(rel, src, data))
    return items
