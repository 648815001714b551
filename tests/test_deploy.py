"""tools/deploy.py against fake repositories and fake drives in tmp folders.

Its refusals and finding the drive: tests/test_deploy_refusals.py; --uf2 and boot_out.txt:
tests/test_deploy_uf2.py; compiling to .mpy: tests/test_deploy_mpy.py.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest
from deploy_fakes import (
    MANIFEST, NEOPIXEL_SOURCE, OLD_DRIVER_FILES, REAL_REPO, REPO_FILES, TOOL, boot_out, deploy,
    drives, expected_files, files_of, lay_out_earlier_deploy, make_drive, real_firmware, run,
    snapshot, writing, written,
)

# neopixel.py as an earlier deploy wrote it from an older wheel.
OLD_NEOPIXEL = b"import adafruit_pixelbuf\nclass NeoPixel: pass\n"

# The fixtures (repo, mnt) are in tests/conftest.py.
pytestmark = pytest.mark.usefixtures("no_internet", "neopixel_cached")


# --- a normal deploy ----------------------------------------------------------

def test_deploys_exactly_the_firmware_code_last(repo, mnt, capsys):
    drive = make_drive(mnt)
    (drive / "my_notes.txt").write_text("mine\n")
    outside_before = {k: v for k, v in snapshot(mnt).items() if not k.startswith("CIRCUITPY")}
    repo_before = snapshot(repo)

    assert run(repo, drive) == 0
    out = capsys.readouterr().out

    expected = expected_files()
    on_drive = files_of(drive)
    assert set(on_drive) == set(expected) | {"boot_out.txt", "my_notes.txt", MANIFEST}
    for rel, data in expected.items():
        assert on_drive[rel] == data, rel
    assert on_drive["my_notes.txt"] == b"mine\n"
    assert on_drive["boot_out.txt"] == boot_out().encode()
    manifest = json.loads(on_drive[MANIFEST])["files"]
    assert manifest == {rel: hashlib.sha256(d).hexdigest() for rel, d in expected.items()}

    order = written(out)
    assert set(order) == set(expected) and len(order) == len(expected)
    assert order[-3:] == ["font5x8.bin", "lib/neopixel.py", "code.py"]
    assert (order.index("engine/rules.py") < order.index("boards/raspberry_pi_pico.py")
            < order.index("lib/app.py"))
    # The target, the files written, the check and the summary: the wheel is in the cache.
    lines = out.splitlines()
    assert lines[0] == f"Target: {drive} (CircuitPython 9.2.1, board raspberry_pi_pico)"
    assert [line for line in lines[1:] if not line.startswith("  wrote ")] == [
        f"Verified {len(expected)} file(s) on the target.", lines[-1]]
    assert lines[-1].startswith("Summary: ")
    assert "Verified" in out and f"wrote {len(expected)} file(s)" in out
    assert "free on the target" in out

    outside_after = {k: v for k, v in snapshot(mnt).items() if not k.startswith("CIRCUITPY")}
    assert outside_after == outside_before
    assert snapshot(repo) == repo_before
    assert not [p for p in drive.rglob("*") if p.name.endswith(writing.TEMP_SUFFIX)]


def test_second_run_writes_nothing(repo, mnt, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive) == 0
    before = snapshot(drive)
    capsys.readouterr()
    assert run(repo, drive) == 0
    out = capsys.readouterr().out
    assert written(out) == []
    assert "wrote 0 file(s)" in out and f"{len(expected_files())} unchanged" in out
    assert snapshot(drive) == before


def test_only_changed_files_are_written(repo, mnt, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive) == 0
    (repo / "lib" / "app.py").write_bytes(b"def run():\n    return 1\n")
    capsys.readouterr()
    assert run(repo, drive) == 0
    assert written(capsys.readouterr().out) == ["lib/app.py"]
    assert (drive / "lib" / "app.py").read_bytes() == b"def run():\n    return 1\n"


@pytest.mark.parametrize(
    "version,board",
    [("10.0.3", "raspberry_pi_pico_w"), ("9.0.0-beta.2", "raspberry_pi_pico2"),
     ("10.1.0", "raspberry_pi_pico")],
)
def test_accepts_circuitpython_9_and_10_and_each_board(repo, mnt, version, board, capsys):
    drive = make_drive(mnt, text=boot_out(version, board))
    assert run(repo, drive) == 0
    assert board in capsys.readouterr().out
    assert (drive / "code.py").read_bytes() == REPO_FILES["code.py"]


def test_stale_files_removed_user_files_kept(repo, mnt, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive) == 0
    (drive / "lib" / "mine.py").write_text("# the user's own\n")
    (drive / "settings.toml").write_text("X=1\n")
    (repo / "engine" / "extra.py").unlink()
    (repo / "lib" / "ui" / "screen.py").unlink()
    (repo / "lib" / "ui" / "__init__.py").unlink()
    capsys.readouterr()
    assert run(repo, drive) == 0
    out = capsys.readouterr().out
    assert "deleted engine/extra.py" in out
    assert not (drive / "engine" / "extra.py").exists()
    assert not (drive / "lib" / "ui").exists()  # emptied folder goes too
    assert (drive / "lib" / "mine.py").read_text() == "# the user's own\n"
    assert (drive / "settings.toml").read_text() == "X=1\n"
    assert (drive / "lib" / "app.py").read_bytes() == REPO_FILES["lib/app.py"]
    manifest = json.loads((drive / MANIFEST).read_text())["files"]
    assert "engine/extra.py" not in manifest and "lib/ui/screen.py" not in manifest
    assert "deleted 3 " in out


def test_stale_file_edited_on_the_board_is_left_alone(repo, mnt, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive) == 0
    (drive / "engine" / "extra.py").write_text("X = 2  # edited on the board\n")
    (repo / "engine" / "extra.py").unlink()
    assert run(repo, drive) == 0
    assert (drive / "engine" / "extra.py").read_text() == "X = 2  # edited on the board\n"
    assert "changed there" in capsys.readouterr().err
    assert "engine/extra.py" not in json.loads((drive / MANIFEST).read_text())["files"]


def test_a_firmware_file_edited_on_the_drive_is_never_overwritten(repo, mnt, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive) == 0
    # The maker edits two files on the drive; the repository changes one of them.
    (drive / "boards" / "raspberry_pi_pico.py").write_text("STRIP_PIN = 'GP5'  # mine\n")
    (drive / "code.py").write_text("import lib.app\n")
    (repo / "boards" / "raspberry_pi_pico.py").write_text("STRIP_PIN = 'GP1'\n")
    before = snapshot(drive)
    capsys.readouterr()
    assert run(repo, drive) == 2
    assert capsys.readouterr().err == (
        "deploy: boards/raspberry_pi_pico.py, code.py were changed on the target since a"
        " deploy wrote them; nothing was changed. Copy off the drive what you want to keep"
        " (what a maker tunes goes in settings.toml: README, Parts and wiring), delete it"
        " there, then run deploy again\n")
    assert snapshot(drive) == before
    assert run(repo, drive, "--dry-run") == 2  # a dry run says the same
    assert capsys.readouterr().err.startswith("deploy: boards/raspberry_pi_pico.py, code.py")
    # Done as it says: the deploy goes on, and writes the repository's.
    (drive / "boards" / "raspberry_pi_pico.py").unlink()
    (drive / "code.py").unlink()
    assert run(repo, drive) == 0
    assert (drive / "boards" / "raspberry_pi_pico.py").read_text() == "STRIP_PIN = 'GP1'\n"
    assert (drive / "code.py").read_bytes() == REPO_FILES["code.py"]


def test_an_edit_the_repository_already_has_is_no_conflict(repo, mnt, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive) == 0
    for root in (drive, repo):
        (root / "engine" / "extra.py").write_text("X = 3\n")
    capsys.readouterr()
    assert run(repo, drive) == 0
    assert written(capsys.readouterr().out) == []


def test_manifest_paths_outside_the_target_are_never_deleted(repo, mnt, capsys):
    drive = make_drive(mnt)
    victim = mnt / "outside.txt"
    digest = hashlib.sha256(victim.read_bytes()).hexdigest()
    listed = {"../outside.txt": digest, "/etc/passwd": "x"}
    (drive / MANIFEST).write_text(json.dumps({"files": listed}))
    assert run(repo, drive) == 0
    assert victim.exists()


def test_dry_run_writes_nothing(repo, mnt, capsys):
    drive = make_drive(mnt)
    before = snapshot(drive)
    assert run(repo, drive, "--dry-run") == 0
    out = capsys.readouterr().out
    assert snapshot(drive) == before
    assert "would write code.py" in out and "nothing was written" in out
    assert written(out) == []

    assert run(repo, drive) == 0
    (repo / "engine" / "extra.py").unlink()
    (repo / "engine" / "rules.py").write_text("CHANGED = 1\n")
    before = snapshot(drive)
    capsys.readouterr()
    assert run(repo, drive, "--dry-run") == 0
    out = capsys.readouterr().out
    assert snapshot(drive) == before
    assert "would delete engine/extra.py" in out and "would write engine/rules.py" in out
    assert "would write code.py" not in out


def test_missing_font_is_noted_not_fatal(repo, mnt, capsys):
    (repo / "font5x8.bin").unlink()
    drive = make_drive(mnt)
    assert run(repo, drive) == 0
    assert "font5x8.bin is missing" in capsys.readouterr().err
    assert (drive / "code.py").exists() and not (drive / "font5x8.bin").exists()


# --- the driver libraries an earlier deploy put in /lib ---------------------------

def test_driver_libraries_an_earlier_deploy_copied_are_deleted(repo, mnt, capsys):
    """A drive as the deploy left it while the firmware used Adafruit's SSD1306 driver:
    the firmware, an older neopixel, and adafruit_ssd1306 and adafruit_framebuf in
    /lib, all on its manifest. The next deploy deletes those two, says so, and writes
    only the pinned neopixel over the old one; a library in /lib the deploy did not
    write stays."""
    drive = make_drive(mnt)
    earlier = {**REPO_FILES, "lib/neopixel.py": OLD_NEOPIXEL, **OLD_DRIVER_FILES}
    lay_out_earlier_deploy(drive, earlier)
    (drive / "lib" / "adafruit_display_text.py").write_text("# installed by hand\n")

    assert run(repo, drive) == 0
    out = capsys.readouterr().out
    for rel in sorted(OLD_DRIVER_FILES):
        assert f"  deleted {rel}\n" in out
    assert written(out) == ["lib/neopixel.py"]
    sizes = sum(len(data) for data in OLD_DRIVER_FILES.values())
    assert (f"wrote 1 file(s) ({len(NEOPIXEL_SOURCE)} bytes), deleted 2 ({sizes} bytes),"
            f" {len(REPO_FILES)} unchanged" in out)
    on_drive = files_of(drive)
    assert on_drive["lib/neopixel.py"] == NEOPIXEL_SOURCE
    assert set(on_drive) == set(expected_files()) | {
        "boot_out.txt", MANIFEST, "lib/adafruit_display_text.py"}
    assert json.loads(on_drive[MANIFEST])["files"].keys() == expected_files().keys()

    # A dry run on such a drive says what it would delete and write, and does neither.
    lay_out_earlier_deploy(drive, earlier)
    before = snapshot(drive)
    assert run(repo, drive, "--dry-run") == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("  would ")] == [
        f"  would delete {rel} ({len(OLD_DRIVER_FILES[rel])} bytes)"
        for rel in sorted(OLD_DRIVER_FILES)] + [
        f"  would write lib/neopixel.py ({len(NEOPIXEL_SOURCE)} bytes)"]
    assert snapshot(drive) == before


# --- command line, in a separate process ---------------------------------------------

def test_subprocess_refusal_is_one_line_and_exit_2(repo, mnt):
    drive = mnt / "USBSTICK"
    drive.mkdir()
    result = subprocess.run(
        [sys.executable, str(TOOL), "--source", str(repo), "--target", str(drive)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and "not a CIRCUITPY drive" in result.stderr
    assert list(drive.iterdir()) == []


def test_subprocess_deploy_and_help(repo, mnt):
    drive = make_drive(mnt)
    result = subprocess.run(
        [sys.executable, str(TOOL), "--source", str(repo), "--target", str(drive)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert (drive / "code.py").read_bytes() == REPO_FILES["code.py"]
    help_text = subprocess.run(
        [sys.executable, str(TOOL), "--help"], capture_output=True, text=True, timeout=60
    )
    assert help_text.returncode == 0
    for option in ("--target", "--dry-run", "--mpy-cross", "--source", "--uf2"):
        assert option in help_text.stdout
    assert "--lib-path" not in help_text.stdout  # no driver libraries to look for
    for option in ("--frobnicate", "--lib-path"):
        bad = subprocess.run(
            [sys.executable, str(TOOL), option, str(repo)], capture_output=True, text=True,
            timeout=60,
        )
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
        assert f"unrecognized arguments: {option}" in bad.stderr


@pytest.mark.parametrize(
    "name,label,ok",
    [("CIRCUITPY", "CIRCUITPY", True), ("CIRCUITPY1", "CIRCUITPY", True),
     ("CIRCUITPY 2", "CIRCUITPY", True), ("circuitpy", "CIRCUITPY", True),
     ("CIRCUITPYTHON", "CIRCUITPY", False), ("RPI-RP2", "RPI-RP2", True),
     ("RP2350", "RPI-RP2", False)],
)
def test_drive_names(name, label, ok):
    assert drives.label_matches(name, label) is ok


# --- the real repository ---------------------------------------------------------------
# Its firmware, copied with the fake lock (real_firmware): the wheel the real lock pins
# is on PyPI, which no test reaches. test_the_real_lock_pins_neopixel reads that pin.

def repo_modules(folder: str, leave_out: str | None = None) -> set[str]:
    """The repository's .py files under `folder` as board paths, __main__.py (never
    run by CircuitPython) and `leave_out` (a subfolder) left out."""
    found = set()
    for path in (REAL_REPO / folder).rglob("*.py"):
        rel = path.relative_to(REAL_REPO).as_posix()
        if "__pycache__" in rel or path.name == "__main__.py":
            continue
        if leave_out and rel.startswith(leave_out + "/"):
            continue
        found.add(rel)
    return found


def test_the_real_firmware_replaces_an_old_flat_lib_on_a_pico2_w(mnt, tmp_path, capsys):
    """engine/, boards/ (without boards/sim/), lib/cribbage/, font5x8.bin, the pinned
    neopixel and code.py (last) go on the board, and nothing else; what an earlier
    deploy put in /lib (the app as lib/app.py, lib/ui.py ..., the SSD1306 driver) is
    removed by the manifest, its neopixel replaced, and the user's own files stay."""
    drive = make_drive(mnt, text=boot_out("10.0.3", "raspberry_pi_pico2_w"))
    old = {
        "lib/__init__.py": b"",
        "lib/app.py": b"import store\n",
        "lib/ui.py": b"import entry\n",
        "lib/store.py": b"LOG = 1\n",
        "lib/entry.py": b"import ui\n",
        "lib/adafruit_pixelbuf.py": b"class PixelBuf: pass\n",
        "lib/adafruit_bus_device/__init__.py": b"",
        "lib/adafruit_bus_device/i2c_device.py": b"class I2CDevice: pass\n",
        "lib/neopixel.py": OLD_NEOPIXEL,
        **OLD_DRIVER_FILES,
        "code.py": b"import lib.app\n",
    }
    lay_out_earlier_deploy(drive, old)
    (drive / "lib" / "my_library.py").write_text("MINE = 1\n")
    (drive / "settings.toml").write_text("CRIBBAGE_TRACKS = 3\n")

    source = real_firmware(tmp_path)
    assert deploy.main(["--source", str(source), "--target", str(drive), "--py"]) == 0
    out = capsys.readouterr().out
    assert "board raspberry_pi_pico2_w" in out

    firmware = (repo_modules("engine") | repo_modules("boards", leave_out="boards/sim")
                | repo_modules("lib/cribbage") | {"font5x8.bin", "code.py"})
    assert "boards/raspberry_pi_pico2_w.py" in firmware and "engine/__main__.py" not in firmware
    expected = firmware | {"lib/neopixel.py"}
    on_drive = files_of(drive)
    assert (set(on_drive)
            == expected | {"boot_out.txt", MANIFEST, "lib/my_library.py", "settings.toml"})
    for rel in firmware:
        assert on_drive[rel] == (REAL_REPO / rel).read_bytes(), rel
    assert not (drive / "boards" / "sim").exists()
    assert not (drive / "lib" / "adafruit_bus_device").exists()
    assert on_drive["lib/neopixel.py"] == NEOPIXEL_SOURCE
    assert sorted(p.name for p in (drive / "lib").iterdir()) == [
        "cribbage", "my_library.py", "neopixel.py"]
    for rel in old:
        if rel not in ("code.py", "lib/neopixel.py"):
            assert f"deleted {rel}\n" in out
    assert written(out)[-1] == "code.py"
    assert json.loads(on_drive[MANIFEST])["files"].keys() == expected


