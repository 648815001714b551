"""The one place a tool puts folders on sys.path.

A command's first lines load it as ``tools._entry`` when the repository's root is
on sys.path (``python -m tools.x``, the tests), else as ``_entry`` (``python
tools/x.py`` starts with tools/ first on sys.path). Then the tools import as the
``tools`` package, the engine and the boards from the root, and the app as
``cribbage`` from lib/ (the board's own search path: / and /lib).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (os.path.join(ROOT, "lib"), ROOT):
    if _path not in sys.path:
        sys.path.insert(0, _path)
