"""The whole firmware plays a scripted game under MicroPython 1.27 in 140 KB of heap.

The firmware's own strip writer and SSD1306 driver, and adafruit_bus_device,
run above the stand-ins in tools/mpstubs, built by the same
boards.hardware.build() that runs on the Pico.
Garbage is collected between steps (see tools/mprun.py). The stand-ins for
CircuitPython's built-in C modules are loaded before the heap limit starts,
since on a board they cost no heap. The peak heap is printed: `pytest -s`.
"""

from tools.bench_board import keys_script
from tools.mprun import BUILTINS, run_micropython

# The whole heap the run may use, well under what a Pico has free (163 KB):
# the harness collects only between steps, so its peak holds a whole step's
# garbage. The peak is printed: about 125 KB, boards/ and its qstr pool tables
# counted (the stand-ins once loaded part of boards/ before the limit); Adafruit's
# neopixel, which drives the strips now, adds its import and two strip objects
# (~2.2 KB on the device) and its stand-in's own state: the peak is ~135 KB.
HEAP_KB = 140

# The README's hand at the table, then points to the end of the game.
KEYS = ["#", "CD", "6A", "9A", "9D", "7D", "CB", "BB", "4C", "#", "8B", "#", "#", "#",
        "5B", "5C", "AD", "0C", "29A", "29A", "29A", "11A", "*#", "12A"]

# What the run prints at its end (tools/bench_board.py's script boots and keys it).
_END = """
    game = app.ctrl.game
    print("SCORES", game.scores, "WINNER", game.winner, "LEVEL", game.level)
    print("OLED", "|".join(app.oled_lines()))
    # The (r, g, b) A's strip (on GP2, GRB on the wire) was last sent under A's score.
    import neopixel_write
    i = 3 * app.pegs.map[min(game.scores[0], 121) - 1]
    wire = neopixel_write.frames["GP2"]
    print("HOLE", (wire[i + 1], wire[i], wire[i + 2]))
    print("ERRORS", app.errors)
"""


def script(keys):
    """The firmware under MicroPython pressing `keys` (a list of key groups)."""
    return keys_script(keys, _END)


def test_scripted_game_of_the_whole_firmware_in_140_kb():
    result = run_micropython(script(KEYS), files=("engine", "lib", "boards"), heap_kb=HEAP_KB,
                             fuel=20_000_000_000, preload=BUILTINS)
    assert result.ok, result.error
    out = result.stdout
    print("\nfirmware under MicroPython: peak heap %d bytes of %d KB, %d fuel"
          % (result.heap_peak, HEAP_KB, result.fuel_used))
    assert "SCORES [124, 7] WINNER 0 LEVEL 2" in out, out
    assert ("OLED 121  7|A+12      B+4*      |A wins double skunk!|# next game  *undo|A+12 pegged||"
            in out), out
    assert "HOLE (38, 0, 0)" in out, out
    assert "ERRORS 0" in out, out
    assert result.heap_peak <= HEAP_KB * 1024
