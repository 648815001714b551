"""Board configs, the hole -> LED layouts, and the simulated board's strips, keypad,
clock, watchdog and settings.

The simulated board runs the firmware's strip writer and SSD1306 driver (over
adafruit_bus_device) on pin- and bus-level fakes, so what these tests read is what
the strips and the OLED would receive.
The OLED and the font: tests/test_boards_oled.py; the flash: tests/test_boards_nvm.py;
the builder and code.py under MicroPython: tests/test_boards_micropython.py.
"""

import os

import pytest

import boards
from boards import hardware, layout
from boards import settings as board_settings
from boards.sim import board as sim
from boards.sim.dev import FakeClock

import digitalio  # Blinka's: after boards.sim has set it up

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICO = boards.config_for("raspberry_pi_pico")


# ---- configs ------------------------------------------------------------------

CONFIG_NAMES = (
    "TRACK_PINS", "LEDS_PER_TRACK", "COLOR_ORDER", "LAYOUT", "ROW_LENGTH",
    "I2C_SDA", "I2C_SCL", "I2C_FREQUENCY", "OLED_ADDRESS",
    "KEY_ROW_PINS", "KEY_COLUMN_PINS", "KEY_COLUMNS_TO_ANODES", "KEY_SCAN_INTERVAL_S",
    "KEY_MAX_EVENTS", "BRIGHTNESS_CAP", "CURRENT_BUDGET_MA", "LED_FULL_WHITE_MA",
    "IDLE_MA_PER_LED", "PICO_MA", "OLED_MA", "WATCHDOG_TIMEOUT_S",
)


@pytest.mark.parametrize("board_id", boards.CONFIGS)
def test_every_config_has_every_fact_and_no_pin_twice(board_id):
    config = boards.config_for(board_id)
    for name in CONFIG_NAMES:
        assert hasattr(config, name), "%s lacks %s" % (board_id, name)
    pins = (list(config.TRACK_PINS) + [config.I2C_SDA, config.I2C_SCL]
            + list(config.KEY_ROW_PINS) + list(config.KEY_COLUMN_PINS))
    assert len(pins) == len(set(pins))
    assert config.PICO_MA > 0 and config.OLED_MA > 0  # the budget counts them
    if not board_id.startswith("raspberry_pi_pico"):
        return  # another board's pins are its own (README: adding a board)
    assert all(pin.startswith("GP") and 0 <= int(pin[2:]) <= 28 for pin in pins)
    assert len(config.TRACK_PINS) == 3
    assert config.LEDS_PER_TRACK == 121
    assert config.COLOR_ORDER == "GRB"
    assert config.OLED_ADDRESS == 0x3C
    assert (config.I2C_SDA, config.I2C_SCL) == ("GP0", "GP1")  # I2C0 on the Pico
    assert config.LAYOUT in layout.LAYOUTS
    assert 0 < config.BRIGHTNESS_CAP <= 1
    assert config.CURRENT_BUDGET_MA == 500 and config.LED_FULL_WHITE_MA == 60


def test_config_for_picks_the_board_and_refuses_one_without_a_config():
    assert boards.config_for("raspberry_pi_pico").CHIP == "RP2040"
    assert boards.config_for("raspberry_pi_pico_w").CHIP == "RP2040"
    assert boards.config_for("raspberry_pi_pico2").CHIP == "RP2350"
    assert boards.config_for("raspberry_pi_pico_w").TRACK_PINS == PICO.TRACK_PINS
    # The deploy refuses such a board too (tests/test_deploy_refusals.py): the same word.
    for board_id in ("adafruit_feather_rp2040", ""):
        with pytest.raises(ValueError) as refused:
            boards.config_for(board_id)
        assert str(refused.value) == (
            "no board config for board id '%s'; boards/ has raspberry_pi_pico,"
            " raspberry_pi_pico_w, raspberry_pi_pico2, raspberry_pi_pico2_w"
            " (README: adding a board)" % board_id)


def test_every_config_file_is_named_in_configs_and_found_by_config_for():
    # README's "Adding a board": a config file, its id in CONFIGS, a branch in config_for.
    helpers = {"__init__", "hardware", "layout", "settings", "ssd1306"}
    configs = sorted(name[:-3] for name in os.listdir(os.path.join(REPO, "boards"))
                     if name.endswith(".py") and name[:-3] not in helpers)
    assert sorted(boards.CONFIGS) == configs
    for board_id in boards.CONFIGS:
        assert boards.config_for(board_id).__name__ == "boards." + board_id


