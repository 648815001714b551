"""How long one key press takes, end to end: key -> engine -> LED frames -> OLED.

    python tools/bench_board.py [--rounds N] [--no-micropython]

Prints, per key of a scripted hand, the CPU time on this laptop (CPython) and
what that means on an RP2040 (100-300x slower), the I2C bytes and bus time the
OLED update costs at 400 kHz, and the same script's cost under MicroPython
(wasmtime fuel per key, by difference) and its peak heap. The target on the Pico is 50 ms a key.
"""

import argparse
import os
import sys
import time

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "lib"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

# A deal at the table: points, the starter, the play, a hand counted, undo.
SCRIPT = "12A 5B # CD 6A 9A 9D 7D CB BB 4C # 8B 6C # 4D 5C 5B 6A *# 3B"
TARGET_MS = 50.0
SLOWDOWN = (100, 300)


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


def micropython_figures():
    """Fuel per key under MicroPython 1.27: the script with and without the keys."""
    from mprun import BUILTINS, run_micropython
    from test_firmware_micropython import HEAP_KB, script

    keys = SCRIPT.split()
    presses = len("".join(keys))
    runs = []
    for pressed in ([], keys):
        result = run_micropython(script(pressed), heap_kb=HEAP_KB, fuel=40_000_000_000,
                                 preload=BUILTINS)
        if not result.ok:
            raise RuntimeError(result.error)
        runs.append(result)
    return {
        "keys": presses,
        "fuel_per_key": (runs[1].fuel_used - runs[0].fuel_used) // presses,
        "peak_heap": runs[1].heap_peak,
        "heap_kb": HEAP_KB,
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
    lo, hi = SLOWDOWN
    print("  RP2040 estimate (x%d..x%d): mean %.1f..%.1f ms, max %.1f..%.1f ms (target %.0f ms)"
          % (lo, hi, cp["mean_ms"] * lo, cp["mean_ms"] * hi, cp["max_ms"] * lo, cp["max_ms"] * hi,
             TARGET_MS))
    print("  OLED over I2C at 400 kHz: %.0f bytes, %.1f ms a key on average"
          % (cp["i2c_bytes_mean"], cp["i2c_ms_mean"]))
    verdict = "PASS" if cp["mean_ms"] * hi + cp["i2c_ms_mean"] <= TARGET_MS else "MISS"
    print("  worst-case mean on the Pico incl. I2C: %.1f ms -> %s"
          % (cp["mean_ms"] * hi + cp["i2c_ms_mean"], verdict))
    if not args.no_micropython:
        mp = micropython_figures()
        print("  MicroPython 1.27 (wasmtime): %d fuel a key over %d keys; peak heap %d bytes"
              " of %d KB" % (mp["fuel_per_key"], mp["keys"], mp["peak_heap"], mp["heap_kb"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
