"""tools/deploy.py putting Adafruit's neopixel in the board's /lib: the wheel the
repository's requirements/sim.txt pins, from the cache or from a local stand-in for
PyPI (nothing reaches the internet), checked against the pinned sha256."""

from __future__ import annotations

import hashlib
import json

import pytest
from deploy_fakes import (
    MANIFEST, NEOPIXEL, NEOPIXEL_FILE, NEOPIXEL_JSON, NEOPIXEL_SHA, NEOPIXEL_SOURCE,
    NEOPIXEL_VERSION, NEOPIXEL_WHEEL, NEOPIXEL_WHEEL_NAME, REAL_REPO, SIM_TXT, assert_refused,
    build_wheel, cache_neopixel, compiled_files, drivers, expected_files, fake_compiled, files_of,
    make_drive, run, snapshot, written,
)

# The fixtures (repo, mnt, mpy_cross, pypi) are in tests/conftest.py. The cache starts
# empty here: no neopixel_cached.
pytestmark = pytest.mark.usefixtures("no_internet")

LABEL = f"{NEOPIXEL} {NEOPIXEL_VERSION}"
MPY = "lib/neopixel.mpy"


def cache_of(tmp_path) -> dict[str, bytes]:
    folder = tmp_path / "cache"
    return {p.name: p.read_bytes() for p in folder.iterdir()} if folder.exists() else {}


# --- the pin ------------------------------------------------------------------------

def test_the_real_lock_pins_neopixel():
    pin = drivers.read_pin(REAL_REPO, NEOPIXEL)
    assert (pin.name, pin.version) == ("adafruit-circuitpython-neopixel", "6.4.2")
    assert len(pin.hashes) >= 1
    assert all(len(h) == 64 and set(h) <= set("0123456789abcdef") for h in pin.hashes)


def test_pins_are_read_as_pip_compile_writes_them():
    pins = drivers.parse_pins(SIM_TXT.decode())
    assert pins[NEOPIXEL] == drivers.Pin(NEOPIXEL, "6.4.2", (NEOPIXEL_SHA, "c" * 64))
    assert pins["sysv-ipc"].version == "1.2.0"  # after its marker, the hash still counts
    # Names compare as pip compares them; a pin with no hash is no pin for the deploy.
    text = "Adafruit_CircuitPython.NeoPixel[extra]==6.4.2  # a comment\nother==1.0\n"
    assert drivers.parse_pins(text)[NEOPIXEL] == drivers.Pin(NEOPIXEL, "6.4.2", ())


@pytest.mark.parametrize(
    "text,words",
    [(None, ["cannot read", "requirements/sim.txt", "No such file"]),
     (b"adafruit-blinka==10.0.0 \\\n    --hash=sha256:" + b"1" * 64 + b"\n",
      ["requirements/sim.txt pins no adafruit-circuitpython-neopixel==VERSION"]),
     (b"adafruit-circuitpython-neopixel==6.4.2\n", ["--hash=sha256:"]),
     (b"adafruit-circuitpython-neopixel>=6.4.2 \\\n    --hash=sha256:" + b"1" * 64 + b"\n",
      ["pins no"])],
    ids=["no lock", "no pin", "no hash", "not pinned"])
def test_a_repository_that_does_not_pin_neopixel_is_refused(repo, mnt, text, words, capsys):
    lock = repo / "requirements" / "sim.txt"
    if text is None:
        lock.unlink()
    else:
        lock.write_bytes(text)
    drive = make_drive(mnt)
    before = snapshot(drive)
    assert run(repo, drive) == 2
    assert_refused(capsys, *words)
    assert snapshot(drive) == before


# --- from PyPI, once ------------------------------------------------------------------

