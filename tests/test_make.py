"""The Makefile's own front door: `make` and `make help` list every target a person runs,
and do nothing else; `make test-fast` leaves out only what it names, all of it there;
`make test` (which .ci/run calls) still runs every test."""

import os
import re
import shutil
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAKE = shutil.which("make")
pytestmark = pytest.mark.skipif(MAKE is None, reason="no make on this computer")

with open(os.path.join(REPO, "Makefile"), encoding="utf-8") as _f:
    MAKEFILE = _f.read()
# Steps other targets call, not run by hand.
INNER = ("check-python", "sim-env", "test-env", "web-env", "lock-env", "web-deps",
         "browser-deps")


def make(*args, **kwargs):
    return subprocess.run([MAKE, "--no-print-directory", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=60, **kwargs)


def variable(name):
    """The words of a `NAME := ...` of the Makefile, continuation lines joined."""
    found = re.search(r"^%s := ((?:.*\\\n)*.*)$" % name, MAKEFILE, re.M)
    assert found, name
    return found.group(1).replace("\\\n", " ").split()


def phony():
    found = re.search(r"^\.PHONY: ((?:.*\\\n)*.*)$", MAKEFILE, re.M)
    return found.group(1).replace("\\\n", " ").split()


def test_plain_make_is_make_help_and_runs_nothing_else():
    plain, help_ = make(), make("help")
    assert plain.returncode == help_.returncode == 0 and plain.stderr == ""
    assert plain.stdout == help_.stdout
    # Nothing but the listing is run (a virtualenv built would show here).
    commands = make("-n").stdout.replace("\\\n", " ").splitlines()
    assert len(commands) == 1 and commands[0].startswith("awk ")


def test_help_lists_every_target_a_person_runs_once_with_its_note():
    lines = make("help").stdout.splitlines()
    assert lines[0].startswith("make TARGET")
    listed = [line.split()[1] for line in lines[1:]]
    assert all(line.startswith("  make ") and len(line.split()) > 2 for line in lines[1:])
    wanted = [t for t in phony() if t not in INNER]
    assert sorted(listed) == sorted(wanted)
    assert "test-fast" in listed and "sim" in listed and "help" in listed
    sim = [line for line in lines if line.split()[1] == "sim"][0]
    assert 'ARGS="--tracks 3"' in sim


def test_help_ends_quietly_when_its_reader_stops_early():
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    try:
        run = subprocess.run([MAKE, "--no-print-directory"], cwd=REPO, stdout=write,
                             stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write)
    assert run.returncode == 0 and run.stderr == ""


def test_test_fast_leaves_out_only_what_it_names_and_all_of_it_is_there():
    files, tests = variable("FAST_SKIP_FILES"), variable("FAST_SKIP_TESTS")
    assert files and tests
    for path in files:
        assert os.path.isfile(os.path.join(REPO, path)), path
    for node in tests:
        path, name = node.split("::")
        with open(os.path.join(REPO, path), encoding="utf-8") as f:
            assert re.search(r"^def %s\(" % re.escape(name), f.read(), re.M), node
    command = make("-n", "test-fast").stdout.splitlines()
    command = " ".join(line.rstrip("\\") for line in command[command.index(
        [c for c in command if "bin/pytest" in c][0]):])
    assert '-m "not slow"' in command
    assert re.findall(r"--ignore=(\S+)", command) == files
    assert re.findall(r"--deselect=(\S+)", command) == tests


def test_make_test_runs_every_test():
    assert re.search(r"^test: lint typecheck pytest\b", MAKEFILE, re.M)
    command = [line for line in make("-n", "pytest").stdout.splitlines() if "bin/pytest" in line]
    assert command == [".venv-test/bin/pytest -q"]
    with open(os.path.join(REPO, ".ci", "run"), encoding="utf-8") as f:
        assert f.read().rstrip().endswith("make test")
