"""code.py: CircuitPython starts here: pick the board config, build the hardware, run the app."""

import board

import boards
from boards import hardware

config = boards.config_for(board.board_id)  # unknown boards get the Pico's wiring
hw = hardware.build(config)

from cribbage.app import App  # noqa: E402  (after the hardware has its buffers)

app = App(hw)
while True:  # the loop, here: a call less deep for everything the board does
    app.step()
