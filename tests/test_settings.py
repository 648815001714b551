"""settings.toml as the board reads it: one parser, quoted or bare, never fatal.

Every malformed value below once stopped the board before the OLED said anything
(CircuitPython's os.getenv raises ValueError for a bare word and UnicodeDecodeError
for a byte that is not UTF-8) or was taken silently; now each is said at boot and
the setting takes its default.
"""

import pytest

from boards import hardware
from boards import settings as board_settings
from boards.sim import board as sim

from firmware import Table

PICO = sim.build().config
NEW_BOARD = "no saved game: new game"  # what an erased flash says at the start


def parse(text):
    return board_settings.parse(text if isinstance(text, bytes) else text.encode())


@pytest.mark.parametrize("written", ["three", "2.5", "", "false", '"1', '"3" 4'])
def test_a_value_that_cannot_be_read_is_said_and_the_default_taken(written):
    settings = parse("CRIBBAGE_TRACKS = %s  # strips\n" % written)
    assert hardware.track_count(PICO, settings) == 2
    assert settings.problems == ["settings.toml: CRIBBAGE_TRACKS=%s? using 2" % written]


def test_a_line_that_is_not_utf8_is_said_not_fatal():
    settings = parse(b"CRIBBAGE_COLORS = \"r\xe9d\"\nCRIBBAGE_TRACKS = 3\n")
    assert hardware.track_count(PICO, settings) == 3
    assert settings.number("CRIBBAGE_COLORS", 0, 0, 2) == 0
    assert settings.problems == ["settings.toml: CRIBBAGE_COLORS=<not UTF-8>? using 0"]


@pytest.mark.parametrize("tracks", ["1", "0", "-2", "4"])
def test_tracks_are_two_or_three(tracks):
    settings = parse("CRIBBAGE_TRACKS = %s\n" % tracks)
    assert hardware.track_count(PICO, settings) == 2
    assert settings.problems == ["settings.toml: CRIBBAGE_TRACKS=%s? using 2" % tracks]


@pytest.mark.parametrize("text, value", [
    ("3", 3), ('"3"', 3), ("2", 2), ('"2" # two strips', 2), ("  3  ", 3), ("3\r", 3)])
def test_quoted_or_bare_the_same(text, value):
    settings = parse("CRIBBAGE_TRACKS = %s\n" % text)
    assert hardware.track_count(PICO, settings) == max(value, 2)
    assert settings.problems == []


@pytest.mark.parametrize("text, on", [
    ("0", False), ('"0"', False), ("off", False), ('"OFF"', False), ("false", False), ("no", False),
    ("1", True), ("on", True), ('"true"', True), ("yes", True)])
def test_the_watchdog_switch(text, on):
    hw = sim.build(settings="CRIBBAGE_WATCHDOG = %s\n" % text)
    hw.feed_watchdog()
    assert (hw.watchdog.mode is not None, hw.watchdog_feeds) == (on, 1 if on else 0)
    assert hw.settings.problems == []


def test_a_watchdog_word_it_does_not_know_leaves_it_on_and_says_so():
    hw = sim.build(settings="CRIBBAGE_WATCHDOG = maybe\n")
    assert hw.watchdog.mode == "WatchDogMode.RESET"
    assert hw.settings.problems == ["settings.toml: CRIBBAGE_WATCHDOG=maybe? using on"]


def test_keys_after_a_table_are_not_root_keys_and_comments_are_not_keys():
    settings = parse('# CRIBBAGE_TRACKS = 1\nCRIBBAGE_TRACKS = 3\n[wifi]\nCRIBBAGE_COLORS = 9\n')
    assert hardware.track_count(PICO, settings) == 3
    assert settings.values == {"CRIBBAGE_TRACKS": ("3", "3")}


def test_a_quoted_value_keeps_its_escapes():
    settings = parse('CRIBBAGE_NOTE = "a \\"b\\" \\\\ c" # comment\n')
    assert settings.values == {"CRIBBAGE_NOTE": ('"a \\"b\\" \\\\ c"', 'a "b" \\ c')}
    assert settings.unknown() == ["settings.toml: CRIBBAGE_NOTE? no such setting"]


# --- keyed on the sim board: the OLED says it at boot, and the board runs ------

def test_a_bad_tracks_value_is_on_the_oled_at_boot_and_the_board_plays():
    t = Table(settings="CRIBBAGE_TRACKS = 1\n")
    assert len(t.board.tracks) == 2
    assert t.oled()[4:7] == ["settings.toml:", "CRIBBAGE_TRACKS=1?", "using 2"]
    t.keys("12B")
    assert t.scores == [0, 12] and t.led(1, 12) == (0, 0, 38)
    assert t.oled()[4] == "B+12 pegged"


@pytest.mark.parametrize("text, problem", [
    ("CRIBBAGE_BRIGHTNESS = 0", "CRIBBAGE_BRIGHTNESS=0? using 3"),
    ("CRIBBAGE_BRIGHTNESS = 6", "CRIBBAGE_BRIGHTNESS=6? using 3"),
    ("CRIBBAGE_BRIGHTNESS = -1", "CRIBBAGE_BRIGHTNESS=-1? using 3"),
    ("CRIBBAGE_COLORS = 3", "CRIBBAGE_COLORS=3? using 0"),
    ("CRIBBAGE_COLORS = -1", "CRIBBAGE_COLORS=-1? using 0"),
])
def test_lights_out_of_range_are_said_and_the_default_lights_the_pegs(text, problem):
    t = Table(settings=text + "\n")
    assert t.app.ctrl.detail == ["settings.toml: " + problem, NEW_BOARD]
    t.keys("12A")
    assert t.led(0, 12) == (38, 0, 0)  # brightness 3 of 5, red: the defaults


def test_quoted_brightness_is_honoured_like_a_bare_one():
    quoted = Table(settings='CRIBBAGE_BRIGHTNESS = "2"\n').keys("12A")
    bare = Table(settings="CRIBBAGE_BRIGHTNESS = 2\n").keys("12A")
    assert quoted.led(0, 12) == bare.led(0, 12) == (25, 0, 0)  # 255 * 2/5 * 0.25
    assert quoted.board.settings.problems == [] and quoted.board.settings.unknown() == []


def test_tracks_quoted_three_gives_three_tracks():
    t = Table(settings='CRIBBAGE_TRACKS = "3"\n')
    assert len(t.board.tracks) == 3


def test_a_misspelt_setting_is_said():
    t = Table(settings="CRIBBAGE_BRIGHTNES = 2\n")
    assert t.app.ctrl.detail == ["settings.toml: CRIBBAGE_BRIGHTNES? no such setting", NEW_BOARD]
