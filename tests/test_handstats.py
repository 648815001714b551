"""tools/handstats.py: the exact distribution of all 12,994,800 deals, and its counting
checked deal by deal against the engine's score_hand; the caps of every hand size,
counted over every deal, equal to engine/rules.py's table."""

import json
import re
import os
import subprocess
import sys

import pytest

from engine import limits, make_config, parse_card, parse_cards, peg_points
from engine.cards import rank_of
from engine.rules import MAX_PLAY_PEG, is_impossible
from engine.rules import VARIANT_NAMES
from engine.show import score_hand
from tools import handstats
from test_engine_cli import PIPE_CLOSED, into_closed_pipe

IMPOSSIBLE_TOTALS = limits(make_config()).impossible_hand
HAND_SIZES = handstats.HAND_SIZES

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


def padded(counts):
    """A table to scores 0..29 (a table ends at the highest score it counted)."""
    return counts + [0] * (30 - len(counts))


def brute_force(starter_text, size=4):
    """Every hand of `size` from the other 51 cards with this starter, by score_hand."""
    starter = parse_card(starter_text)
    deck = [c for c in range(52) if c != starter]
    hands = [0] * 30
    cribs = [0] * 30

    def deal(hand, low):
        if len(hand) == size:
            hands[score_hand(hand, starter)] += 1
            cribs[score_hand(hand, starter, True)] += 1
            return
        for i in range(low, len(deck)):
            deal(hand + [deck[i]], i + 1)

    deal([], 0)
    return hands, cribs


@pytest.mark.parametrize("starter", ["JH", "5C"])
def test_the_counting_by_shapes_matches_dealing_every_hand(starter):
    # The suits are symmetric: one starter card is a quarter of its rank's deals.
    # A jack starter (no nobs possible) and a 5 (nobs, flushes, the most fifteens).
    hands, cribs = brute_force(starter)
    want_hands, want_cribs = [padded(t)
                              for t in handstats.distribution([rank_of(parse_card(starter))])]
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


def test_the_counting_by_shapes_matches_dealing_every_three_card_hand():
    for starter in ("JH", "5C"):
        hands, _ = brute_force(starter, 3)
        want, cribs = handstats.distribution([rank_of(parse_card(starter))], size=3)
        assert cribs is None  # a crib is 4 cards
        assert [4 * n for n in hands] == padded(want)


def test_bad_arguments():
    assert handstats.main(["--bogus"]) == 2
    assert handstats.main(["--cards", "7"]) == 2
    assert handstats.main(["--cards"]) == 2


def test_help_exits_0_with_the_usage():
    run = subprocess.run([sys.executable, "tools/handstats.py", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.startswith("usage: python tools/handstats.py [--cards N | --caps] [--json]")
    assert handstats.main(["-h"]) == 0


def test_a_three_card_table_printed(capsys):
    assert handstats.main(["--cards", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["score", "hands"]
    assert lines[21].split() == ["20", "4"]  # 5 5 5 | 5, one starter each way
    assert lines[22].split() == ["total", "1082900"]
    assert "never scored: 16, 17, 18, 19" in lines


# --- the caps of every hand size, counted over every deal ----------------------------

@pytest.fixture(scope="module")
def caps():
    return handstats.caps()


def test_every_deal_of_every_size_is_counted_once(caps):
    table, _ = caps
    assert sorted(table) == list(HAND_SIZES)
    for size in HAND_SIZES:
        assert table[size]["deals"] == handstats.deals(size)
    assert handstats.deals(3) == 22100 * 49 and handstats.deals(6) == 20358520 * 46


def test_the_engines_caps_table_is_the_counted_one(caps):
    table, (peg, pile, bound) = caps
    # every hand size is some variant's: the engine's table is the counted one
    assert HAND_SIZES == [3, 4, 5, 6]
    for size in HAND_SIZES:
        row = table[size]
        for total in range(row["max_hand"] + 10):
            assert is_impossible(total, size) == (total in row["impossible_hand"]
                                                  or total > row["max_hand"])
            assert is_impossible(total, size, crib=True) == (total in row["impossible_crib"]
                                                             or total > row["max_crib"])
    assert (table[4]["max_crib"], table[4]["impossible_crib"]) == (29, [19, 25, 26, 27])
    assert peg == bound == MAX_PLAY_PEG == 14 and peg_points(pile) == 14
    counted = handstats.variant_caps(table, peg)
    for variant, name in enumerate(VARIANT_NAMES):
        assert limits(make_config(variant=variant)) == counted[name], name
    assert [counted[name].max_peg for name in VARIANT_NAMES] == [29, 29, 46, 72, 29]
    assert counted["shotgun"].max_crib == 0 and counted["shotgun"].impossible_crib == ()


def test_the_caps_report(caps):
    table, play = caps
    text = handstats.caps_report(table, play, 0.0)
    assert "    6    936491920       72  53, 55, 61, 64, 65, 67, 68, 69, 71" in text
    assert " crib     12994800       29  19, 25, 26, 27" in text
    assert "seven-card  highest single peg 46" in text
    assert "engine/rules.py agrees with this table" in text


def test_a_double_pair_royal_to_31_is_the_most_one_card_pegs():
    assert peg_points(parse_cards("KC KD 7C AS AH AD AC".split())) == 14
    assert peg_points(parse_cards("5H 6S AH AS AD AC".split())) == 14


@pytest.mark.parametrize("size", [5, 6])
def test_random_bigger_hands_never_score_an_impossible_total(size):
    # a sample only: the proof is the count above; this catches a table that
    # does not fit the scorer at all
    import random
    rng = random.Random(size)
    for _ in range(3000):
        cards = rng.sample(range(52), size + 1)
        assert not is_impossible(score_hand(cards[:-1], cards[-1]), size)


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


@pytest.mark.parametrize("args", [["--json"], []])
def test_a_reader_that_stops_early_ends_the_table_quietly(args):
    run = into_closed_pipe(["tools/handstats.py"] + args)
    assert run.stderr == "" and run.returncode == PIPE_CLOSED
