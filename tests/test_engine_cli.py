"""python -m engine count ...: run as a player would, in a subprocess."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def count(*args):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "engine", "count"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", env=env, timeout=60)


def test_count_prints_the_breakdown_and_total():
    run = count("4C", "5D", "5H", "6S", "KC")
    assert run.returncode == 0 and run.stderr == ""
    lines = run.stdout.splitlines()
    assert lines[0] == "4C 5D 5H 6S | KC"
    assert [line.split()[0] for line in lines[1:-1]] == ["fifteen"] * 4 + ["pair"] + ["run"] * 2
    assert lines[-1] == ("  total 16: fifteen two, fifteen four, fifteen six, fifteen eight, "
                         "a pair is ten, a run of three is thirteen, a run of three is sixteen")
    assert "  pair     5H 5D               2" in lines


def test_count_json():
    run = count("5H", "5D", "5S", "JC", "5C", "--json")
    assert run.returncode == 0
    data = json.loads(run.stdout)
    assert data["total"] == 29 and data["starter"] == "5C" and data["crib"] is False
    assert data["hand"] == ["5H", "5D", "5S", "JC"]
    assert sum(item["points"] for item in data["items"]) == 29
    assert data["items"][-1] == {"kind": "nobs", "cards": ["JC"], "points": 1}
    assert data["spoken"].endswith("one for his nobs is twenty-nine")


def test_count_crib_needs_a_five_card_flush():
    hand = count("2H", "4H", "6H", "8H", "QS", "--json")
    crib = count("2H", "4H", "6H", "8H", "QS", "--crib", "--json")
    assert json.loads(hand.stdout)["total"] == 4
    assert json.loads(crib.stdout)["total"] == 0 and json.loads(crib.stdout)["crib"] is True
    assert "(crib)" in count("2H", "4H", "6H", "8H", "QS", "--crib").stdout


def test_count_reads_any_spelling():
    run = count("q\u2660", "10d", "5h", "5c", "Js", "--json")
    assert json.loads(run.stdout)["hand"] == ["QS", "10D", "5H", "5C"]


def test_count_a_five_card_games_three_card_hand():
    run = count("5S", "5H", "JD", "5C", "--json")  # J5 three times, 555, a pair royal
    data = json.loads(run.stdout)
    assert run.returncode == 0 and data["hand"] == ["5S", "5H", "JD"] and data["total"] == 14
    assert json.loads(count("5S", "5H", "5D", "5C", "--json").stdout)["total"] == 20
    lines = count("2H", "3H", "4H", "AS").stdout.splitlines()
    assert lines[0] == "2H 3H 4H | AS" and lines[-1].startswith("  total 7: ")


def test_a_crib_is_four_cards():
    run = count("5S", "5H", "JD", "5C", "--crib")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == "error: a crib is 4 cards and the starter, not 4 cards\n"


def test_count_five_and_six_card_hands():
    assert json.loads(count("5S", "5H", "5D", "5C", "JS", "KS", "--json").stdout)["total"] == 37
    assert (json.loads(count("2H", "3H", "4H", "5H", "6H", "7H", "8H", "--json").stdout)["total"]
            == 28)


@pytest.mark.parametrize("args, message", [
    (["4C", "5D", "5H", "6X", "KC"], "'6X'"),
    (["4C", "5D", "5H", "4c", "KC"], "duplicate card 4C"),
    (["4C", "5D", "KC"], "give 3 to 6 cards and then the starter, not 3 cards"),
    (["4C", "5D", "5H", "6S", "7S", "8S", "9S", "10S"], "not 8 cards"),
    (["1C", "5D", "5H", "6S", "KC"], "'1C'"),
])
def test_bad_input_goes_to_stderr_with_exit_code_2(args, message):
    run = count(*args)
    assert run.returncode == 2
    assert run.stdout == ""
    assert message in run.stderr and run.stderr.startswith("error: ")


def test_no_command_is_a_usage_error():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    run = subprocess.run([sys.executable, "-m", "engine"], cwd=ROOT, capture_output=True,
                         text=True, env=env, timeout=60)
    assert run.returncode == 2 and "usage" in run.stderr and run.stdout == ""


def test_help_and_unknown_options():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    run = subprocess.run([sys.executable, "-m", "engine", "--help"], cwd=ROOT,
                         capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0 and run.stdout.startswith("usage: python -m engine count")
    run = count("--bogus", "4C", "5D", "5H", "6S", "KC")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.endswith("error: unknown option --bogus\n")


def test_a_forgotten_starter_is_said_how_the_cards_were_read():
    run = count("5H", "5C", "5S", "JD")  # a 4-card hand, its starter forgotten
    assert run.returncode == 0 and run.stdout.splitlines()[0] == "5H 5C 5S | JD"
    assert run.stderr == ("note: counted 5H 5C 5S as a 3-card hand (five-card) with JD as the "
                          "starter; a 4-card hand needs its starter after it\n")
    run = count("5H", "5C", "5S", "JD", "4H", "6H", "--json")
    assert json.loads(run.stdout)["starter"] == "6H"
    assert run.stderr == ("note: counted 5H 5C 5S JD 4H as a 5-card hand (seven-card) with 6H as "
                          "the starter; a 6-card hand needs its starter after it\n")
    seven = count("5H", "5C", "5S", "JD", "4H", "6H", "7H")
    assert seven.stderr == ("note: counted 5H 5C 5S JD 4H 6H as a 6-card hand (shotgun) with 7H "
                            "as the starter\n")
    assert count("5H", "5C", "5S", "JD", "KC").stderr == ""  # a standard hand: nothing to say


def test_a_one_for_the_ace_is_told_to_write_a():
    run = count("5H", "5C", "1s", "JD", "KC")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == "error: bad card '1s': A for ace, as in AS\n"


def into_closed_pipe(argv, buffered=True):
    """Run `argv` with its output a pipe whose reader has gone, as `| head` leaves
    it once it has its lines (here before the first, so every run meets it)."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    env.pop("PYTHONUNBUFFERED", None)
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable] + list(argv), cwd=ROOT, stdout=write,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    finally:
        os.close(write)


# A Unix tool whose reader stops early ends quietly; a shell shows 128 + SIGPIPE.
PIPE_CLOSED = 128 + 13


@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.parametrize("args", [["count", "4C", "5D", "5H", "6S", "KC"],
                                  ["count", "4C", "5D", "5H", "6S", "KC", "--json"]])
def test_a_reader_that_stops_early_ends_the_count_quietly(args, buffered):
    run = into_closed_pipe(["-m", "engine"] + args, buffered)
    assert run.stderr == "" and run.returncode == PIPE_CLOSED


def test_a_closed_pipe_still_lets_a_refusal_through():
    run = into_closed_pipe(["-m", "engine", "count", "4C", "5D", "6X", "6S", "KC"])
    assert run.returncode == 2
    assert run.stderr == "error: bad card '6X': unknown suit 'X'\n"