def test_key_legend_is_row_major():
    assert boards.KEY_LEGEND == "123A456B789C*0#D"
    assert [boards.key_number(c) for c in "1A4*0#D"] == [0, 3, 4, 12, 13, 14, 15]
    with pytest.raises(ValueError, match="'E'"):
        boards.key_number("E")
    with pytest.raises(ValueError):
        boards.key_number("")


# ---- hole -> LED ----------------------------------------------------------------

def test_straight_and_reversed_layouts():
    assert [layout.led_index(h, "straight", 30, 121) for h in (1, 2, 120, 121)] == [0, 1, 119, 120]
    assert [layout.led_index(h, "reversed", 30, 121) for h in (1, 2, 120, 121)] == [120, 119, 1, 0]


def test_serpentine_rows_of_30_snake_back_every_second_row():
    def led(hole):
        return layout.led_index(hole, "serpentine", 30, 121)
    assert [led(h) for h in (1, 30)] == [0, 29]
    assert [led(h) for h in (31, 32, 60)] == [59, 58, 30]
    assert [led(h) for h in (61, 90)] == [60, 89]
    assert [led(h) for h in (91, 120)] == [119, 90]
    assert led(121) == 120


def test_serpentine_short_last_row_runs_backwards_within_its_own_leds():
    # Rows of 40: holes 1-40, 41-80 (back), 81-120, then hole 121 alone on a
    # backwards row: it is still LED 120, the strip's last.
    assert layout.led_index(121, "serpentine", 40, 121) == 120
    assert layout.led_index(41, "serpentine", 40, 121) == 79
    # Rows of 35: the fourth row, holes 106-121, runs back: LED 120 down to 105.
    assert layout.led_index(106, "serpentine", 35, 121) == 120
    assert layout.led_index(121, "serpentine", 35, 121) == 105


@pytest.mark.parametrize("name", layout.LAYOUTS)
@pytest.mark.parametrize("row_length", (1, 7, 30, 40, 121, 200))
def test_every_layout_puts_each_hole_on_its_own_led(name, row_length):
    leds = [layout.led_index(h, name, row_length, 121) for h in range(1, 122)]
    assert sorted(leds) == list(range(121))


def test_layout_rejects_holes_off_the_track_and_unknown_layouts():
    for hole in (0, 122, -1):
        with pytest.raises(ValueError, match="hole %d" % hole):
            layout.led_index(hole, "straight", 30, 121)
    with pytest.raises(ValueError, match="zigzag"):
        layout.led_index(1, "zigzag", 30, 121)
    with pytest.raises(ValueError, match="ROW_LENGTH"):
        layout.led_index(1, "serpentine", 0, 121)


def test_hole_map_is_a_byte_per_hole_for_the_config():
    class Folded:
        LEDS_PER_TRACK = 121
        LAYOUT = "serpentine"
        ROW_LENGTH = 30
    table = layout.hole_map(Folded)
    assert len(table) == 121
    assert table[31 - 1] == 59
    assert list(layout.hole_map(PICO)) == list(range(121))


def test_the_board_carries_the_hole_map_of_its_config():
    assert list(sim.build().hole_map) == list(range(121))

    class Folded:
        pass
    for name in dir(PICO):
        if name.isupper():
            setattr(Folded, name, getattr(PICO, name))
    Folded.LAYOUT = "serpentine"
    assert sim.build(Folded).hole_map[31 - 1] == 59


# ---- strips -------------------------------------------------------------------

def test_a_strip_frame_goes_down_its_data_line_in_the_strips_colour_order():
    hw = sim.build()
    frame = [0] * 121
    frame[0] = 0xFF0000    # LED 0 red
    frame[120] = 0x000010  # LED 120 blue
    frame[7] = 0x010203
    hw.write_strip(0, frame)
    wire = bytearray(363)
    wire[0:3] = bytes((0, 255, 0))     # red, in the strip's GRB order
    wire[360:363] = bytes((0, 0, 16))
    wire[21:24] = bytes((2, 1, 3))
    assert hw.strip_bytes(0) == bytes(wire)
    assert hw.strip_pixels(0)[0] == (255, 0, 0)
    assert hw.strip_pixels(0)[120] == (0, 0, 16)


