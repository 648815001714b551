"""tools/deploy.py refusing: wrong targets, links leading outside, read-only and full
drives, a read-back that differs; and finding the drive by itself.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

import pytest
from deploy_fakes import (
    MANIFEST, assert_refused, boot_out, drives, files_of, make_drive, planning, run, snapshot,
    sources, writing,
)

# The fixtures (repo, mnt) are in tests/conftest.py.
pytestmark = pytest.mark.usefixtures("no_internet", "neopixel_cached")


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
    assert capsys.readouterr().err == f"deploy: --target {mnt / 'nope'}: no such folder\n"
    # A file is not said to be missing: it is said to be a file.
    assert run(repo, mnt / "outside.txt") == 2
    assert capsys.readouterr().err == (
        f"deploy: --target {mnt / 'outside.txt'} is a file; give the drive's folder"
        " (where it is mounted, e.g. /media/me/CIRCUITPY)\n")
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
    real_write = writing._write_temp
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
    # The list claims the new files and keeps what the old ones were: the old lib/app.py
    # and code.py left on the drive are a deploy's, not the maker's edits.
    listed = json.loads(now[MANIFEST])
    assert listed["earlier"] == {rel: [hashlib.sha256(old[rel]).hexdigest()]
                                 for rel in ("code.py", "engine/rules.py", "lib/app.py")}
    # Once there is room again, the next run finishes the job. (Not monkeypatch.undo():
    # it would take back no_internet's settings too.)
    monkeypatch.setattr(writing, "_write_temp", real_write)
    assert run(repo, drive) == 0
    assert files_of(drive)["code.py"] == b"NEW = 3\n"
    assert "earlier" not in json.loads(files_of(drive)[MANIFEST])


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
