"""cribbage: the peg board's app, deployed to the board's /lib/cribbage/ (code.py runs cribbage.app)."""
