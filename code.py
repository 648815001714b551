"""code.py: CircuitPython starts here: build the board from its config, load the app, run it."""

import gc

import board

import boards
from boards import hardware

config = boards.config_for(board.board_id)  # a board with no config stops here, said
hw = hardware.build(config)
print(hardware.summary(hw))  # on the serial console: what the board was built as
# What only the build needs goes, and the app's modules, held for the board's life,
# load into its place, below the boot's garbage (docs/performance.md: 3 KB more free).
hardware.let_go()
del boards, hardware, config
gc.collect()

from cribbage.app import App  # noqa: E402  (into the build's heap)

app = App(hw)
while True:  # the loop, here: a call less deep for everything the board does
    app.step()
