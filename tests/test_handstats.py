"""tools/handstats.py: the exact distribution of all 12,994,800 deals, and its counting
checked deal by deal against the engine's score_hand."""

import json
import re
import os
import subprocess
import sys

import pytest

from engine import parse_card
from engine.cards import rank_of
from engine.show import IMPOSSIBLE_TOTALS, score_hand
from tools import handstats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HANDS = [1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236,
         361224, 388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0, 8068,
         2496, 444, 356, 3680, 0, 0, 0, 76, 4]
# The cribs' table, which the tool first produced, agrees with dealing all
# 12,994,800 deals through score_hand one by one (a run of about 80 s, done once).
CRIBS = [1022208, 99792, 2839800, 508908, 2868960, 703496, 1787176, 755320, 1118336,
         358368, 378240, 43880, 310956, 16548, 88132, 9072, 57288, 11196, 2264, 0, 7828,
         2472, 444, 356, 3680, 0, 0, 0, 76, 4]


@pytest.fixture(scope="module")
def table():
    return handstats.distribution()


def test_hands_table(table):
    hands, _ = table
    assert hands == HANDS
    assert sum(hands) == 12994800 == handstats.DEALS
    assert round(handstats.mean(hands), 6) == 4.769152


def test_cribs_table(table):
    _, cribs = table
    assert cribs == CRIBS
    assert sum(cribs) == 12994800
    assert cribs[0] == 1022208
    assert round(handstats.mean(cribs), 6) == 4.734819
    # a crib only loses the 4-card flush, so it never beats a hand's best
    assert cribs[28:] == [76, 4] and cribs[24] == 3680


def test_the_scores_never_made_are_the_impossible_ones(table):
    hands, cribs = table
    assert [s for s in range(30) if not hands[s]] == list(IMPOSSIBLE_TOTALS)
    assert [s for s in range(30) if not cribs[s]] == list(IMPOSSIBLE_TOTALS)


def brute_force(starter_text):
    """Every hand of 4 from the other 51 cards with this starter, by score_hand."""
    starter = parse_card(starter_text)
    deck = [c for c in range(52) if c != starter]
    hands = [0] * 30
    cribs = [0] * 30
    n = len(deck)
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    hand = [deck[a], deck[b], deck[c], deck[d]]
                    hands[score_hand(hand, starter)] += 1
                    cribs[score_hand(hand, starter, True)] += 1
    return hands, cribs


@pytest.mark.parametrize("starter", ["JH", "5C"])
def test_the_counting_by_shapes_matches_dealing_every_hand(starter):
    # The suits are symmetric: one starter card is a quarter of its rank's deals.
    # A jack starter (no nobs possible) and a 5 (nobs, flushes, the most fifteens).
    hands, cribs = brute_force(starter)
    want_hands, want_cribs = handstats.distribution([rank_of(parse_card(starter))])
    assert [4 * n for n in hands] == want_hands
    assert [4 * n for n in cribs] == want_cribs


def test_the_table_printed():
    run = subprocess.run([sys.executable, "tools/handstats.py"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[0].split() == ["score", "hands", "cribs"]
    assert lines[1].split() == ["0", "1009008", "1022208"]
    assert lines[30].split() == ["29", "4", "4"]
    assert lines[31].split() == ["total", "12994800", "12994800"]
    assert lines[32].split() == ["mean", "4.769152", "4.734819"]
    assert "never scored: 19, 25, 26, 27" in run.stdout


def test_the_table_as_json():
    run = subprocess.run([sys.executable, "tools/handstats.py", "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    data = json.loads(run.stdout)
    assert data["hand"] == HANDS and data["deals"] == 12994800
    assert data["hand_mean"] == 4.769152 and data["crib_mean"] == 4.734819
    assert data["crib"][0] == 1022208 and data["seconds"] >= 0


def test_bad_arguments():
    assert handstats.main(["--bogus"]) == 2


# --- tools/bench.py: the figures are printed (speed is never asserted) ---------------

def test_bench_prints_every_figure(capsys):
    from tools import bench
    assert bench.main(["--deals", "300", "--mp-counts", "20", "--mp-runs", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"engine score_hand +\d+ counts/s", out)
    assert re.search(r"naive reference +\d+ counts/s", out)
    assert re.search(r"engine / naive +[\d.]+x +target >= 10x: (PASS|MISS)", out)
    assert re.search(r"exact table, 12994800 deals .*: [\d.]+ s +target <= 1 s: (PASS|MISS)", out)
    assert re.search(r"score_hand +\d+ fuel +[\d.]+ ms", out)
    assert re.search(r"score_show +\d+ fuel +[\d.]+ ms", out)
