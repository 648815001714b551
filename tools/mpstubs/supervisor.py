"""supervisor stand-in: ticks_ms from a clock the test moves (MicroPython test runs)."""

from boards.sim.dev import FakeClock

clock = FakeClock()
ticks_ms = clock.ticks_ms
