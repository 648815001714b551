"""watchdog stand-in (MicroPython test runs)."""

from boards.sim.dev import WatchDogMode  # noqa: F401  (watchdog.WatchDogMode, as on the board)


class WatchDogTimeout(Exception):
    pass
