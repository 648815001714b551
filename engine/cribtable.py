"""engine.cribtable: the board's discard advice: the hand exact, the crib from a table.

The board cannot walk every crib deal in time, so the crib average of the laid
cards comes from TABLE, made by tools/cribtable.py from the exact count of
engine.discard. Each entry is the crib given only the laid cards: the crib's
other cards and the starter drawn from the rest of the deck (50 cards for two
laid, 51 for one). It ignores the cards you keep, which you know are not in the
crib or the starter; the hand average sees them, exactly.

Points are integer numerators over SCALE, so no float is needed. Imported only
when the advice is asked for; never at boot.
"""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    try:
        from micropython import const
    except ImportError:  # CPython with no stand-ins: a constant is its int
        const = int  # type: ignore[assignment]
from engine.cards import KING, rank_of, suit_of
from engine.discard import (Advice, Choice, check_deal, hand_total, lay_aways, ranked,
                            unseen_of)
from engine.rules import LOWBALL, STANDARD

# Every starter count (45, 46 or 47 cards unseen) divides it: the hand stays exact.
SCALE = 97290
_ENTRY = const(3)  # bytes an entry, big-endian
SINGLES = KING  # one laid card: a rank
PAIRS = KING * KING  # two: a grid of ranks

# Crib averages in 1/SCALE points. Two laid cards of ranks lo <= hi (1..13) at
# (lo - 1) * 13 + hi - 1 when of two suits, at (hi - 1) * 13 + lo - 1 when of
# one (lo < hi): a 13 x 13 grid; then one laid card of rank r at 169 + r - 1.
# Made by `python tools/cribtable.py --write`; a test checks it byte for byte.
# --- table: made by tools/cribtable.py ---
TABLE = (
    b"\x08\x36\x50\x06\x95\x6f\x06\xc3\x0a\x08\x1c\x69\x08\x80\x44\x06"
    b"\x50\x4a\x06\x0c\x95\x06\x1d\x10\x05\xfd\x1c\x05\xdd\xee\x06\x38"
    b"\x35\x05\xb7\x27\x05\x8d\xe4\x06\xa5\x6e\x08\xa5\xd8\x0a\x24\xad"
    b"\x07\x2f\xc7\x08\x8b\x6f\x06\x79\x97\x06\x59\x4a\x06\x47\x06\x06"
    b"\x22\x56\x06\x08\xaa\x06\x62\xf2\x05\xe1\xe3\x05\xb8\xa0\x06\xd3"
    b"\x09\x0a\x34\xac\x09\x25\x82\x08\x27\x31\x09\x88\x5b\x06\x56\x08"
    b"\x06\x74\xdc\x06\x5c\x32\x06\x1a\x00\x06\x25\x49\x06\x7f\x90\x05"
    b"\xfe\x81\x05\xd5\x3e\x08\x2c\x68\x07\x3f\xc6\x08\x37\x30\x09\x1b"
    b"\xbc\x0a\x60\xab\x07\x5d\x89\x06\x31\xf7\x06\x61\x3d\x06\x3b\x50"
    b"\x06\x23\xf7\x06\x7e\x3f\x05\xfd\x30\x05\xd3\xed\x08\x90\x43\x08"
    b"\x9b\x6e\x09\x98\x5a\x0a\x70\xaa\x0d\x59\x8f\x0a\x84\xbb\x09\x83"
    b"\x3c\x08\x89\x57\x08\x81\xaa\x0a\x6c\x11\x0a\xc6\x59\x0a\x45\x4a"
    b"\x0a\x1c\x07\x06\x60\x4a\x06\x89\x96\x06\x66\x07\x07\x6d\x89\x0a"
    b"\x94\xba\x09\x56\x86\x08\x36\xb4\x07\x44\x19\x08\x45\x70\x05\xb1"
    b"\x06\x06\x0b\x4d\x05\x8a\x3e\x05\x60\xfb\x06\x1c\x94\x06\x69\x49"
    b"\x06\x84\xdb\x06\x41\xf6\x09\x93\x3c\x08\x46\xb3\x09\x11\x57\x0a"
    b"\x08\xad\x06\x74\x3d\x05\x85\xd3\x05\xf7\x0f\x05\x76\x00\x05\x4c"
    b"\xbd\x06\x2d\x0f\x06\x57\x05\x06\x6c\x31\x06\x71\x3c\x08\x99\x56"
    b"\x07\x54\x18\x0a\x18\xac\x08\x5d\x67\x07\x4f\xe3\x06\x61\x78\x05"
    b"\xd9\xf9\x05\x6f\xe0\x05\x46\x9d\x06\x0d\x1b\x06\x32\x55\x06\x29"
    b"\xff\x06\x4b\x4f\x08\x91\xa9\x08\x55\x6f\x06\x84\x3c\x07\x5f\xe2"
    b"\x08\x35\x8a\x07\x2f\x50\x06\xa7\xd1\x05\x44\xfc\x05\x32\xae\x05"
    b"\xed\xed\x06\x18\xa9\x06\x35\x48\x06\x33\xf6\x0a\x7c\x11\x05\xc1"
    b"\x05\x05\x95\xd2\x06\x71\x77\x07\x3f\x4f\x08\x1c\x41\x07\x7c\xf3"
    b"\x06\x1a\x1e\x05\x0f\x14\x06\x40\xea\x06\x6b\xa6\x06\x88\x45\x06"
    b"\x86\xf3\x0a\xcf\x0e\x06\x14\x02\x05\xff\xc4\x05\xe2\xae\x06\xb0"
    b"\x86\x07\x85\xa7\x08\xcd\x17\x07\x6e\x86\x06\x63\x7d\x05\xc7\x26"
    b"\x05\xf1\xe2\x06\x0e\x80\x06\x0d\x2f\x0a\x55\x49\x05\x9a\x3e\x05"
    b"\x85\xff\x05\x7f\xdf\x05\x54\xfb\x06\x2a\x1d\x07\x77\x3a\x07\xca"
    b"\xf9\x05\xe2\x6e\x05\x9d\xe3\x05\xc8\x9f\x05\xe5\x3d\x05\xe3\xec"
    b"\x0a\x2c\x06\x05\x70\xfb\x05\x5c\xbc\x05\x56\x9c\x05\x42\xad\x05"
    b"\x1f\x14\x06\x6c\x31\x05\xf2\x6d\x07\x78\x73\x06\x98\xf6\x06\xee"
    b"\x9b\x07\x2a\x4b\x07\x2c\x6c\x09\xdd\xdd\x07\x1b\x10\x06\xf0\xd0"
    b"\x06\xe0\x72\x06\xb7\x9d\x06\x9c\xa1\x06\xf8\xf8\x06\x5a\x66\x06"
    b"\x10\x55"
)
# --- end of table ---