def test_a_strip_scaled_down_sends_each_channel_times_scale_over_256():
    hw = sim.build(settings={"CRIBBAGE_COLOR_ORDER": "RGB"})
    frame = [0x000000, 0xFFFFFF, 0x33FF08, 0x010203] + [0x808080] * 117
    for scale in (256, 255, 43, 1, 0, 200, 256):
        hw.write_strip(0, frame, scale)
        wire = bytes(c * scale >> 8 for v in frame for c in (v >> 16, v >> 8 & 255, v & 255))
        assert hw.strip_bytes(0) == wire, scale
    assert hw.tracks[0].brightness == 1.0


def test_strips_are_written_only_when_told_and_counted_per_track():
    hw = sim.build(tracks=3)
    assert [hw.strip_writes(t) for t in range(3)] == [0, 0, 0]
    assert hw.strip_bytes(1) == b""
    frame = [0] * 121
    frame[5] = 0x010203
    hw.write_strip(1, frame)
    hw.write_strip(1, frame)
    assert [hw.strip_writes(t) for t in range(3)] == [0, 2, 0]
    assert hw.strip_bytes(1)[15:18] == bytes((2, 1, 3))
    assert hw.strip_bytes(0) == b"" and hw.strip_bytes(2) == b""


def test_each_track_is_a_neopixel_strip_on_a_data_line_driven_as_an_output():
    import neopixel

    hw = sim.build(tracks=2)
    assert len(hw.tracks) == 2
    assert [strip.pin._pin.id for strip in hw.tracks] == ["GP2", "GP3"]
    for strip in hw.tracks:
        assert isinstance(strip, neopixel.NeoPixel) and not strip.auto_write
        assert (len(strip), strip.byteorder, strip.brightness) == (121, "GRB", 1.0)
        assert strip.pin.direction == digitalio.Direction.OUTPUT
    with pytest.raises(ValueError, match="1 to 3"):
        sim.build(tracks=4)


def test_two_boards_keep_their_own_frames():
    first, second = sim.build(), sim.build()
    first.write_strip(0, [0x090909] * 121)
    assert first.strip_writes(0) == 1 and second.strip_writes(0) == 0


# ---- keypad ---------------------------------------------------------------------

def test_press_queues_a_press_and_a_release_per_key():
    hw = sim.build()
    hw.press("12 B")
    events = []
    while True:
        event = hw.keys.get()
        if event is None:
            break
        events.append((boards.KEY_LEGEND[event.key_number], event.pressed, event.released))
    assert events == [
        ("1", True, False), ("1", False, True),
        ("2", True, False), ("2", False, True),
        ("B", True, False), ("B", False, True),
    ]


def test_press_names_every_unknown_key_and_queues_nothing():
    hw = sim.build()
    with pytest.raises(ValueError) as raised:
        hw.press("1x?")
    assert "'x'" in str(raised.value) and "'?'" in str(raised.value)
    assert hw.keys.get() is None


def test_keypad_queue_is_bounded_like_the_real_one():
    hw = sim.build()
    hw.press("1" * 40)  # 80 events into a queue of 64
    assert len(hw.keys) == PICO.KEY_MAX_EVENTS and hw.keys.overflowed
    hw.keys.clear()
    assert not hw.keys and not hw.keys.overflowed


def test_key_events_carry_the_clock():
    hw = sim.build()
    hw.clock.advance(1234)
    hw.press("5")
    assert hw.keys.get().timestamp == 1234


# ---- clock, watchdog, settings ---------------------------------------------------

def test_clock_moves_only_when_told_and_wraps_like_supervisor():
    hw = sim.build(clock=FakeClock(start_ms=(1 << 29) - 5))
    assert hw.ticks_ms() == (1 << 29) - 5
    hw.clock.advance(10)
    assert hw.ticks_ms() == 5


def test_watchdog_is_armed_for_reset_and_counts_feeds():
    hw = sim.build()
    assert hw.watchdog.mode == "WatchDogMode.RESET"
    assert hw.watchdog.timeout == PICO.WATCHDOG_TIMEOUT_S
    hw.feed_watchdog()
    hw.feed_watchdog()
    assert hw.watchdog_feeds == 2