def test_a_first_deploy_fetches_the_pinned_wheel_and_the_next_uses_the_cache(
        repo, mnt, mpy_cross, pypi, tmp_path, capsys):
    pypi.serve_neopixel()
    drive = make_drive(mnt)
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert pypi.requests == [NEOPIXEL_JSON, NEOPIXEL_FILE]
    lines = captured.out.splitlines()
    kept = tmp_path / "cache" / NEOPIXEL_WHEEL_NAME
    assert lines[1:4] == [
        f"Fetching {LABEL}'s files from {pypi.root}{NEOPIXEL_JSON}",
        f"Fetching {LABEL}: {pypi.root}{NEOPIXEL_FILE}",
        f"  kept as {kept}"]
    assert cache_of(tmp_path) == {NEOPIXEL_WHEEL_NAME: NEOPIXEL_WHEEL}

    # Exactly the compiled firmware and neopixel, compiled by the same mpy-cross.
    expected = compiled_files(expected_files())
    assert expected[MPY] == fake_compiled("lib/neopixel.py", NEOPIXEL_SOURCE)
    on_drive = files_of(drive)
    assert on_drive == {**expected, "boot_out.txt": on_drive["boot_out.txt"],
                        MANIFEST: on_drive[MANIFEST]}
    listed = json.loads(on_drive[MANIFEST])["files"]
    assert listed[MPY] == hashlib.sha256(expected[MPY]).hexdigest()
    assert written(captured.out)[-2:] == [MPY, "code.py"]

    # PyPI gone: the next deploy, to another board, takes the wheel from the cache.
    pypi.close()
    other = make_drive(mnt, name="CIRCUITPY1")
    assert run(repo, other, "--mpy-cross", str(mpy_cross)) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "Fetching" not in captured.out
    assert pypi.requests == [NEOPIXEL_JSON, NEOPIXEL_FILE]
    assert files_of(other)[MPY] == expected[MPY]


def test_py_deploys_neopixel_py(repo, mnt, pypi, tmp_path):
    pypi.serve_neopixel()
    drive = make_drive(mnt)
    assert run(repo, drive) == 0  # run() adds --py
    on_drive = files_of(drive)
    assert on_drive["lib/neopixel.py"] == NEOPIXEL_SOURCE and MPY not in on_drive
    assert set(on_drive) == set(expected_files()) | {"boot_out.txt", MANIFEST}
    assert cache_of(tmp_path) == {NEOPIXEL_WHEEL_NAME: NEOPIXEL_WHEEL}


def test_a_cached_wheel_that_is_not_the_pinned_one_is_fetched_again(repo, mnt, pypi, tmp_path):
    pypi.serve_neopixel()
    cache_neopixel(tmp_path / "cache").write_bytes(b"PK\x03\x04 cut short")
    drive = make_drive(mnt)
    assert run(repo, drive) == 0
    assert pypi.requests == [NEOPIXEL_JSON, NEOPIXEL_FILE]
    assert cache_of(tmp_path) == {NEOPIXEL_WHEEL_NAME: NEOPIXEL_WHEEL}
    assert files_of(drive)["lib/neopixel.py"] == NEOPIXEL_SOURCE


# --- refused: nothing written ------------------------------------------------------------

def test_a_wheel_that_is_not_the_pinned_one_is_refused(repo, mnt, pypi, tmp_path, capsys):
    """PyPI's JSON names the pinned sha256, and the file served is another."""
    other = build_wheel({"neopixel.py": b"import os\nos.remove('code.py')\n"})
    pypi.serve_neopixel(wheel=other)
    drive = make_drive(mnt)
    before = snapshot(drive)
    assert run(repo, drive) == 2
    assert capsys.readouterr().err == (
        f"deploy: the wheel from {pypi.root}{NEOPIXEL_FILE} is not {LABEL} as"
        f" requirements/sim.txt pins it (its sha256 is {hashlib.sha256(other).hexdigest()});"
        " it was not kept, and nothing was changed\n")
    assert snapshot(drive) == before
    assert cache_of(tmp_path) == {}


def test_a_release_whose_wheel_is_not_pinned_is_refused(repo, mnt, pypi, tmp_path, capsys):
    pypi.serve_neopixel(digest="d" * 64)
    drive = make_drive(mnt)
    before = snapshot(drive)
    assert run(repo, drive) == 2
    assert_refused(capsys, f"cannot fetch {LABEL} for the board's /lib",
                   f"{pypi.root}{NEOPIXEL_JSON} lists no wheel whose sha256"
                   f" requirements/sim.txt pins (its wheels': {'d' * 64})")
    assert pypi.requests == [NEOPIXEL_JSON]
    assert snapshot(drive) == before and cache_of(tmp_path) == {}


