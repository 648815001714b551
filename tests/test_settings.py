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


# --- a byte-order mark: CircuitPython's reader does not see the first line's key ---
# (shared-module/os/getenv.c compares the key from the line's first byte), so the
# board does not take it either, and says so.

BOM = b"\xef\xbb\xbf"


def test_a_key_behind_a_byte_order_mark_is_not_taken_and_said_with_the_value_used():
    t = Table(settings=BOM + b"CRIBBAGE_TRACKS = 3\nCRIBBAGE_BRIGHTNESS = 2\n")
    assert len(t.board.tracks) == 2
    assert t.app.ctrl.detail == [
        "settings.toml: CRIBBAGE_TRACKS? hidden by a byte-order mark: using 2", NEW_BOARD]
    t.keys("12A")
    assert t.led(0, 12) == (25, 0, 0)  # the second line is read: brightness 2


def test_circuitpythons_own_key_behind_a_byte_order_mark_is_said_too():
    settings = parse(BOM + b"CIRCUITPY_WIFI_SSID = \"home\"\nCRIBBAGE_TRACKS = 3\n")
    assert hardware.track_count(PICO, settings) == 3
    assert settings.problems == []
    assert settings.unknown() == ["settings.toml: CIRCUITPY_WIFI_SSID? hidden by a byte-order mark"]


@pytest.mark.parametrize("first", [b"# my settings", b"", b"   ", b"# CRIBBAGE_TRACKS = 3"])
def test_a_byte_order_mark_before_no_key_hides_nothing_and_says_nothing(first):
    settings = parse(BOM + first + b"\nCRIBBAGE_TRACKS = 3\n")
    assert hardware.track_count(PICO, settings) == 3
    assert settings.problems == [] and settings.unknown() == []


def test_a_key_behind_a_byte_order_mark_and_again_below_is_read_below():
    settings = parse(BOM + b"CRIBBAGE_TRACKS = 2\nCRIBBAGE_TRACKS = 3\n")
    assert hardware.track_count(PICO, settings) == 3  # as os.getenv finds it: the first it sees
    assert settings.problems == [] and settings.unknown() == []


# --- what a maker tunes: settings.toml keys, never the board config ---------------

def test_every_tuned_value_comes_from_settings_toml():
    hw = sim.build(settings=(
        "CRIBBAGE_LAYOUT = serpentine\nCRIBBAGE_ROW_LENGTH = 40\nCRIBBAGE_COLOR_ORDER = rgb\n"
        'CRIBBAGE_OLED_ADDRESS = "0x3d"\nCRIBBAGE_I2C_KHZ = 100\nCRIBBAGE_BRIGHTNESS_CAP = 50\n'
        "CRIBBAGE_CURRENT_BUDGET_MA = 1800\n"))
    assert hw.settings.problems == [] and hw.settings.unknown() == []
    c = hw.config
    assert (c.LAYOUT, c.ROW_LENGTH, c.COLOR_ORDER, c.OLED_ADDRESS, c.I2C_FREQUENCY,
            c.BRIGHTNESS_CAP, c.CURRENT_BUDGET_MA) == (
        "serpentine", 40, "RGB", 0x3D, 100_000, 0.5, 1800)
    assert c.module.LAYOUT == "straight" and c.module.OLED_ADDRESS == 0x3C  # the file as it was
    assert hw.hole_map[40] == 79  # hole 41 starts the second row of 40, wired back
    assert hw.i2c.frequency == 100_000
    hw.write_strip(0, [0x010203] * 121)
    assert hw.strip_bytes(0)[:3] == bytes((1, 2, 3))  # RGB: as given


def test_the_tuned_values_reach_the_pegs_on_the_sim_board():
    t = Table(settings="CRIBBAGE_COLOR_ORDER = RGB\nCRIBBAGE_BRIGHTNESS_CAP = 50\n"
                       "CRIBBAGE_LAYOUT = reversed\n")
    t.keys("12A")
    # 255 * 3/5 * 0.5 = 76, red first on the wire, hole 12 at LED 121 - 12.
    assert t.board.strip_bytes(0)[3 * 109:3 * 110] == bytes((76, 0, 0))
    assert t.led(0, 12) == (76, 0, 0)


