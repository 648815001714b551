"""os stand-in: MicroPython's os, with getenv reading settings.toml as CircuitPython does.

CircuitPython's ``os.getenv(key)`` looks the key up in /settings.toml: a quoted
value comes back as a str, a bare integer as an int, a missing key as the default.
"""

from uos import *  # noqa: F403  (this os is all of uos, and getenv)

SETTINGS = "settings.toml"  # the run's current folder is the drive's root


def _value(text):
    text = text.strip()
    if text[:1] in ('"', "'"):
        quote = text[0]
        return text[1:text.index(quote, 1)]
    if "#" in text:
        text = text[:text.index("#")].strip()
    return int(text, 0)


def getenv(key, default=None):
    try:
        with open(SETTINGS) as toml:
            for line in toml:
                if "=" in line and line.split("=", 1)[0].strip() == key:
                    return _value(line.split("=", 1)[1])
    except OSError:
        pass
    return default
