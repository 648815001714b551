"""webboard: the board in a web page: the firmware on the stand-ins, driven by the page.

Runs under MicroPython's WebAssembly port in the page (web/board.js writes the
files and imports it). The page's file system is laid out like CIRCUITPY, as
tools/mprun.py lays out its runs: the firmware at the root, the app and
adafruit_bus_device in lib/, the stand-ins for CircuitPython's C modules (tools/mpstubs)
in mpstubs/, ``nvm.hex`` (the flash, kept by the page) and ``settings.toml``
(``CRIBBAGE_TRACKS``). ``start()`` does what code.py does, except its endless
loop: the page calls ``tick`` on every animation frame instead, with its clock.

Everything the page draws is read where the hardware would put it: each
strip's last frame from ``neopixel_write.frames`` (wire order), the OLED from
the fake panel's display RAM, the flash from ``microcontroller.nvm``.
"""

import binascii
import json

import board
import boards
import busio
import keypad
import microcontroller
import neopixel_write
import supervisor
from boards import hardware
from boards.sim.nvm import NVM_SECTOR, SimNVM
from cribbage.pegs import peg_hole

OLED = 1    # tick's answer, bit by bit: the panel's RAM was written,
STRIPS = 2  # a strip was sent a frame,
FLASH = 4   # the flash was written (the page keeps it)

_app = None
_hw = None
_panel = None
_pins = ()
_seen = [-1, -1, -1]  # panel bytes, strip frames, flash writes at the last look


def start():
    """Build the board and the app as code.py does; the board's facts as JSON."""
    global _app, _hw, _panel, _pins
    from cribbage.app import App  # before the hardware is built, as in code.py

    config = boards.config_for(board.board_id)
    _hw = hardware.build(config)

    _app = App(_hw)
    _panel = busio.buses[-1].devices[config.OLED_ADDRESS]
    _pins = config.TRACK_PINS[:len(_hw.tracks)]
    return json.dumps({
        "tracks": len(_hw.tracks),
        "pins": list(_pins),
        "colorOrder": config.COLOR_ORDER,
        "holeMap": list(_hw.hole_map),
        "rowLength": config.ROW_LENGTH,
        "legend": "".join(_hw.key_legend),
    })


def _changes():
    now = (_panel.data_bytes, sum([neopixel_write.writes.get(p, 0) for p in _pins]),
           microcontroller.nvm.writes)
    changed = 0
    for i, bit in ((0, OLED), (1, STRIPS), (2, FLASH)):
        if now[i] != _seen[i]:
            changed |= bit
            _seen[i] = now[i]
    return changed


def tick(now_ms):
    """One pass of the board's loop at ``now_ms`` on its clock; what changed."""
    supervisor.clock.now = now_ms
    _app.step()
    return _changes()


def press(key, now_ms):
    """The key printed ``key`` pressed and released, then a pass of the loop."""
    supervisor.clock.now = now_ms
    keypad.press(key)
    _app.step()
    return _changes()


def oled_hex():
    """The panel's 1024 bytes of display RAM: 8 pages of 128 columns, LSB on top."""
    return binascii.hexlify(_panel.ram).decode()


def strips_hex():
    """Each track's last frame in wire order, comma-separated (empty before any)."""
    return ",".join([binascii.hexlify(neopixel_write.frames.get(p, b"")).decode()
                     for p in _pins])


def oled_text():
    """The OLED's text rows, one a line (the font's suit glyphs as they are)."""
    return "\n".join(_app.oled_lines())


def pegs():
    """[front, back] hole of each side that has a track (0: not on the board yet),
    as JSON: where the game has its pegs, for the rings the page draws round them."""
    game = _app.game
    target = game.config.target
    return json.dumps([[peg_hole(game.scores[s], target), peg_hole(game.backs[s], target)]
                       for s in range(min(game.sides, len(_pins)))])


def busy():
    """An animation is still running."""
    return _app.busy()


def stats_json():
    """The board's statistics as tools/sim.py --json gives them ("stats")."""
    from engine import figures  # loaded when asked for, as the board's stats page is

    game = _app.game
    return json.dumps(figures.report(game.stats, game.sides))


def flash_hex():
    """The flash sector now, as a power cut would leave it."""
    return binascii.hexlify(microcontroller.nvm.snapshot()).decode()


def refusal(image_hex):
    """Why the board cannot start from this flash image, or "" if it can: exactly
    one sector, erased or holding a log the board's store reads a game or
    settings from (tools/simulator/statefile.py asks the same of a --state file)."""
    from cribbage.store import Store

    try:
        data = binascii.unhexlify(image_hex)
    except ValueError:
        return "it is not a saved board"
    if len(data) != NVM_SECTOR:
        return "it is %d bytes; a saved board is exactly %d" % (len(data), NVM_SECTOR)
    if data == b"\xff" * NVM_SECTOR:
        return ""
    game, settings = Store(SimNVM(data)).load()
    if game is None and settings is None:
        return "it is not a saved board: neither erased flash nor a game the board can read"
    return ""
