"""tools/deploy.py against fake repositories and fake drives in tmp folders."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from deploy_fakes import (
    MANIFEST, OLD_DRIVER_FILES, REPO_FILES, TOOL, assert_refused, boot_file, boot_out, deploy,
    drives, expected_files, files_of, lay_out_earlier_deploy, make_drive, planning, run, snapshot,
    sources, writing, written,
)

# The fixtures (repo, mnt) are in tests/conftest.py.
pytestmark = pytest.mark.usefixtures("no_internet")


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
    assert order[-1] == "code.py"
    assert order[-2] == "font5x8.bin"
    assert (order.index("engine/rules.py") < order.index("boards/raspberry_pi_pico.py")
            < order.index("lib/app.py"))
    # The target, the files written, the check and the summary: no driver libraries.
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


# --- refusals -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text,words",
    [
        ("", ["not a CIRCUITPY drive", "boot_out.txt"]),
        (boot_out("8.2.10"), ["8.2.10", "9 or newer"]),
        ("Hello there\nBoard ID:raspberry_pi_pico\n", ["cannot make sense"]),
        ("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n",
         ["Board ID"]),
        (boot_out("9.2.1", "adafruit_feather_rp2040"),
         ["adafruit_feather_rp2040", "raspberry_pi_pico, raspberry_pi_pico2, raspberry_pi_pico_w"]),
    ],
)
def test_refuses_wrong_targets_and_writes_nothing(repo, mnt, text, words, capsys):
    drive = make_drive(mnt, text=text)
    before = snapshot(mnt)
    assert run(repo, drive) == 2
    err = assert_refused(capsys, *words)
    assert "sim" not in err.split("configs")[-1]
    assert snapshot(mnt) == before


def test_board_configs(repo):
    assert (sources.board_configs(repo)
            == ["raspberry_pi_pico", "raspberry_pi_pico2", "raspberry_pi_pico_w"])
    # Without a CONFIGS list every non-sim boards/<name>.py counts as a config.
    (repo / "boards" / "__init__.py").write_text("")
    assert sources.board_configs(repo) == [
        "hardware", "raspberry_pi_pico", "raspberry_pi_pico2", "raspberry_pi_pico_w"
    ]
    (repo / "boards" / "__init__.py").unlink()
    assert "hardware" in sources.board_configs(repo)


def test_refuses_a_missing_target_and_a_source_without_code_py(repo, mnt, tmp_path, capsys):
    assert run(repo, mnt / "nope") == 2
    assert_refused(capsys, "no such folder")
    (repo / "code.py").unlink()
    assert run(repo, make_drive(mnt)) == 2
    assert_refused(capsys, "code.py")


def test_refuses_symlinks_leading_outside(repo, mnt, tmp_path, capsys):
    drive = make_drive(mnt)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (drive / "engine").symlink_to(elsewhere, target_is_directory=True)
    assert run(repo, drive) == 2
    assert_refused(capsys, "outside")
    assert list(elsewhere.iterdir()) == []
    assert not (drive / "code.py").exists() and not (drive / "lib").exists()


def fail_on(monkeypatch, err: int, after: str | None = None, partial: bool = False):
    """Make writes to the target fail with `err`: every write, or the first after
    `after` was written. With `partial`, half the data reaches the temp file first."""
    real = writing._write_temp
    seen = {"go": after is None}

    def fake(path: Path, data: bytes) -> None:
        if seen["go"]:
            if partial:
                path.write_bytes(data[: len(data) // 2])
            raise OSError(err, os.strerror(err), str(path))
        real(path, data)
        if after and path.name == f".{Path(after).name}{writing.TEMP_SUFFIX}":
            seen["go"] = True

    monkeypatch.setattr(writing, "_write_temp", fake)


def test_read_only_target(repo, mnt, monkeypatch, capsys):
    drive = make_drive(mnt)
    before = snapshot(mnt)
    fail_on(monkeypatch, errno.EROFS)
    assert run(repo, drive) == 2
    assert_refused(capsys, "read-only", "nothing was changed")
    assert snapshot(mnt) == before


def test_permission_denied_target(repo, mnt, monkeypatch, capsys):
    drive = make_drive(mnt)
    fail_on(monkeypatch, errno.EACCES)
    assert run(repo, drive) == 2
    assert_refused(capsys, "read-only")
    assert set(files_of(drive)) == {"boot_out.txt"}


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores file modes")
def test_read_only_folder_for_real(repo, mnt, capsys):
    drive = make_drive(mnt)
    drive.chmod(0o555)
    try:
        assert run(repo, drive) == 2
        assert_refused(capsys, "read-only")
        assert set(files_of(drive)) == {"boot_out.txt"}
    finally:
        drive.chmod(0o755)


def test_full_target_leaves_no_partial_file(repo, mnt, monkeypatch, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive) == 0
    old = files_of(drive)
    (repo / "engine" / "rules.py").write_text("NEW = 1\n" * 50)
    (repo / "lib" / "app.py").write_text("NEW = 2\n" * 50)
    (repo / "code.py").write_text("NEW = 3\n")
    capsys.readouterr()
    fail_on(monkeypatch, errno.ENOSPC, after="engine/rules.py", partial=True)
    assert run(repo, drive) == 2
    assert_refused(capsys, "is full", "code.py was not")
    now = files_of(drive)
    assert now["lib/app.py"] == old["lib/app.py"]  # the failed one: old content intact
    assert now["code.py"] == old["code.py"]
    assert now["engine/rules.py"] == b"NEW = 1\n" * 50
    assert not [p for p in drive.rglob("*") if p.name.endswith(writing.TEMP_SUFFIX)]
    # Once there is room again, the next run finishes the job.
    monkeypatch.undo()
    assert run(repo, drive) == 0
    assert files_of(drive)["code.py"] == b"NEW = 3\n"


def test_not_enough_free_space_is_refused_up_front(repo, mnt, monkeypatch, capsys):
    drive = make_drive(mnt)
    before = snapshot(mnt)
    usage = planning.shutil.disk_usage(drive)._replace(free=1000)
    monkeypatch.setattr(planning.shutil, "disk_usage", lambda path: usage)
    assert run(repo, drive) == 2
    assert_refused(capsys, "too full", "nothing was changed")
    assert snapshot(mnt) == before


def test_read_back_mismatch_is_reported(repo, mnt, monkeypatch, capsys):
    drive = make_drive(mnt)
    real = writing._read_back
    monkeypatch.setattr(
        writing, "_read_back", lambda p: b"garbled" if p.name == "rules.py" else real(p)
    )
    assert run(repo, drive) == 2
    assert_refused(capsys, "verification failed", "engine/rules.py")


# --- finding the drive --------------------------------------------------------


def test_finds_the_drive_by_itself(repo, tmp_path, monkeypatch, capsys):
    media = tmp_path / "media"
    monkeypatch.setattr(drives, "MOUNT_PATTERNS", (str(media) + "/*/{label}*",))
    monkeypatch.setattr(drives, "PROC_MOUNTS", str(tmp_path / "no-mounts"))
    (media / "me").mkdir(parents=True)
    (media / "me" / "USBSTICK").mkdir()
    assert run(repo, None) == 2
    assert_refused(capsys, "no CIRCUITPY drive found", "--target")

    drive = make_drive(media / "me")
    assert run(repo, None) == 0
    assert str(drive) in capsys.readouterr().out
    assert (drive / "code.py").exists()

    make_drive(media / "me", name="CIRCUITPY1")
    assert run(repo, None) == 2
    assert_refused(capsys, "several CIRCUITPY drives", "CIRCUITPY1")


def test_finds_the_drive_in_proc_mounts(tmp_path, monkeypatch):
    mount = tmp_path / "odd place" / "CIRCUITPY"
    mount.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    escaped = str(mount).replace(" ", "\\040")
    mounts.write_text(f"/dev/sda1 / ext4 rw 0 0\n/dev/sdb1 {escaped} vfat rw,nosuid 0 0\n")
    monkeypatch.setattr(drives, "MOUNT_PATTERNS", ())
    monkeypatch.setattr(drives, "PROC_MOUNTS", str(mounts))
    assert drives.find_drives("CIRCUITPY") == [mount]
    assert drives.find_drives("RPI-RP2") == []


# --- the driver libraries an earlier deploy put in /lib ---------------------------


def test_driver_libraries_an_earlier_deploy_copied_are_deleted(repo, mnt, capsys):
    """A drive as the deploy left it while the firmware used Adafruit's drivers: the
    firmware, and neopixel, adafruit_ssd1306 and adafruit_framebuf in /lib, all on its
    manifest. The next deploy deletes the drivers, says so, and writes nothing else;
    a library in /lib the deploy did not write stays."""
    drive = make_drive(mnt)
    lay_out_earlier_deploy(drive, {**REPO_FILES, **OLD_DRIVER_FILES})
    (drive / "lib" / "adafruit_display_text.py").write_text("# installed by hand\n")

    assert run(repo, drive) == 0
    out = capsys.readouterr().out
    for rel in sorted(OLD_DRIVER_FILES):
        assert f"  deleted {rel}\n" in out
    assert written(out) == []
    sizes = sum(len(data) for data in OLD_DRIVER_FILES.values())
    assert (f"wrote 0 file(s) (0 bytes), deleted 3 ({sizes} bytes), {len(REPO_FILES)} unchanged"
            in out)
    on_drive = files_of(drive)
    assert set(on_drive) == set(REPO_FILES) | {
        "boot_out.txt", MANIFEST, "lib/adafruit_display_text.py"}
    assert json.loads(on_drive[MANIFEST])["files"].keys() == REPO_FILES.keys()

    # A dry run on such a drive says what it would delete, and deletes nothing.
    lay_out_earlier_deploy(drive, {**REPO_FILES, **OLD_DRIVER_FILES})
    before = snapshot(drive)
    assert run(repo, drive, "--dry-run") == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("  would ")] == [
        f"  would delete {rel} ({len(OLD_DRIVER_FILES[rel])} bytes)"
        for rel in sorted(OLD_DRIVER_FILES)]
    assert snapshot(drive) == before


# --- UF2 ---------------------------------------------------------------------------


def uf2_bytes(blocks: int = 3, family: int = 0xE48BFF56, magic: int = 0x0A324655) -> bytes:
    out = b""
    for n in range(blocks):
        header = struct.pack("<8I", magic, 0x9E5D5157, 0x2000, 0x10000000 + 256 * n, 256, n,
                             blocks, family)
        out += header + bytes([n]) * 256 + bytes(476 - 256) + struct.pack("<I", 0x0AB16F30)
    assert len(out) == 512 * blocks
    return out


def boot_drive(parent: Path, label: str = "RPI-RP2", info: bool = True) -> Path:
    drive = parent / label
    drive.mkdir(parents=True)
    (drive / "INDEX.HTM").write_text("<html></html>")
    if info:
        model = "Raspberry Pi RP2" if label == "RPI-RP2" else "Raspberry Pi RP2350"
        (drive / "INFO_UF2.TXT").write_text(
            f"UF2 Bootloader v3.0\nModel: {model}\nBoard-ID: {label}\n")
    return drive


def test_uf2_copied_to_boot_drive(tmp_path, capsys):
    drive = boot_drive(tmp_path / "mnt")
    uf2 = tmp_path / "adafruit-circuitpython-raspberry_pi_pico-en_US-10.0.0.uf2"
    uf2.write_bytes(uf2_bytes())
    assert deploy.main(["--uf2", str(uf2), "--target", str(drive)]) == 0
    assert (drive / uf2.name).read_bytes() == uf2.read_bytes()
    out = capsys.readouterr().out
    assert "CIRCUITPY" in out and "tools/deploy.py" in out


def test_uf2_found_by_label_for_pico2(tmp_path, monkeypatch, capsys):
    media = tmp_path / "media" / "me"
    monkeypatch.setattr(drives, "MOUNT_PATTERNS", (str(tmp_path / "media") + "/*/{label}*",))
    monkeypatch.setattr(drives, "PROC_MOUNTS", str(tmp_path / "no-mounts"))
    drive = boot_drive(media, "RP2350")
    uf2 = tmp_path / "cp-pico2.uf2"
    uf2.write_bytes(uf2_bytes(family=0xE48BFF59))
    assert deploy.main(["--uf2", str(uf2)]) == 0
    assert (drive / "cp-pico2.uf2").read_bytes() == uf2.read_bytes()


def test_uf2_dry_run(tmp_path, capsys):
    drive = boot_drive(tmp_path / "mnt")
    uf2 = tmp_path / "cp.uf2"
    uf2.write_bytes(uf2_bytes())
    assert deploy.main(["--uf2", str(uf2), "--target", str(drive), "--dry-run"]) == 0
    assert not (drive / "cp.uf2").exists()


@pytest.mark.parametrize(
    "content,label,info,words",
    [
        (uf2_bytes(magic=0x12345678), "RPI-RP2", True, ["not a UF2", "magic"]),
        (b"PK\x03\x04 a zip file", "RPI-RP2", True, ["not a UF2"]),
        (uf2_bytes(), "RPI-RP2", False, ["INFO_UF2.TXT", "BOOTSEL"]),
        (uf2_bytes(family=0xE48BFF59), "RPI-RP2", True, ["RP2350", "RPI-RP2"]),
        (uf2_bytes(family=0xE48BFF56), "RP2350", True, ["built for RPI-RP2"]),
    ],
)
def test_uf2_refusals(tmp_path, content, label, info, words, capsys):
    drive = boot_drive(tmp_path / "mnt", label, info)
    uf2 = tmp_path / "firmware.uf2"
    uf2.write_bytes(content)
    before = snapshot(drive)
    assert deploy.main(["--uf2", str(uf2), "--target", str(drive)]) == 2
    assert_refused(capsys, *words)
    assert snapshot(drive) == before


def test_uf2_refuses_a_circuitpy_drive_and_missing_file(tmp_path, mnt, capsys):
    uf2 = tmp_path / "cp.uf2"
    uf2.write_bytes(uf2_bytes())
    assert deploy.main(["--uf2", str(uf2), "--target", str(make_drive(mnt))]) == 2
    assert_refused(capsys, "bootloader mode")
    assert deploy.main(["--uf2", str(tmp_path / "missing.uf2")]) == 2
    assert_refused(capsys, "no such file")


# --- boot_out.txt parsing ------------------------------------------------------------


def test_parse_boot_out():
    info = boot_file.parse_boot_out(boot_out("10.0.0-beta.2", "raspberry_pi_pico2"))
    assert info is not None
    assert info.version == (10, 0, 0) and info.version_text == "10.0.0-beta.2"
    assert info.board_id == "raspberry_pi_pico2"
    assert boot_file.parse_boot_out("") is None
    assert boot_file.parse_boot_out("\ufeff" + boot_out()).board_id == "raspberry_pi_pico"


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

REAL_REPO = TOOL.parent.parent


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


def test_the_real_firmware_replaces_an_old_flat_lib_on_a_pico2_w(mnt, capsys):
    """engine/, boards/ (without boards/sim/), lib/cribbage/, font5x8.bin and code.py
    (last) go on the board, and nothing else; what an earlier deploy put in /lib (the
    app as lib/app.py, lib/ui.py ..., the driver libraries) is removed by the
    manifest, and the user's own files stay."""
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
        **OLD_DRIVER_FILES,
        "code.py": b"import lib.app\n",
    }
    lay_out_earlier_deploy(drive, old)
    (drive / "lib" / "my_library.py").write_text("MINE = 1\n")
    (drive / "settings.toml").write_text("CRIBBAGE_TRACKS = 3\n")

    assert deploy.main(["--source", str(REAL_REPO), "--target", str(drive), "--py"]) == 0
    out = capsys.readouterr().out
    assert "board raspberry_pi_pico2_w" in out

    firmware = (repo_modules("engine") | repo_modules("boards", leave_out="boards/sim")
                | repo_modules("lib/cribbage") | {"font5x8.bin", "code.py"})
    assert "boards/raspberry_pi_pico2_w.py" in firmware and "engine/__main__.py" not in firmware
    expected = firmware
    on_drive = files_of(drive)
    assert (set(on_drive)
            == expected | {"boot_out.txt", MANIFEST, "lib/my_library.py", "settings.toml"})
    for rel in firmware:
        assert on_drive[rel] == (REAL_REPO / rel).read_bytes(), rel
    assert not (drive / "boards" / "sim").exists()
    assert not (drive / "lib" / "adafruit_bus_device").exists()
    assert sorted(p.name for p in (drive / "lib").iterdir()) == ["cribbage", "my_library.py"]
    for rel in old:
        if rel != "code.py":
            assert f"deleted {rel}\n" in out
    assert written(out)[-1] == "code.py"
    assert json.loads(on_drive[MANIFEST])["files"].keys() == expected
