"""`python -m engine discard`: every choice best first, JSON with the exact fractions, bad
input refused with the reason (exit 2), and docs/discard.md's example as printed.
"""

import json
import os
import subprocess
import sys

import pytest

from worked_hands import THREE, THREE_CRIB, THREE_HAND, WORKED, WORKED_CRIB
from test_engine_cli import PIPE_CLOSED, into_closed_pipe

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --- python -m engine discard -----------------------------------------------------

def run_discard(*args):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "engine", "discard"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", env=env, timeout=60)


def test_cli_prints_every_choice_best_first():
    run = run_discard(*WORKED.split())
    assert run.returncode == 0 and run.stderr == ""
    lines = run.stdout.splitlines()
    assert lines[0] == "5H 5D JS 6C 4D KH: 2 players, your crib"
    assert lines[1].split() == ["lay", "away", "keep", "hand", "crib", "expected"]
    assert lines[2].split() == ["JS", "KH", "5H", "5D", "6C", "4D", "15.96", "3.97", "19.93"]
    assert lines[16].split() == ["5H", "5D", "JS", "6C", "4D", "KH", "1.96", "8.79", "10.75"]
    assert (len(lines) == 19 and "45,540 deals" in lines[17]
            and lines[18] == "expected = hand + crib")
    pone = run_discard(*WORKED.split(), "--pone").stdout.splitlines()
    assert pone[0].endswith("their crib") and pone[2].split()[-1] == "11.99"
    assert pone[-1] == "expected = hand - crib"


def test_cli_json_has_the_exact_fractions():
    run = run_discard("--json", "--players", "3", *THREE.split())
    data = json.loads(run.stdout)
    assert data["players"] == 3 and data["own_crib"] is True and data["variant"] == "standard"
    assert data["starters"] == 47 and data["deals"] == 713460
    best = data["choices"][0]
    assert best["laid"] == ["JS"] and best["kept"] == ["5H", "5D", "6C", "4D"]
    assert best["exact"] == {"hand": str(THREE_HAND), "crib": str(THREE_CRIB),
                             "expected": str(THREE_HAND + THREE_CRIB)}
    assert best["expected"] == pytest.approx(float(THREE_HAND + THREE_CRIB))
    assert [c["expected"] for c in data["choices"]] == sorted(
        [c["expected"] for c in data["choices"]], reverse=True)
    two = json.loads(run_discard(*WORKED.split(), "--json", "--dealer").stdout)
    assert len(two["choices"]) == 15
    assert two["choices"][0]["exact"]["crib"] == str(WORKED_CRIB)
    five = json.loads(run_discard("5H", "5D", "JS", "6C", "4D", "--variant=five-card",
                                  "--json").stdout)
    assert five["variant"] == "five-card" and len(five["choices"]) == 10


@pytest.mark.parametrize("args, message", [
    (["5H", "5D", "JS", "6C", "4D"], "error: give the 6 cards dealt (standard, 2 players), not 5"),
    (["5H", "5D", "JS", "6C", "4D", "6X"], "error: bad card '6X': unknown suit 'X'"),
    (["5H", "5D", "JS", "6C", "4D", "KH", "--variant", "shotgun"],
     "error: shotgun has no crib: all 6 cards are kept, none laid away"),
    (["5H", "5D", "JS", "6C", "4D", "--players", "3", "--variant", "five-card"],
     "error: five-card: 2 players"),
    (["5H", "5D", "JS", "6C", "4D", "KH", "--players", "5"],
     "error: --players is 2, 3 or 4, not 5"),
    (["5H", "5D", "JS", "6C", "4D", "KH", "--players"], "error: --players needs a value"),
    (["5H", "5D", "JS", "6C", "4D", "KH", "--variant", "bridge"],
     "error: --variant is one of standard, five-card, seven-card, shotgun, lowball, not bridge"),
    (["5H", "5D", "JS", "6C", "4D", "KH", "--dealer", "--pone"],
     "error: give --dealer or --pone, not both"),
    (["5H", "5D", "JS", "6C", "4D", "KH", "--crib"], "error: unknown option --crib"),
    ([], "error: discard needs the cards dealt"),
])
def test_cli_bad_input_exits_2_with_the_reason(args, message):
    run = run_discard(*args)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines()[-1] == message


def test_count_still_refuses_the_discard_options():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    run = subprocess.run([sys.executable, "-m", "engine", "count", "4C", "5D", "5H", "6S", "KC",
                          "--pone"], cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 2 and run.stderr.endswith("error: unknown option --pone\n")
    run = subprocess.run([sys.executable, "-m", "engine", "--help"], cwd=ROOT, capture_output=True,
                         text=True, env=env, timeout=60)
    assert "python -m engine discard" in run.stdout and "--players N" in run.stdout


def test_the_documented_example_is_what_the_tool_prints():
    with open(os.path.join(ROOT, "docs", "discard.md"), encoding="utf-8") as f:
        text = f.read()
    example = text[text.index("$ python -m engine discard"):]
    example = example[:example.index("```")].splitlines()
    run = run_discard(*example[0].split()[5:])
    printed = run.stdout.splitlines()
    shown = [line for line in example[1:] if line.strip() != "..."]
    assert shown == [line for line in printed if line in shown]
    assert shown[:6] == printed[:6] and shown[-3:] == printed[-3:]


def test_the_exact_values_are_written_as_fractions_write_them():
    from fractions import Fraction
    from engine.discard import fraction_text
    for n, d in ((367, 23), (-734, 46), (0, 97290), (14, 7), (-14, 7), (5, 1), (97289, 97290)):
        assert fraction_text(n, d) == str(Fraction(n, d)), (n, d)


@pytest.mark.parametrize("args", [WORKED.split(), WORKED.split() + ["--json"]])
def test_a_reader_that_stops_early_ends_the_advice_quietly(args):
    run = into_closed_pipe(["-m", "engine", "discard"] + args)
    assert run.stderr == "" and run.returncode == PIPE_CLOSED
