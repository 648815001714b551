"""Board configs, the hole -> LED layouts, the font, and the simulated board.

The simulated board runs the real Adafruit drivers over pin- and bus-level
fakes, so what these tests read is what the strips and the OLED would receive.
"""

import importlib.util
import os

import pytest

import boards
from boards import hardware, layout
from boards import settings as board_settings
from boards.sim import board as sim
from boards.sim.dev import FakeClock
from boards.sim.nvm import PowerCut, SimNVM
from boards.sim.oled import FakeI2C, FakeSSD1306

import digitalio  # Blinka's: after boards.sim has set it up

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICO = boards.config_for("raspberry_pi_pico")


def load_makefont():
    spec = importlib.util.spec_from_file_location(
        "makefont", os.path.join(REPO, "tools", "makefont.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- configs ------------------------------------------------------------------

CONFIG_NAMES = (
    "TRACK_PINS", "LEDS_PER_TRACK", "COLOR_ORDER", "LAYOUT", "ROW_LENGTH",
    "I2C_SDA", "I2C_SCL", "I2C_FREQUENCY", "OLED_ADDRESS",
    "KEY_ROW_PINS", "KEY_COLUMN_PINS", "KEY_COLUMNS_TO_ANODES", "KEY_SCAN_INTERVAL_S",
    "KEY_MAX_EVENTS", "BRIGHTNESS_CAP", "CURRENT_BUDGET_MA", "LED_FULL_WHITE_MA",
    "IDLE_MA_PER_LED", "WATCHDOG_TIMEOUT_S",
)


@pytest.mark.parametrize("board_id", boards.CONFIGS)
def test_every_config_has_every_fact_and_no_pin_twice(board_id):
    config = boards.config_for(board_id)
    for name in CONFIG_NAMES:
        assert hasattr(config, name), "%s lacks %s" % (board_id, name)
    pins = (list(config.TRACK_PINS) + [config.I2C_SDA, config.I2C_SCL]
            + list(config.KEY_ROW_PINS) + list(config.KEY_COLUMN_PINS))
    assert len(pins) == len(set(pins))
    assert all(pin.startswith("GP") and 0 <= int(pin[2:]) <= 28 for pin in pins)
    assert len(config.TRACK_PINS) == 3
    assert config.LEDS_PER_TRACK == 121
    assert config.COLOR_ORDER == "GRB"
    assert config.OLED_ADDRESS == 0x3C
    assert (config.I2C_SDA, config.I2C_SCL) == ("GP0", "GP1")  # I2C0 on the Pico
    assert config.LAYOUT in layout.LAYOUTS
    assert 0 < config.BRIGHTNESS_CAP <= 1
    assert config.CURRENT_BUDGET_MA == 500 and config.LED_FULL_WHITE_MA == 60


def test_config_for_picks_the_board_and_falls_back_to_the_pico():
    assert boards.config_for("raspberry_pi_pico").CHIP == "RP2040"
    assert boards.config_for("raspberry_pi_pico_w").CHIP == "RP2040"
    assert boards.config_for("raspberry_pi_pico2").CHIP == "RP2350"
    assert boards.config_for("adafruit_feather_rp2040") is PICO
    assert boards.config_for("") is PICO
    assert boards.config_for("raspberry_pi_pico_w").TRACK_PINS == PICO.TRACK_PINS


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

def test_a_strip_frame_goes_down_its_data_line_as_given():
    hw = sim.build()
    frame = bytearray(363)
    frame[0:3] = bytes((0, 255, 0))     # LED 0 red, in the strip's GRB order
    frame[360:363] = bytes((0, 0, 16))  # LED 120 blue
    hw.write_strip(0, frame)
    assert hw.strip_bytes(0) == bytes(frame)
    assert hw.strip_pixels(0)[0] == (255, 0, 0)
    assert hw.strip_pixels(0)[120] == (0, 0, 16)


def test_strips_are_written_only_when_told_and_counted_per_track():
    hw = sim.build(tracks=3)
    assert [hw.strip_writes(t) for t in range(3)] == [0, 0, 0]
    assert hw.strip_bytes(1) == b""
    frame = bytearray(363)
    frame[15:18] = bytes((2, 1, 3))
    hw.write_strip(1, frame)
    hw.write_strip(1, frame)
    assert [hw.strip_writes(t) for t in range(3)] == [0, 2, 0]
    assert hw.strip_bytes(1)[15:18] == bytes((2, 1, 3))
    assert hw.strip_bytes(0) == b"" and hw.strip_bytes(2) == b""


def test_each_track_has_a_data_line_driven_as_an_output():
    hw = sim.build(tracks=2)
    assert len(hw.tracks) == 2
    assert [data._pin.id for data in hw.tracks] == ["GP2", "GP3"]
    for data in hw.tracks:
        assert data.direction == digitalio.Direction.OUTPUT
    with pytest.raises(ValueError, match="1 to 3"):
        sim.build(tracks=4)


def test_two_boards_keep_their_own_frames():
    first, second = sim.build(), sim.build()
    first.write_strip(0, bytes((9, 9, 9)) * 121)
    assert first.strip_writes(0) == 1 and second.strip_writes(0) == 0


# ---- OLED -----------------------------------------------------------------------

def test_one_pixel_lands_in_the_first_byte_of_display_ram():
    hw = sim.build()
    buf = hw.display.buffer  # [0] is the I2C data control byte, then page 0 column 0
    assert len(buf) == 1 + 1024 and buf[0] == 0x40
    buf[1] = 0x01  # the top pixel of column 0
    hw.display.send(0, 7, 0, 127)
    frame = hw.oled_frame()
    assert len(frame) == 1024
    assert frame[0] == 1 and frame.count(0) == 1023
    buf[1024] = 0x80  # the bottom pixel of column 127
    hw.display.send(7, 7, 127, 127)  # one column of one page
    assert hw.oled_frame()[1023] == 0x80
    pixels = hw.oled_pixels()
    assert len(pixels) == 64 and len(pixels[0]) == 128
    assert pixels[0][0] == 1 and pixels[63][127] == 1 and pixels[0][1] == 0
    assert buf[0] == 0x40 and buf[1023] == 0  # the bytes lent to control bytes are back


def test_the_start_switches_the_panel_on_and_a_frame_costs_about_23_ms():
    hw = sim.build()
    assert hw.oled.display_on and not hw.oled.inverted
    assert hw.oled.charge_pump and hw.oled.contrast == 0xFF
    assert hw.oled.mode == hw.oled.HORIZONTAL
    assert hw.oled.unknown_commands == []
    assert hw.oled_frame() == bytes(1024)  # the start leaves a blank picture
    shows = hw.oled_shows()
    sent, busy = hw.i2c_bytes(), hw.i2c_ms()
    hw.display.send(0, 7, 0, 127)
    assert hw.oled_shows() == shows + 1
    # The window: address + 7 command bytes; then address + control byte + 1024 data bytes.
    assert hw.i2c_bytes() - sent == 8 + 1026
    assert 20 < hw.i2c_ms() - busy < 26
    sent = hw.i2c_bytes()
    hw.display.send(3, 3, 12, 41)  # 30 columns of one page
    assert hw.i2c_bytes() - sent == 8 + 2 + 30


# "1" and the heart glyph (chr 3) drawn in the first two text cells from font5x8.bin.
ONE_AND_HEART = [
    "..#....#.#.",
    ".##...#####",
    "..#...#####",
    "..#...#####",
    "..#....###.",
    "..#.....#..",
    ".###.......",
    "...........",
]


def test_the_font_draws_on_the_oled():
    from cribbage.screen import Screen
    hw = sim.build()
    screen = Screen(hw.display, hw.font_path)
    screen.draw([("text", "1" + chr(3))] + [("text", "")] * 7)
    picture = [row[:11] for row in hw.oled_picture().splitlines()[:8]]
    assert picture == ONE_AND_HEART


def test_ssd1306_model_follows_vertical_addressing_and_the_column_window():
    panel = FakeSSD1306()
    bus = FakeI2C("SCL", "SDA", frequency=400_000, devices={0x3C: panel})
    assert bus.try_lock()
    for command in (0x20, 0x01, 0x21, 10, 11, 0x22, 2, 3):  # vertical, cols 10-11, pages 2-3
        bus.writeto(0x3C, bytes((0x80, command)))
    bus.writeto(0x3C, bytes((0x40, 1, 2, 3, 4, 5)))
    ram = panel.ram
    # Down the pages first, then the next column; the fifth byte wraps to the start.
    assert (ram[3 * 128 + 10], ram[2 * 128 + 11], ram[3 * 128 + 11]) == (2, 3, 4)
    assert ram[2 * 128 + 10] == 5
    assert panel.data_bytes == 5 and panel.data_writes == 1
    bus.writeto(0x3C, bytes((0x00, 0x20, 0x00, 0xA7)))  # Co=0: a stream of commands
    assert panel.mode == 0 and panel.inverted


def test_ssd1306_model_page_addressing():
    panel = FakeSSD1306()  # page addressing is the reset default
    panel.receive(bytes((0x80, 0xB5, 0x80, 0x03, 0x80, 0x17)))  # page 5, column 0x73
    panel.receive(bytes((0x40,) + tuple(range(1, 15))))  # 14 bytes, 13 columns to the edge
    row = panel.ram[5 * 128:6 * 128]
    assert row[0x73] == 14  # the 14th byte went back to the start column, same page
    assert list(row[0x74:0x80]) == list(range(2, 14))
    assert panel.ram[6 * 128 + 0x73] == 0
    assert panel.unknown_commands == []


def test_i2c_fake_needs_the_lock_and_a_device_that_answers():
    bus = FakeI2C("SCL", "SDA", devices={0x3C: FakeSSD1306()})
    with pytest.raises(RuntimeError, match="lock"):
        bus.writeto(0x3C, b"\x80\xaf")
    assert bus.try_lock() and not bus.try_lock()
    assert bus.scan() == [0x3C]
    with pytest.raises(OSError):
        bus.writeto(0x3D, b"")
    bus.unlock()


def test_an_oled_that_does_not_answer_fails_the_build_with_a_wiring_hint():
    with pytest.raises(RuntimeError, match="no OLED answers at 0x3C on GP0/GP1"):
        sim.build(oled_address=0x3D)


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
    assert hw.config is PICO
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


# ---- nvm ---------------------------------------------------------------------------

def test_fresh_nvm_is_an_erased_sector():
    nvm = sim.build().nvm
    assert len(nvm) == 4096
    assert nvm[0:4096] == bytearray(b"\xff" * 4096)
    assert isinstance(nvm[0:2], bytearray) and nvm[-1] == 0xFF


def test_writing_erased_bytes_programs_without_an_erase():
    nvm = SimNVM()
    nvm[0:4] = b"\x01\x02\x03\x04"
    nvm[4] = 5
    assert nvm[0:6] == bytearray(b"\x01\x02\x03\x04\x05\xff")
    assert (nvm.erases, nvm.bytes_programmed, nvm.writes) == (0, 5, 2)


def test_overwriting_any_programmed_byte_erases_and_rewrites_the_sector():
    nvm = SimNVM()
    nvm[0:4] = b"\x01\x02\x03\x04"
    nvm[2:6] = b"\xaa\xbb\xcc\xdd"
    assert nvm[0:8] == bytearray(b"\x01\x02\xaa\xbb\xcc\xdd\xff\xff")
    assert nvm.erases == 1 and nvm.bytes_programmed == 4 + 4096
    nvm[1:2] = b"\x02"  # the same value still is not 0xFF: erased again
    assert nvm.erases == 2


def test_nvm_assignment_rules_match_circuitpython():
    nvm = SimNVM()
    with pytest.raises(ValueError, match="different lengths"):
        nvm[0:4] = b"\x01"
    with pytest.raises(NotImplementedError, match="step"):
        nvm[0:4:2] = b"\x01\x02"
    with pytest.raises(NotImplementedError, match="bytes required"):
        nvm[0:2] = [1, 2]
    with pytest.raises(ValueError, match="between 0 and 255"):
        nvm[0] = 256
    with pytest.raises(IndexError):
        nvm[4096] = 1
    assert nvm.writes == 0


def test_power_cut_while_programming_leaves_the_bytes_so_far():
    nvm = SimNVM()
    nvm.cut_after(3)
    with pytest.raises(PowerCut):
        nvm[10:16] = b"ABCDEF"
    assert nvm[8:18] == bytearray(b"\xff\xffABC\xff\xff\xff\xff\xff")
    nvm[16:18] = b"GH"  # power is back after the cut
    assert nvm[16:18] == bytearray(b"GH")


def test_power_cut_during_an_erase_leaves_the_sector_blank():
    nvm = SimNVM(b"\x00" * 16)
    nvm.cut_after(0)
    with pytest.raises(PowerCut, match="erasing"):
        nvm[0:2] = b"\x01\x02"
    assert nvm.snapshot() == b"\xff" * 4096


def test_power_cut_budget_spans_several_writes():
    nvm = SimNVM()
    nvm.cut_after(5)
    nvm[0:4] = b"abcd"
    with pytest.raises(PowerCut, match="1 of 4"):
        nvm[4:8] = b"efgh"
    assert nvm[0:8] == bytearray(b"abcde\xff\xff\xff")


def test_tearing_a_rewrite_at_every_byte_gives_a_prefix_of_the_new_sector():
    old = bytes(range(256)) * 16
    new_record = b"\x42" * 8
    image = bytearray(old)
    image[100:108] = new_record
    for cut in range(0, 4096 + 1, 7):
        nvm = SimNVM(old)
        nvm.cut_after(cut)
        try:
            nvm[100:108] = new_record
        except PowerCut:
            assert nvm.snapshot() == bytes(image[:cut]) + b"\xff" * (4096 - cut)
        else:
            assert cut == 4096 and nvm.snapshot() == bytes(image)


def test_the_same_flash_survives_a_simulated_restart():
    first = sim.build()
    first.nvm[0:3] = b"abc"
    again = sim.build(nvm=first.nvm)
    assert again.nvm[0:3] == bytearray(b"abc")
    seeded = sim.build(nvm=b"xyz")
    assert seeded.nvm[0:4] == bytearray(b"xyz\xff")


# ---- font ---------------------------------------------------------------------------

def test_font_file_is_what_the_tool_makes(tmp_path):
    makefont = load_makefont()
    out = tmp_path / "font5x8.bin"
    makefont.main(["makefont", str(out)])
    with open(os.path.join(REPO, "font5x8.bin"), "rb") as committed:
        assert out.read_bytes() == committed.read()


def test_font_header_and_glyphs():
    with open(os.path.join(REPO, "font5x8.bin"), "rb") as font:
        data = font.read()
    assert len(data) == 2 + 256 * 5
    assert data[0:2] == bytes((5, 8))

    def glyph(code):
        return data[2 + code * 5:2 + code * 5 + 5]
    assert glyph(ord("1")) == bytes((0x00, 0x42, 0x7F, 0x40, 0x00))
    assert glyph(0x03) == bytes((0x0E, 0x1F, 0x3E, 0x1F, 0x0E))  # heart
    assert glyph(ord(" ")) == bytes(5) and glyph(0x00) == bytes(5)
    for code in list(range(0x21, 0x7F)) + [3, 4, 5, 6]:
        assert any(glyph(code)), "glyph 0x%02X is blank" % code
    drawn = [glyph(code) for code in list(range(0x21, 0x7F)) + [3, 4, 5, 6]]
    assert len(set(drawn)) == len(drawn), "two glyphs look the same"


def test_the_font_draws_the_spade_pixel_for_pixel():
    from cribbage.screen import Screen
    hw = sim.build()
    Screen(hw.display, os.path.join(REPO, "font5x8.bin")).draw(
        [("text", "1" + chr(6))] + [("text", "")] * 7)
    rows = [row[:11] for row in hw.oled_picture().splitlines()[:8]]
    assert rows == [
        "..#.....#..",
        ".##....###.",
        "..#...#####",
        "..#...#####",
        "..#...#.#.#",
        "..#.....#..",
        ".###...###.",
        "...........",
    ]


# ---- under MicroPython ---------------------------------------------------------------
# The real drivers, the real builder and code.py run under MicroPython 1.27 with
# the stand-ins of tools/mpstubs, in a heap cut down to what a Pico leaves free.

from tools.mprun import MicroPythonCrash, run_micropython  # noqa: E402

DRIVER_SMOKE = """
import board, busio


def steps():
    from adafruit_bus_device import i2c_device
    from boards.ssd1306 import SSD1306
    from cribbage.screen import Screen
    yield  # garbage is collected at each yield
    import digitalio
    import neopixel_write
    yield
    i2c = busio.I2C(board.GP1, board.GP0, frequency=400_000)
    oled = SSD1306(i2c_device.I2CDevice(i2c, 0x3C))
    Screen(oled, "font5x8.bin").draw([("text", "1" + chr(3))] + [("text", "")] * 7)
    yield
    ram = i2c.devices[0x3C].ram
    for y in range(8):
        print("".join("#" if ram[x] >> y & 1 else "." for x in range(11)))
    data = digitalio.DigitalInOut(board.GP2)
    data.direction = digitalio.Direction.OUTPUT
    frame = bytearray(363)
    frame[1] = 255       # LED 0 red, in GRB order
    frame[362] = 16      # LED 120 blue
    neopixel_write.neopixel_write(data, frame)
    frame = neopixel_write.frames["GP2"]
    print("strip", len(frame), list(frame[:3]), list(frame[-3:]),
          neopixel_write.writes["GP2"])
"""


def test_the_panel_and_a_strip_under_micropython_in_120_kb():
    result = run_micropython(DRIVER_SMOKE, heap_kb=120)
    assert result.ok, result.error
    assert abs(result.heap_free - 120 * 1024) < 1024
    lines = result.stdout.splitlines()
    assert lines[0:8] == ONE_AND_HEART
    assert lines[8] == "strip 363 [0, 255, 0] [0, 0, 16] 1"
    assert 0 < result.heap_peak < 120 * 1024
    assert result.collections == 4  # one before the steps, one at each yield
    print("MicroPython panel and strip test: heap peak %d bytes, fuel %d"
          % (result.heap_peak, result.fuel_used))


BUILD_UNDER_MICROPYTHON = """
import boards, keypad, microcontroller, neopixel_write, supervisor
from boards import hardware

def steps():
    yield  # the imports' garbage collected, as CircuitPython would when short
    global hw
    hw = hardware.build(boards.config_for("raspberry_pi_pico"))
    yield
    print(len(hw.tracks), sorted(hw.settings.values.items()), hw.settings.problems)
    hw.write_strip(2, bytes((1, 2, 3)) * 121)
    print(list(neopixel_write.frames["GP4"][:3]))
    keypad.press("7D")
    event = hw.keys.get()
    print(boards.KEY_LEGEND[event.key_number], event.pressed)
    supervisor.clock.advance(250)
    hw.feed_watchdog()
    print(hw.ticks_ms(), microcontroller.watchdog.feeds)
    hw.nvm[0:2] = b"hi"
    print(len(hw.nvm), bytes(hw.nvm[0:3]), hw.nvm.erases)
    import time
    print(hasattr(time, "monotonic"), hasattr(time, "ticks_ms"))
"""


def test_the_real_builder_runs_under_micropython_with_settings_toml():
    settings = 'CRIBBAGE_TRACKS = 3\nCRIBBAGE_COLORS = "red,blue"  # two\nCRIBBAGE_WATCHDOG = on\n'
    result = run_micropython(BUILD_UNDER_MICROPYTHON, files=("boards",), heap_kb=120,
                             extra={"settings.toml": settings})
    assert result.ok, result.error
    assert result.stdout.splitlines() == [
        "3 [('CRIBBAGE_COLORS', ('\"red,blue\"', 'red,blue')), ('CRIBBAGE_TRACKS', ('3', '3')),"
        " ('CRIBBAGE_WATCHDOG', ('on', 'on'))] []",
        "[1, 2, 3]",  # the frame goes out as given
        "7 True",
        "250 1",
        "4096 b'hi\\xff' 0",
        "True False",  # CircuitPython's time, not MicroPython's
    ]


# A stand-in app: it shows what code.py handed it, and stops code.py's loop.
FAKE_APP = """
class Stop(Exception):
    pass


class App:
    def __init__(self, hw):
        print('app got', len(hw.tracks), hw.config.CHIP, hw.config.__name__, hw.font_path)
        self.passes = 0

    def step(self):
        self.passes += 1
        if self.passes == 3:
            raise Stop('stepped %d times' % self.passes)
"""
RUN_CODE_PY = """
from cribbage.app import Stop
try:
    import code
except Stop as stop:
    print(stop)
"""


def test_code_py_builds_the_board_and_hands_it_to_the_app_under_micropython():
    # One import, so nothing is collected inside it here (see mpprobe); a board collects.
    result = run_micropython(RUN_CODE_PY, files=("boards", "code.py"), heap_kb=160,
                             extra={"lib/cribbage/__init__.py": "",
                                    "lib/cribbage/app.py": FAKE_APP})
    assert result.ok, result.error
    assert result.stdout == ("app got 2 RP2040 boards.raspberry_pi_pico font5x8.bin\n"
                             "stepped 3 times\n")


def test_micropython_runs_report_errors_and_running_out_of_heap():
    result = run_micropython("x = 9\nraise ValueError('%d is too many' % x)\n", heap_kb=50)
    assert not result.ok
    assert result.error.splitlines()[-1] == "ValueError: 9 is too many"
    starved = run_micropython("hoard = [bytearray(1000) for i in range(20)]\n", heap_kb=8)
    assert "MemoryError" in starved.error
    with pytest.raises(MicroPythonCrash, match="fuel"):
        run_micropython("while True:\n    pass\n", fuel=20_000_000)


CHURN = """
kept = []


def steps():
    for round in range(8):
        junk = [bytearray(b"%d" % i) for i in range(300)]
        kept.append(b"round %d" % round)
        junk = None
        yield
    print(kept[0], kept[-1])
    hoard = [bytearray(100) for i in range(1000)]
"""


def test_micropython_collects_between_steps_and_reports_a_step_out_of_heap():
    result = run_micropython(CHURN, files=(), heap_kb=60)
    assert result.stdout == "b'round 0' b'round 7'\n"
    assert "MemoryError" in result.error.splitlines()[-1]
    assert result.collections == 9
    assert 50 * 1024 < result.heap_peak <= result.heap_free  # the failed step filled the heap


FRAMES = """
import gc, mpprobe

mark = [0]


def steps():
    mark[0] = gc.mem_alloc()
    yield


def noop():
    pass


def fake_main():
    mark[0] = gc.mem_alloc()


saved = mpprobe._collect, mpprobe._main, mpprobe._limit, mpprobe._finish
mpprobe._collect = noop
before = gc.mem_alloc()
made = steps()
generator = gc.mem_alloc() - before
before = gc.mem_alloc()
mpprobe._drive(made)
drive = mark[0] - before
before = gc.mem_alloc()
mpprobe._main()
main = mark[0] - before
mpprobe._main, mpprobe._limit, mpprobe._finish = fake_main, noop, noop
before = gc.mem_alloc()
mpprobe.run()
run = mark[0] - before
mpprobe._collect, mpprobe._main, mpprobe._limit, mpprobe._finish = saved
print(generator, drive, main, run)
"""


def test_the_harness_frames_active_while_collecting_live_on_the_c_stack():
    # A frame allocated on the heap would be freed by a collection while it runs
    # (see tools/mpstubs/mpprobe.py); entering these must allocate nothing.
    result = run_micropython(FRAMES, files=())
    assert result.ok, result.error
    generator, drive, main, run = (int(n) for n in result.stdout.split())
    assert drive == 0 and run == 0
    assert main <= generator  # _main allocates only the steps() generator
