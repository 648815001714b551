"""Adafruit's adafruit_ssd1306 (with adafruit_framebuf, the pinned versions in
requirements/test.txt) as the reference for the board's own SSD1306 writer
(boards/ssd1306.py), each on its own simulated panel over the sim's I2C fake
(boards/sim/oled.py): the same start-up commands, the same panel RAM for the same
picture, and what a frame costs each on the wire. Why the board keeps its own
writer: docs/internals.md ("Why our own OLED writer").
"""

import pytest

from boards.sim import board as sim
from boards.sim.oled import FakeI2C, FakeSSD1306

import adafruit_ssd1306  # after boards.sim.board, which sets Blinka up

from firmware import Table

WIDTH, HEIGHT = 128, 64
FRAME = WIDTH * HEIGHT // 8  # bytes of panel RAM

# What both send at start-up, after the bus's probe (an empty write): display on
# (Adafruit's poweron(); ours sends it too, to match), the 128x64 set-up on the panel's
# own charge pump, display on, then the window of the blank frame that follows.
START_COMMANDS = bytes((
    0xAF, 0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 0x3F, 0xC8, 0xD3, 0x00, 0xDA, 0x12,
    0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0xAD, 0x30, 0x8D, 0x14,
    0xAF, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07,
))

# The one difference that stays is the framing, not the bytes: Adafruit's write_cmd()
# sends each command byte in a write of its own behind control byte 0x80 (Co=1), 3 bytes
# on the wire with the address; ours sends a run of commands in one write behind 0x00
# (Co=0), as the datasheet allows. So, address bytes included:
OURS_START = (4, 1 + (1 + 1 + 28) + (1 + 1 + 6) + (1 + 1 + FRAME))  # (writes, bytes)
THEIRS_START = (1 + 34 + 1, 1 + 34 * 3 + (1 + 1 + FRAME))
OURS_FRAME = (2, (1 + 1 + 6) + (1 + 1 + FRAME))  # the window, then the data
THEIRS_FRAME = (7, 6 * 3 + (1 + 1 + FRAME))  # six window commands, then the buffer


def wire(log):
    """The command bytes and the display data in a panel's I2C writes, in order,
    read from the control bytes (Co=1: one byte follows; Co=0: the rest; D/C# 0x40)."""
    commands, data = bytearray(), bytearray()
    for _address, sent in log:
        i = 0
        while i < len(sent):
            control = sent[i]
            into = data if control & 0x40 else commands
            if control & 0x80:
                into.append(sent[i + 1])
                i += 2
            else:
                into.extend(sent[i + 1:])
                break
    return bytes(commands), bytes(data)


def adafruit(address, frequency):
    """Adafruit's driver on a panel of its own: (driver, bus, panel)."""
    panel = FakeSSD1306()
    bus = FakeI2C("SCL", "SDA", frequency=frequency, devices={address: panel},
                  log_length=100)
    return adafruit_ssd1306.SSD1306_I2C(WIDTH, HEIGHT, bus, addr=address), bus, panel


def adafruit_for(hw):
    """Adafruit's driver where the sim board's panel answers, at its bus's speed."""
    return adafruit(hw.config.OLED_ADDRESS, hw.i2c.frequency)


def counters(bus):
    return bus.transactions, bus.bytes_sent


def sent_since(bus, before):
    now = counters(bus)
    return now[0] - before[0], now[1] - before[1]


def show_through_adafruit(hw, lit):
    """The panel RAM after Adafruit's show() of a picture drawn with its pixel():
    ``lit`` is the (x, y) of every pixel on. Its framebuffer is checked to hold the
    very bytes of our writer's buffer on the way."""
    driver, _bus, panel = adafruit_for(hw)
    driver.fill(0)
    for x, y in lit:
        driver.pixel(x, y, 1)
    assert bytes(memoryview(driver.buffer)[1:]) == bytes(hw.display.window(0, 7))
    driver.show()
    assert panel.unknown_commands == []
    return bytes(panel.ram)


def lit_pixels(hw):
    """The (x, y) of every pixel our panel shows, as its RAM decodes."""
    return [(x, y) for y, row in enumerate(hw.oled_pixels()) for x, bit in enumerate(row) if bit]


# ---- 1. start-up -----------------------------------------------------------------

