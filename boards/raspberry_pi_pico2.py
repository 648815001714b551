"""boards.raspberry_pi_pico2: the peg board on a Raspberry Pi Pico 2 (RP2350).

Pin-compatible with the Pico: the same wiring. The RP2350 watchdog counts to
~16.7 s, but the same 8 s timeout is kept so a hang resets just as quickly.
"""

from boards.raspberry_pi_pico import *  # noqa: F403  (same wiring)

CHIP = "RP2350"
