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

import os
import sys

_TOOLS = os.path.dirname(os.path.abspath(__file__))
if _TOOLS not in sys.path:
    sys.path.insert(0, _TOOLS)

from deployer.cli import main  # noqa: E402  (after sys.path)
from deployer.report import DeployError  # noqa: E402  (after sys.path)
from deployer.write import write_atomic  # noqa: E402  (after sys.path)

__all__ = ["DeployError", "main", "write_atomic"]

if __name__ == "__main__":
    sys.exit(main())
