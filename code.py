"""code.py: CircuitPython starts here: load the app, build the board from its config, run."""

import board

# The app's modules first: held for the board's life, they load packed at the
# bottom of the heap, and the garbage of the build and of the boot goes above them
# (a frame took twice as long the other way round: docs/performance.md).
from cribbage.app import App

import boards
from boards import hardware

config = boards.config_for(board.board_id)  # a board with no config stops here, said
hw = hardware.build(config)
print(hardware.summary(hw))  # on the serial console: what the board was built as

app = App(hw)
while True:  # the loop, here: a call less deep for everything the board does
    app.step()
