"""code.py: CircuitPython starts here: pick the board config, build the hardware, run the app."""

import board

import boards
from boards import hardware

config = boards.config_for(board.board_id)  # a board with no config stops here, said
hw = hardware.build(config)
print(hardware.summary(hw))  # on the serial console: what the board was built as

from cribbage.app import App  # noqa: E402  (after the hardware has its buffers)

app = App(hw)
while True:  # the loop, here: a call less deep for everything the board does
    app.step()
