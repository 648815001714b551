"""lib: the board's firmware above the rules engine (runs on the Pico and in the simulator)."""
