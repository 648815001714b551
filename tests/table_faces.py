"""tests.table_faces: what the whole-hand tests expect to see: the colours on the strips
(worked out from lib/cribbage/pegs.py's documented constants, not read back), the suit
glyphs on the OLED, and a track's face at rest."""

from cribbage.pegs import DEALER_MARK, GAME_MARK, MARK, SKUNK_MARK

BLACK = (0, 0, 0)
RED = (38, 0, 0)      # (255, 0, 0) at brightness 3/5 under the 0.25 cap: int(38.25)
RED_BACK = (7, 0, 0)  # the back peg: a fifth of it
BLUE = (0, 0, 38)
BLUE_BACK = (0, 0, 7)
GREEN = (0, 38, 0)
GREEN_BACK = (0, 7, 0)

SPADE, HEART, DIAMOND, CLUB = "\x06", "\x03", "\x04", "\x05"


def face(target, dealer, lit=()):
    """The expected colours of a 121-LED track (straight layout), hole by hole."""
    holes = [BLACK] * 121
    for hole in range(5, target, 5):
        holes[hole - 1] = MARK
    lines = (31,) if target == 61 else (61, 91)
    for hole in lines:
        holes[hole - 1] = SKUNK_MARK
    holes[target - 1] = DEALER_MARK if dealer else GAME_MARK
    for hole, rgb in lit:
        holes[hole - 1] = rgb
    return holes
