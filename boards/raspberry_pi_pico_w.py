"""boards.raspberry_pi_pico_w: the peg board on a Raspberry Pi Pico W.

The same pinout as the Pico. The W's onboard LED hangs off the wireless chip
(GP23-GP25 and GP29 are taken by it), but the board uses none of those pins.
"""

from boards.raspberry_pi_pico import *  # noqa: F403  (same wiring)
