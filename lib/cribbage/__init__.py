"""cribbage: the peg board's app, in the board's /lib/cribbage/ (code.py runs cribbage.app)."""
