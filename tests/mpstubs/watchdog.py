"""watchdog stand-in (MicroPython test runs)."""

from boards.simdev import WatchDogMode  # noqa: F401


class WatchDogTimeout(Exception):
    pass
