"""boards.raspberry_pi_pico2_w: the peg board on a Raspberry Pi Pico 2 W (RP2350).

The Pico 2 with the Pico W's CYW43439 wireless chip: the same pinout as the Pico.
The wireless chip takes GP23, GP24, GP25 and GP29 (the onboard LED hangs off it),
and the board uses none of those pins.
"""

from boards.raspberry_pi_pico2 import *  # noqa: F403  (same wiring, same chip)
