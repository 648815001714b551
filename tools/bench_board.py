"""How long one key press takes, end to end: key -> engine -> LED frames -> OLED.

    python tools/bench_board.py [--rounds N] [--no-micropython]

Prints, for the keys of a scripted deal, the CPU time on this laptop (CPython),
the I2C bytes and bus time the OLED update costs at 400 kHz, and the same
script's cost under MicroPython 1.27: wasmtime fuel a key by difference (the
stand-ins for CircuitPython's C modules included), and our code's alone
(metered as tools/bench_device.py does, which estimates the time on a Pico).
"""

try:  # the root and lib/ on sys.path: tools/_entry.py
    import tools._entry  # noqa: F401  (python -m tools.x, or the tests)
except ImportError:  # python tools/x.py: tools/ is first on sys.path
    import _entry  # noqa: F401  (loaded for its effect)

import argparse
import os
import sys
import time

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A deal at the table: points, the starter, the play, a hand counted, undo.
SCRIPT = "12A 5B # CD 6A 9A 9D 7D CB BB 4C # 8B 6C # 4D 5C 5B 6A *# 3B"
MP_FUEL = 40_000_000_000
# Boot a module a step, then the keys: one press a step, 4 s for the pegs after
# each group, in the WASI build's whole heap (garbage is collected only between
# steps; the figure moves with the heap's size, as an allocation walks it).
_MP_SCRIPT = """
def steps():
    for name in %(modules)r:
        __import__(name)
        yield
    import cribbage.app
    import boards
    from boards import hardware
    hw = hardware.build(boards.config_for("raspberry_pi_pico"))
    yield
    app = cribbage.app.App(hw)
    app.collect = lambda: None  # at the yield: this build cannot collect inside a frame
    yield
    import keypad, supervisor
    for keys in %(keys)r:
        for key in keys:  # one press a step, as fast as fingers go
            keypad.press(key)
            app.step()
            yield
        supervisor.clock.advance(4000)  # let the pegs settle
        app.step()
        if app.errors:
            print("ERROR AT", keys, app.ctrl.message)
        yield
%(end)s
"""


def keys_script(keys, end=""):
    """The firmware under MicroPython (tools/mprun.py): the boot's modules one a
    step, the board and the App built, then each group of `keys` pressed; `end`:
    lines (indented four spaces) run after the last, with `app` in scope."""
    from tools.devrun import boot_imports
    modules = boot_imports() + ["cribbage.entry"]  # entry: imported when first drawn
    return _MP_SCRIPT % {"modules": modules, "keys": list(keys), "end": end}


class _BusClock:
    """Time spent inside the simulated OLED panel: hardware on the Pico, not firmware."""

    def __init__(self, i2c):
        self.seconds = 0.0
        self._writeto = i2c.writeto
        i2c.writeto = self.writeto

    def writeto(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return self._writeto(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start


def cpython_figures(rounds):
    from boards.sim import board as sim
    from cribbage.app import App

    keys = SCRIPT.replace(" ", "")
    per_key = []
    i2c_ms = []
    i2c_bytes = []
    for _ in range(rounds):
        board = sim.build()
        bus = _BusClock(board.i2c)
        app = App(board)
        for key in keys:
            board.press(key)
            bus_ms, bus_bytes = board.i2c_ms(), board.i2c_bytes()
            in_panel = bus.seconds
            start = time.perf_counter()
            app.step()
            spent = time.perf_counter() - start - (bus.seconds - in_panel)
            per_key.append(spent * 1000)
            i2c_ms.append(board.i2c_ms() - bus_ms)
            i2c_bytes.append(board.i2c_bytes() - bus_bytes)
            board.clock.advance(1000)
            app.step()
    per_key.sort()
    return {
        "keys": len(per_key),
        "mean_ms": sum(per_key) / len(per_key),
        "p95_ms": per_key[int(len(per_key) * 0.95)],
        "max_ms": per_key[-1],
        "i2c_ms_mean": sum(i2c_ms) / len(i2c_ms),
        "i2c_bytes_mean": sum(i2c_bytes) / len(i2c_bytes),
    }


def check_fuel():
    """Our code's fuel a key on this deal, whose keys the device ran (metered as
    tools/bench_device.py meters a key)."""
    from tools import devgame, devrun

    played = devgame.play(SCRIPT, whole_game=False)
    run = devrun.run_keys(played.keys, len(played.keys) - 1)
    keys = [s for s in run.steps if s.label.startswith("key:")]
    return sum(s.fuel for s in keys) / len(keys)


def micropython_figures():
    """Fuel per key under MicroPython 1.27: the script with and without the keys
    (everything), and our code's alone (metered)."""
    from tools.mprun import BUILTINS, run_micropython

    keys = SCRIPT.split()
    presses = len("".join(keys))
    runs = []
    for pressed in ([], keys):
        result = run_micropython(keys_script(pressed), fuel=MP_FUEL, preload=BUILTINS)
        if not result.ok:
            raise RuntimeError(result.error)
        runs.append(result)
    return {
        "keys": presses,
        "fuel_per_key": (runs[1].fuel_used - runs[0].fuel_used) // presses,
        "ours_per_key": check_fuel(),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--no-micropython", action="store_true")
    args = parser.parse_args(argv)
    cp = cpython_figures(args.rounds)
    print("one key press, end to end (%d presses of a scripted deal;"
          " the simulated panel's own time left out)" % cp["keys"])
    print("  CPython on this laptop: mean %.3f ms, p95 %.3f ms, max %.3f ms"
          % (cp["mean_ms"], cp["p95_ms"], cp["max_ms"]))
    print("  OLED over I2C at 400 kHz: %.0f bytes, %.1f ms a key on average"
          % (cp["i2c_bytes_mean"], cp["i2c_ms_mean"]))
    if not args.no_micropython:
        mp = micropython_figures()
        print("  MicroPython 1.27 (wasmtime): %d fuel a key over %d keys, the stand-ins for C"
              " included;" % (mp["fuel_per_key"], mp["keys"]))
        print("    our code alone %.0f fuel a key (the time on a Pico: tools/bench_device.py)"
              % mp["ours_per_key"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