def test_the_oled_answers_where_settings_toml_says():
    # A panel strapped to 0x3D: with the key the board finds it, and the game starts.
    t = Table(settings="CRIBBAGE_OLED_ADDRESS = 0x3D\n")
    assert {address for address, _ in t.board.i2c.log} == {0x3D}
    assert t.app.ctrl.detail == [NEW_BOARD]
    # Without it, the board stops at start with the serial console's one line.
    with pytest.raises(RuntimeError) as stopped:
        sim.build(oled_address=0x3D)
    assert str(stopped.value) == "no OLED answers at 0x3C on GP0/GP1: check its wiring"


@pytest.mark.parametrize("text, problem", [
    ("CRIBBAGE_LAYOUT = zigzag", "CRIBBAGE_LAYOUT=zigzag? using straight"),
    ("CRIBBAGE_ROW_LENGTH = 0", "CRIBBAGE_ROW_LENGTH=0? using 30"),
    ("CRIBBAGE_ROW_LENGTH = 122", "CRIBBAGE_ROW_LENGTH=122? using 30"),
    ("CRIBBAGE_COLOR_ORDER = GRBW", "CRIBBAGE_COLOR_ORDER=GRBW? using GRB"),
    ("CRIBBAGE_OLED_ADDRESS = 0x3E", "CRIBBAGE_OLED_ADDRESS=0x3E? using 0x3C"),
    ("CRIBBAGE_OLED_ADDRESS = 60", "CRIBBAGE_OLED_ADDRESS=60? using 0x3C"),
    ("CRIBBAGE_I2C_KHZ = 1000", "CRIBBAGE_I2C_KHZ=1000? using 400"),
    ("CRIBBAGE_BRIGHTNESS_CAP = 0", "CRIBBAGE_BRIGHTNESS_CAP=0? using 25"),
    ("CRIBBAGE_BRIGHTNESS_CAP = 0.5", "CRIBBAGE_BRIGHTNESS_CAP=0.5? using 25"),
    # Two tracks dark draw 242 + 25 (the Pico) + 20 (the OLED) = 287 mA: a budget must
    # leave something for the pegs.
    ("CRIBBAGE_CURRENT_BUDGET_MA = 287", "CRIBBAGE_CURRENT_BUDGET_MA=287? using 500"),
    ("CRIBBAGE_CURRENT_BUDGET_MA = 10001", "CRIBBAGE_CURRENT_BUDGET_MA=10001? using 500"),
])
def test_a_tuned_value_the_board_cannot_take_is_said_and_the_config_kept(text, problem):
    t = Table(settings=text + "\n")
    assert t.app.ctrl.detail == ["settings.toml: " + problem, NEW_BOARD]
    c, config = t.board.config, t.board.config.module
    assert (c.LAYOUT, c.ROW_LENGTH, c.COLOR_ORDER, c.OLED_ADDRESS, c.I2C_FREQUENCY,
            c.BRIGHTNESS_CAP, c.CURRENT_BUDGET_MA) == (
        config.LAYOUT, config.ROW_LENGTH, config.COLOR_ORDER, config.OLED_ADDRESS,
        config.I2C_FREQUENCY, config.BRIGHTNESS_CAP, config.CURRENT_BUDGET_MA)
    t.keys("12A")
    assert t.led(0, 12) == (38, 0, 0)