def test_the_start_up_sends_adafruits_commands_and_leaves_the_same_panel():
    hw = sim.build()  # our writer, started as boards/hardware.py starts it
    ours = wire(hw.i2c.log)
    _driver, bus, panel = adafruit_for(hw)
    theirs = wire(bus.log)
    assert ours[0] == theirs[0] == START_COMMANDS
    assert ours[1] == theirs[1] == bytes(FRAME)  # a blank frame
    assert hw.oled_frame() == bytes(panel.ram) == bytes(FRAME)
    for state in ("display_on", "inverted", "contrast", "charge_pump", "mode", "commands",
                  "unknown_commands", "data_bytes"):
        assert getattr(hw.oled, state) == getattr(panel, state), state
    assert hw.oled.display_on and hw.oled.charge_pump and hw.oled.unknown_commands == []
    # The framing, the difference that stays.
    assert counters(hw.i2c) == OURS_START == (4, 1065)
    assert counters(bus) == THEIRS_START == (36, 1129)
    assert hw.i2c.log[1][1][0] == 0x00 and all(sent[0] == 0x80 for _, sent in bus.log[1:35])


# ---- 2. the same panel RAM for the same picture -------------------------------------

PICTURES = {
    "blank": lambda x, y: 0,
    "all on": lambda x, y: 1,
    "checker": lambda x, y: (x + y) & 1,
    "frame and diagonal": lambda x, y: x in (0, WIDTH - 1) or y in (0, HEIGHT - 1) or x == 2 * y,
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_a_picture_lands_in_the_panel_ram_as_adafruits_show_puts_it(name):
    on = PICTURES[name]
    hw = sim.build()
    # Ours takes page bytes (the datasheet's layout: a byte a column of 8 rows, the low
    # bit on top): made here from the pixels, sent as one window of the whole panel.
    window = hw.display.window(0, 7)
    for page in range(HEIGHT // 8):
        for x in range(WIDTH):
            window[page * WIDTH + x] = sum(
                1 << bit for bit in range(8) if on(x, page * 8 + bit))
    hw.display.send(0, 7, 0, WIDTH - 1)
    lit = [(x, y) for y in range(HEIGHT) for x in range(WIDTH) if on(x, y)]
    assert hw.oled_frame() == show_through_adafruit(hw, lit)
    assert lit_pixels(hw) == lit
    if name == "checker":
        assert hw.oled_frame()[:2] == b"\xaa\x55"  # column 0: rows 1, 3, 5, 7 lit


def test_the_apps_first_frame_lands_as_adafruits_show_puts_it():
    t = Table()
    hw = t.board
    assert t.oled()[0] == "0  0"  # the app's first frame, sent whole
    lit = lit_pixels(hw)
    assert 300 < len(lit) < FRAME * 8 // 2
    assert hw.oled_frame() == show_through_adafruit(hw, lit)


@pytest.mark.parametrize("keys", ["12B", "12B 5A D"])
def test_the_windows_a_key_sends_leave_the_ram_adafruits_show_would(keys):
    t = Table()
    hw = t.board
    shows = hw.oled_shows()
    hw.i2c.log, hw.i2c.log_length = [], 1000
    t.keys(keys)
    data_writes = [sent for _, sent in hw.i2c.log if sent and sent[0] == 0x40]
    assert len(data_writes) == hw.oled_shows() - shows > 1
    assert all(len(sent) < 1 + FRAME for sent in data_writes)  # windows, no whole frame
    assert hw.oled_frame() == show_through_adafruit(hw, lit_pixels(hw))


# ---- 3. on the wire --------------------------------------------------------------

def test_a_frame_on_the_wire_ours_and_adafruits():
    hw = sim.build()
    driver, bus, _panel = adafruit_for(hw)
    before = counters(hw.i2c)
    busy = hw.i2c.bus_ms()
    hw.display.send(0, 7, 0, WIDTH - 1)
    assert sent_since(hw.i2c, before) == OURS_FRAME == (2, 1034)
    assert hw.i2c.bus_ms() - busy == pytest.approx(23.265)  # 9 clocks a byte at 400 kHz
    before = counters(bus)
    busy = bus.bus_ms()
    driver.show()  # show() sends the whole frame, whatever changed
    assert sent_since(bus, before) == THEIRS_FRAME == (7, 1044)
    assert bus.bus_ms() - busy == pytest.approx(23.49)
    # One changed window: 30 columns of one page.
    before = counters(hw.i2c)
    hw.display.send(3, 3, 12, 41)
    assert sent_since(hw.i2c, before) == (2, (1 + 1 + 6) + (1 + 1 + 30))
