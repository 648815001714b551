"""tools.simulator: the parts of tools/sim.py, the firmware on the sim board on a laptop.

    session    the board and the app on it, driven by keys (also the tests' harness)
    statefile  reading, checking and writing the board's flash image
    marks      what each hole of a track shows, and LED colours made visible
    text       the readable summary and the JSON report
    picture    the PNG of the board
    screen     the interactive screen, fitted to the terminal's size
    terminal   the keyboard and the loop of the interactive simulator

Laptop only: never deployed, never imported by the firmware.
"""
