"""boards.sim: the simulated board (laptop only, never deployed).

``boards.sim.board`` builds the app's board object with the real drivers over
pin- and bus-level fakes (needs Blinka); ``dev``, ``nvm`` and ``oled`` are plain
Python fakes that MicroPython's stand-ins (tools/mpstubs) share.
"""
