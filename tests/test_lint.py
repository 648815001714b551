"""ruff's set-up (ruff.toml): the ban on modules CircuitPython lacks covers exactly the
files the deploy tool puts on the board, and every noqa says which rule and why."""

import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
import tomllib
from pathlib import Path

import pytest

from tools.deployer.sources import collect_firmware

REPO = Path(__file__).resolve().parent.parent
RUFF = shutil.which("ruff", path=os.path.dirname(sys.executable))
pytestmark = pytest.mark.skipif(RUFF is None, reason="ruff is not installed beside this Python")


def ruff(*args, stdin=None, cwd=REPO):
    return subprocess.run([RUFF, "check", "--no-cache", "--output-format", "concise", *args],
                          input=stdin, capture_output=True, text=True, cwd=cwd, timeout=60)


@pytest.mark.parametrize("source", ["import itertools\n", "from itertools import chain\n",
                                    "import functools, os\n", "from dataclasses import field\n"])
def test_an_import_circuitpython_lacks_is_refused_in_engine(source):
    run = ruff("--stdin-filename", "engine/probe.py", "-", stdin=source + "print(1)\n")
    assert run.returncode == 1
    assert "TID251" in run.stdout and "CircuitPython has no" in run.stdout, run.stdout


def test_the_same_import_passes_on_the_laptop_and_a_plain_one_on_the_board():
    for path in ("tools/probe.py", "tests/probe.py", "boards/sim/probe.py", "engine/__main__.py",
                 "web/probe.py"):
        run = ruff("--stdin-filename", path, "-", stdin="import itertools\nprint(itertools)\n")
        assert run.returncode == 0, (path, run.stdout)
    run = ruff("--stdin-filename", "engine/probe.py", "-", stdin="import os\nprint(os)\n")
    assert run.returncode == 0, run.stdout


with open(REPO / "ruff.toml", "rb") as _f:
    PENDING = {rel for rel in tomllib.load(_f)["extend-exclude"] if rel.endswith(".py")}


def _repo_py_files():
    found = []
    for root, dirs, files in os.walk(REPO):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in
                   ("__pycache__", "node_modules", "build")]
        found += [Path(root, f).relative_to(REPO).as_posix() for f in files if f.endswith(".py")]
    return sorted(found)


def test_the_ban_covers_exactly_what_goes_on_the_board(tmp_path):
    """Every .py of the repository, as `import itertools`, in a copy of its layout
    under ruff.toml: the files ruff flags are the deploy tool's firmware files
    (less the pending ones, not linted yet)."""
    shutil.copy(REPO / "ruff.toml", tmp_path / "ruff.toml")
    files = _repo_py_files()
    for rel in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("import itertools\n\nprint(itertools)\n")
    run = ruff("--select", "TID251", cwd=tmp_path)
    flagged = {line.split(":")[0] for line in run.stdout.splitlines() if "TID251" in line}
    board = {item.src.relative_to(REPO).as_posix() for item in collect_firmware(REPO)
             if item.rel.endswith(".py")}
    assert len(board) > 30 and "code.py" in board
    assert flagged == board - PENDING


def _noqa_comments():
    for rel in _repo_py_files():
        if rel in PENDING:
            continue
        with open(REPO / rel, encoding="utf-8") as f:
            tokens = tokenize.generate_tokens(io.StringIO(f.read()).readline)
            for token in tokens:
                if token.type == tokenize.COMMENT and "noqa" in token.string.lower():
                    yield rel, token.start[0], token.string


def test_every_noqa_names_its_rule_and_says_why():
    bad = [(rel, line, text) for rel, line, text in _noqa_comments()
           if not re.search(r"# noqa: [A-Z]+[0-9]+(,[A-Z]+[0-9]+)* +\S", text)]
    assert bad == []
    assert len(list(_noqa_comments())) > 10  # the walk sees them