# A settings.toml with a byte-order mark before its first line (as some Windows
# editors write), a value out of range, a word the board does not know, a misspelt
# key and one the board takes.
FAULTY_SETTINGS = ("\ufeffCRIBBAGE_TRACKS = 3\nCRIBBAGE_BRIGHTNESS = 9\nCRIBBAGE_LAYOUT = zigzag\n"
                   "CRIBBAGE_COLOURS = 1\nCRIBBAGE_CURRENT_BUDGET_MA = 1800\n").encode()


def test_the_deploy_says_what_the_board_will_say_of_settings_toml_and_leaves_it(mnt, tmp_path,
                                                                               capsys):
    from firmware import Table
    drive = make_drive(mnt, text=boot_out("10.0.3"))
    (drive / "settings.toml").write_bytes(FAULTY_SETTINGS)
    source = real_firmware(tmp_path)
    assert deploy.main(["--source", str(source), "--target", str(drive), "--py",
                        "--dry-run"]) == 0
    err = capsys.readouterr().err
    board = Table(settings=FAULTY_SETTINGS).board
    said = board.settings.problems + board.settings.unknown()
    assert said == [
        "settings.toml: CRIBBAGE_TRACKS? hidden by a byte-order mark: using 2",
        "settings.toml: CRIBBAGE_LAYOUT=zigzag? using straight",
        "settings.toml: CRIBBAGE_BRIGHTNESS=9? using 3",
        "settings.toml: CRIBBAGE_COLOURS? no such setting",
    ]
    assert err == "".join(f"note: {line} (as the board will say at start)\n" for line in said)
    assert board.config.CURRENT_BUDGET_MA == 1800
    assert (drive / "settings.toml").read_bytes() == FAULTY_SETTINGS
    # A settings.toml the board takes whole: not a word.
    (drive / "settings.toml").write_text("CRIBBAGE_TRACKS = 3\nCIRCUITPY_SAFE_MODE_DELAY = 0\n")
    assert deploy.main(["--source", str(source), "--target", str(drive), "--py",
                        "--dry-run"]) == 0
    assert capsys.readouterr().err == ""
