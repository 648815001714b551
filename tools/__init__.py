"""The laptop's tools, run from the repository's root: ``python tools/sim.py`` or
``python -m tools.sim``. Each command's first lines load tools/_entry.py, the one
place a tool puts folders on sys.path."""
