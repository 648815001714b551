"""The OLED on the simulated board (the real SSD1306 driver over a fake panel), the font,
and the panel and a strip under MicroPython.
"""

import importlib.util
import os

import pytest

from boards.sim import board as sim
from boards.sim.oled import FakeI2C, FakeSSD1306
from tools.mprun import run_micropython

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_makefont():
    spec = importlib.util.spec_from_file_location(
        "makefont", os.path.join(REPO, "tools", "makefont.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- OLED -----------------------------------------------------------------------

def test_one_pixel_lands_in_the_first_byte_of_display_ram():
    hw = sim.build()
    assert (hw.display.width, hw.display.pages) == (128, 8)
    buf = hw.display.window(0, 7)  # page 0 column 0 at [0]: no control byte in sight
    assert len(buf) == 1024
    buf[0] = 0x01  # the top pixel of column 0
    hw.display.send(0, 7, 0, 127)
    frame = hw.oled_frame()
    assert len(frame) == 1024
    assert frame[0] == 1 and frame.count(0) == 1023
    hw.display.window(7, 7)[127] = 0x80  # the bottom pixel of column 127
    hw.display.send(7, 7, 127, 127)  # one column of one page
    assert hw.oled_frame()[1023] == 0x80
    pixels = hw.oled_pixels()
    assert len(pixels) == 64 and len(pixels[0]) == 128
    assert pixels[0][0] == 1 and pixels[63][127] == 1 and pixels[0][1] == 0
    # The bytes lent to control bytes are back: the picture is what was drawn.
    assert bytes(buf) == bytes(hw.oled_frame())
    assert bytes(hw.display.window(3, 4)) == bytes(256)


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
    for code in list(range(0x21, 0x80)) + [3, 4, 5, 6]:  # 0x7F: "about" (cribbage.pages)
        assert any(glyph(code)), "glyph 0x%02X is blank" % code
    drawn = [glyph(code) for code in list(range(0x21, 0x80)) + [3, 4, 5, 6]]
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


# ---- the panel and a strip under MicroPython ------------------------------------------
# The real drivers run under MicroPython 1.27 with the stand-ins of tools/mpstubs,
# in a heap cut down to what a Pico leaves free.

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