def test_watchdog_can_be_left_off_in_settings():
    hw = sim.build(settings={"CRIBBAGE_WATCHDOG": 0})
    hw.feed_watchdog()
    assert hw.watchdog.mode is None and hw.watchdog_feeds == 0


def test_settings_and_font_path_reach_the_app():
    hw = sim.build(settings={"CRIBBAGE_BRIGHTNESS": 4})
    assert hw.settings.values == {"CRIBBAGE_BRIGHTNESS": ("4", "4")}
    assert hw.settings.number("CRIBBAGE_BRIGHTNESS", 3, 1, 5) == 4
    assert hw.config.module is PICO
    assert hw.font_path == os.path.join(REPO, "font5x8.bin")


def test_settings_are_the_cribbage_keys_of_settings_toml(tmp_path):
    toml = tmp_path / "settings.toml"
    toml.write_text('CIRCUITPY_WIFI_SSID = "home"\nCRIBBAGE_TRACKS = 3\n'
                    '# CRIBBAGE_OLD = 1\nCRIBBAGE_COLORS = "red,blue"\n')
    settings = board_settings.read(str(toml))
    assert settings.values == {"CRIBBAGE_TRACKS": ("3", "3"),
                               "CRIBBAGE_COLORS": ('"red,blue"', "red,blue")}
    assert board_settings.read(str(tmp_path / "missing.toml")).values == {}


def test_track_count_comes_from_settings_within_the_data_pins():
    def tracks(toml):
        settings = board_settings.parse(toml.encode())
        return hardware.track_count(PICO, settings), settings.problems
    assert tracks("") == (2, [])
    assert tracks("CRIBBAGE_TRACKS = 3") == (3, [])
    assert tracks('CRIBBAGE_TRACKS = "3"') == (3, [])
    assert tracks("CRIBBAGE_TRACKS = 9") == (2, ["settings.toml: CRIBBAGE_TRACKS=9? using 2"])
    assert (tracks('CRIBBAGE_TRACKS = "lots"')
            == (2, ['settings.toml: CRIBBAGE_TRACKS="lots"? using 2']))


# ---- README's strip cuts ----------------------------------------------------------

def test_readmes_strip_cuts_are_the_arithmetic_of_121_leds_and_rows_of_30():
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        text = f.read()
    header = ("| strip | hole pitch | a track's strip | straight: hole 1 to 121"
              " | serpentine: a row of 30 | serpentine, 2 / 3 tracks deep | to buy |")
    lines = text[text.index(header):].splitlines()[2:5]
    leds, row = PICO.LEDS_PER_TRACK, PICO.ROW_LENGTH
    rows_a_track = -(-leds // row)  # 4 of 30 and the game hole
    strip_width_mm = 12
    got = []
    for density in (30, 60, 144):
        pitch = 1000 / density  # mm
        spacing = max(pitch, strip_width_mm)
        two, three = ((rows_a_track * n - 1) * spacing for n in (2, 3))
        pitch_text = "%.1f mm" % pitch
        got.append("| %d LEDs/m | %s | %.2f m | %.2f m | %.2f m | %.0f / %.0f mm |" % (
            density, pitch_text, leds * pitch / 1000, (leds - 1) * pitch / 1000,
            (row - 1) * pitch / 1000, two, three))
    assert [line[:line.rindex("|", 0, len(line) - 1) + 1] for line in lines] == got
    reel = 5 * 60  # a 5 m reel of 60/m
    assert 2 * leds <= reel < 3 * leds == 363
    assert "three tracks (363) need two reels" in lines[1]


def test_a_pin_the_board_lacks_stops_the_build_with_the_serial_consoles_line():
    # README's "When something is wrong": the line CircuitPython prints for it.
    from types import SimpleNamespace
    config = SimpleNamespace(**{name: getattr(PICO, name) for name in dir(PICO) if name.isupper()})
    config.TRACK_PINS = ("GP2", "GP30", "GP4")
    with pytest.raises(ValueError) as stopped:
        sim.build(config=config)
    assert str(stopped.value) == "this board has no pin GP30 (from the board config)"
