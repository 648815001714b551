"""cribbage.keys: what each key of the 4x4 keypad means to the game.

    1 2 3 A
    4 5 6 B
    7 8 9 C
    * 0 # D

Which key_number is printed with which character is the board's fact
(``board.key_legend``); here is what a character means.
"""

from engine.cards import make_card
from cribbage.names import SIDE_LETTERS

PLAYER_KEYS = SIDE_LETTERS  # after points: whose they are
SUIT_KEYS = "ABCD"    # after a rank: A spades, B hearts, C diamonds, D clubs
_RANK_KEYS = "1234567890ABC"  # ace, 2..9, 0 = ten, A = jack, B = queen, C = king


def rank_of_key(key):
    """The rank (1..13) a key stands for in card entry, or 0."""
    i = _RANK_KEYS.find(key)
    return i + 1 if i >= 0 else 0


def card_of_keys(rank, suit_key):
    return make_card(rank, SUIT_KEYS.index(suit_key))
