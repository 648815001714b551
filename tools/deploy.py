#!/usr/bin/env python3
"""Flash CircuitPython onto a Pico and deploy the cribbage board firmware to it.

    python tools/deploy.py                     # find the CIRCUITPY drive, copy the firmware
    python tools/deploy.py --target /media/me/CIRCUITPY --dry-run
    python tools/deploy.py --uf2 adafruit-circuitpython-raspberry_pi_pico-en_US-10.0.0.uf2

Runs on the laptop only (Python 3.11, standard library only); the firmware never
imports it. Every refusal is one line on stderr and exit code 2. The parts live in
the package tools/deployer/, one topic a module; ``write_atomic`` (the simulator's
state file) is kept here for others.
"""

from __future__ import annotations

try:  # the root and lib/ on sys.path: tools/_entry.py
    import tools._entry  # noqa: F401  (python -m tools.x, or the tests)
except ImportError:  # python tools/x.py: tools/ is first on sys.path
    import _entry  # noqa: F401  (loaded for its effect)

import sys

from tools.deployer.cli import main
from tools.deployer.report import DeployError
from tools.deployer.write import write_atomic

__all__ = ["DeployError", "main", "write_atomic"]

if __name__ == "__main__":
    sys.exit(main())
