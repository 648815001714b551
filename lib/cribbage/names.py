"""cribbage.names: what the board calls sides, seats and cards.

Nothing of the app is imported here, so every module may name things; the card
ranks come from the engine's cards (the one place card arithmetic lives).
"""

from engine.cards import DECK_SIZE, rank_name, rank_of, suit_of
from engine.rules import SIDE_NAMES

# Tuples of one-character strings, not strings: indexing a string makes a new
# one, which on the board means a search of every name the firmware has loaded.
SIDE_LETTERS = SIDE_NAMES  # also the keys that peg for each side
SUIT_GLYPHS = ("\x06", "\x03", "\x04", "\x05")  # font5x8.bin: spade, heart, diamond, club
# Each card's name, made the first time it is wanted (not at boot) and kept: a
# show's breakdown names a dozen cards at a time.
_CARD_TEXT = [None] * DECK_SIZE


def side_name(side):
    return SIDE_LETTERS[side] if 0 <= side < len(SIDE_LETTERS) else "?"


def seat_name(game, seat):
    name = side_name(game.side_of(seat))
    if game.players == 4:
        return name + str(seat // 2 + 1)  # partners A1/A2, B1/B2
    return name


def card_text(card):
    """A card as the OLED prints it: the rank, then the suit's glyph ('J' + diamond)."""
    text = _CARD_TEXT[card]
    if text is None:
        text = _CARD_TEXT[card] = rank_name(rank_of(card)) + SUIT_GLYPHS[suit_of(card)]
    return text