def entry_of(laid):
    """TABLE's entry for the laid cards (one or two)."""
    if len(laid) == 1:
        return PAIRS + rank_of(laid[0]) - 1
    lo = rank_of(laid[0])
    hi = rank_of(laid[1])
    if lo > hi:
        lo, hi = hi, lo
    if lo != hi and suit_of(laid[0]) == suit_of(laid[1]):
        return (hi - 1) * KING + lo - 1
    return (lo - 1) * KING + hi - 1


def table_crib(laid):
    """The crib average of the laid cards, in 1/SCALE points."""
    at = _ENTRY * entry_of(laid)
    return TABLE[at] << 16 | TABLE[at + 1] << 8 | TABLE[at + 2]


def advise(cards, players=2, own_crib=True, variant=STANDARD):
    """Every way to lay away the cards dealt, best first: an Advice whose
    numbers are numerators over SCALE (engine.discard.points_text shows them).

    `own_crib`: the crib is yours or your partner's. A ValueError (BadConfig,
    BadCard, WrongCards) with a sentence for the OLED if the game deals no such
    cards, or has no crib."""
    cards, laid = check_deal(cards, players, variant)
    pool = unseen_of(cards)
    per_starter = SCALE // pool.size
    choices = []
    for laid_cards, kept in lay_aways(cards, laid):
        hand = hand_total(kept, pool) * per_starter
        crib = table_crib(laid_cards)
        choices.append(Choice(laid_cards, kept, hand, crib,
                              hand + crib if own_crib else hand - crib))
    return Advice(ranked(choices, variant == LOWBALL), SCALE, pool.size, 0)