def test_the_lowest_budget_is_one_past_what_the_dark_board_draws():
    three = Table(tracks=3, settings="CRIBBAGE_TRACKS = 3\nCRIBBAGE_CURRENT_BUDGET_MA = 409\n")
    assert three.board.settings.problems == []
    assert hardware.dark_ma(three.board.config, 3) == 363 + 25 + 20 == 408
    three.keys("12A")
    # 1 mA left: a lit peg's 38 on one channel asks 38 * 60 / 765 = 2 mA, scaled to fit.
    assert three.app.pegs.milliamps <= 409
    lit = three.led(0, 12)
    assert 0 < lit[0] < 38 and lit[1:] == (0, 0)
    refused = Table(tracks=3, settings="CRIBBAGE_TRACKS = 3\nCRIBBAGE_CURRENT_BUDGET_MA = 408\n")
    assert refused.board.settings.problems == [
        "settings.toml: CRIBBAGE_CURRENT_BUDGET_MA=408? using 500"]


# --- README's settings.toml table is what the board reads ----------------------

def _readme_rows(header):
    """The rows of README's table that starts with ``header``, as lists of cells."""
    import os
    with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "README.md"),
              encoding="utf-8") as f:
        text = f.read()
    start = text.index(header + "\n")
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_readmes_settings_table_is_every_key_the_board_asks_with_its_default():
    from cribbage import settings as app_settings
    rows = {row[0].strip("`"): row for row in _readme_rows("| key | values | default |")}
    asked = board_settings.parse(b"")
    config = hardware.tune(PICO.module, asked, hardware.track_count(PICO.module, asked))
    lights = app_settings.Settings.from_board(asked)
    assert set(rows) == set(asked._asked)  # every key asked, and no other
    defaults = {
        "CRIBBAGE_TRACKS": hardware.DEFAULT_TRACKS, "CRIBBAGE_BRIGHTNESS": lights.brightness,
        "CRIBBAGE_COLORS": lights.palette, "CRIBBAGE_WATCHDOG": "on" if config.WATCHDOG_ON else "",
        "CRIBBAGE_LAYOUT": config.LAYOUT, "CRIBBAGE_ROW_LENGTH": config.ROW_LENGTH,
        "CRIBBAGE_COLOR_ORDER": config.COLOR_ORDER,
        "CRIBBAGE_OLED_ADDRESS": "0x%02X" % config.OLED_ADDRESS,
        "CRIBBAGE_I2C_KHZ": config.I2C_FREQUENCY // 1000,
        "CRIBBAGE_BRIGHTNESS_CAP": round(config.BRIGHTNESS_CAP * 100),
        "CRIBBAGE_CURRENT_BUDGET_MA": config.CURRENT_BUDGET_MA,
    }
    assert {key: row[2] for key, row in rows.items()} == {
        key: "`%s`" % value for key, value in defaults.items()}
    # The words for the watchdog, every one the board takes (boards/settings.py).
    words = rows["CRIBBAGE_WATCHDOG"][1]
    off, on = words.split(" leave ")[0], words.split("; ")[1].split(":")[0]
    assert off == "`0`, `off`, `false` or `no` (any case)"
    assert [w.strip("`") for w in off.replace(" or ", ", ").split(" (")[0].split(", ")] \
        == list(board_settings._OFF)
    assert [w.strip("`") for w in on.replace(" or ", ", ").split(", ")] == list(board_settings._ON)
    for word in board_settings._OFF + board_settings._ON:
        assert sim.build(settings="CRIBBAGE_WATCHDOG = %s\n" % word.upper()).settings.problems == []


def test_readmes_dark_draw_is_the_boards_own_estimate():
    import os
    with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "README.md"),
              encoding="utf-8") as f:
        text = " ".join(f.read().split())
    config = PICO.module
    two, three = hardware.dark_ma(config, 2), hardware.dark_ma(config, 3)
    assert (two, three) == (287, 408)
    assert ("(the Pico about %d mA, the OLED up to about %d mA, %d mA an LED; not measured),"
            " two tracks draw about %d mA and three about %d mA from USB's %d mA"
            % (config.PICO_MA, config.OLED_MA, config.IDLE_MA_PER_LED, two, three,
               config.CURRENT_BUDGET_MA)) in text
    assert "three tracks on USB leave about %d mA for light" % (
        (config.CURRENT_BUDGET_MA - three) // 10 * 10) in text
