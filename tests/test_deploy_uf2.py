"""tools/deploy.py --uf2: CircuitPython onto a board in its bootloader (RPI-RP2), and
reading boot_out.txt.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from deploy_fakes import assert_refused, boot_file, boot_out, deploy, drives, make_drive, snapshot

# The fixtures (repo, mnt) are in tests/conftest.py.
pytestmark = pytest.mark.usefixtures("no_internet")


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
