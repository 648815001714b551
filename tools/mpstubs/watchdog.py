"""watchdog stand-in (MicroPython test runs)."""

from boards.sim.dev import WatchDogMode  # noqa: F401


class WatchDogTimeout(Exception):
    pass