@pytest.mark.parametrize(
    "serve,reason",
    [(None, f"{NEOPIXEL_JSON} is not there (HTTP 404)"),
     (500, "answered HTTP 500"),
     (b"<html>a captive portal</html>", "does not answer as PyPI's JSON API does")],
    ids=["not found", "500", "not json"])
def test_pypi_without_the_release_is_refused(repo, mnt, pypi, tmp_path, serve, reason, capsys):
    if serve is not None:
        pypi.files[NEOPIXEL_JSON] = serve
    drive = make_drive(mnt)
    before = snapshot(drive)
    assert run(repo, drive) == 2
    err = assert_refused(capsys, f"cannot fetch {LABEL} for the board's /lib", reason,
                         f"it is not in {tmp_path / 'cache'} yet; nothing was changed")
    assert err.endswith(f"set {drivers.PYPI_ENV} to a mirror\n")
    assert snapshot(drive) == before and cache_of(tmp_path) == {}


def test_offline_with_no_wheel_in_the_cache_is_refused(repo, mnt, tmp_path, capsys):
    drive = make_drive(mnt)  # no_internet: PyPI is a closed local port
    before = snapshot(drive)
    assert run(repo, drive) == 2
    err = assert_refused(capsys)
    assert err.startswith(f"deploy: cannot fetch {LABEL} for the board's /lib (cannot reach"
                          " http://127.0.0.1:")
    assert err.endswith(f"), and it is not in {tmp_path / 'cache'} yet; nothing was changed:"
                        f" connect once (it is kept there) or set {drivers.PYPI_ENV} to a"
                        " mirror\n")
    assert snapshot(drive) == before


# --- a dry run fetches nothing -------------------------------------------------------------

@pytest.mark.parametrize("py", [False, True], ids=["mpy", "py"])
def test_a_dry_run_fetches_nothing_and_says_what_it_would(repo, mnt, mpy_cross, pypi, tmp_path,
                                                          py, capsys):
    pypi.serve_neopixel()
    drive = make_drive(mnt)
    before = snapshot(drive)
    extra = [] if py else ["--mpy-cross", str(mpy_cross)]
    assert run(repo, drive, "--dry-run", *extra) == 0
    assert pypi.requests == [] and cache_of(tmp_path) == {}
    assert snapshot(drive) == before
    captured = capsys.readouterr()
    assert captured.err == (
        f"note: --dry-run fetches nothing: {LABEL} is not in {tmp_path / 'cache'} yet"
        f" (a deploy fetches it from {pypi.root}{NEOPIXEL_JSON})\n")
    rel = "lib/neopixel.py" if py else MPY
    assert (f"  would fetch and write {rel} (from {LABEL}'s neopixel.py)"
            in captured.out.splitlines())
    # With the wheel in the cache, the dry run names what it would write, and its size.
    cache_neopixel(tmp_path / "cache")
    assert run(repo, drive, "--dry-run", *extra) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and pypi.requests == []
    data = NEOPIXEL_SOURCE if py else fake_compiled("lib/neopixel.py", NEOPIXEL_SOURCE)
    assert f"  would write {rel} ({len(data)} bytes)" in captured.out.splitlines()


# --- a neopixel the deploy did not write --------------------------------------------------

def test_a_neopixel_py_circup_put_there_is_never_left_hiding_the_mpy(repo, mnt, mpy_cross,
                                                                     tmp_path, capsys):
    """circup's lib/neopixel.py is not on the manifest: CircuitPython would import it
    before the .mpy, so the deploy stops and says what to do; circup's .mpy is
    replaced, as any unlisted file where the firmware goes."""
    cache_neopixel(tmp_path / "cache")
    drive = make_drive(mnt)
    (drive / "lib").mkdir()
    (drive / "lib" / "neopixel.py").write_bytes(b"# circup's neopixel 6.3.0\n")
    before = snapshot(drive)
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 2
    err = assert_refused(capsys)
    assert err.startswith("deploy: lib/neopixel.py on the target is not as a deploy wrote it,"
                          " and CircuitPython would import it instead of its .mpy; nothing was"
                          " changed. Copy off the drive")
    assert snapshot(drive) == before

    (drive / "lib" / "neopixel.py").unlink()
    (drive / "lib" / "neopixel.mpy").write_bytes(b"C\x06circup's")
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 0
    assert files_of(drive)[MPY] == fake_compiled("lib/neopixel.py", NEOPIXEL_SOURCE)
