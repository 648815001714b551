"""engine.limits: the highest score and the impossible totals, per hand size.

Every cap the board checks a claim or a keyed score against comes from here.
The table was worked out by counting every deal of every size
(`python tools/handstats.py --caps`), and tests/test_handstats.py counts them
again and compares.
"""

from collections import namedtuple

from engine.rules import CRIB_SIZE, has_crib, hand_size

Limits = namedtuple("Limits", ("max_hand", "max_crib", "impossible_hand", "impossible_crib",
                               "max_peg"))

# Cards in the hand (the starter makes one more): (the highest total, the
# totals below it that no hand makes). A crib is 4 cards: its flush needs the
# starter too, which changes no total here.
_HANDS = {
    3: (20, (16, 17, 18, 19)),                      # 5 5 5 | 5
    4: (29, (19, 25, 26, 27)),                      # 5 5 5 J | 5, nobs
    5: (46, (35, 41, 42, 43, 44, 45)),              # 4 5 5 6 6 | 4
    6: (72, (53, 55, 61, 64, 65, 67, 68, 69, 71)),  # 4 5 5 5 6 6 | 4
}
# The most one card pegs in the play: a double pair royal that makes 15 or 31
# (5 6 A A A A); a pair and a run never come with the same card. Go, his
# heels and five-card's three for last peg less.
MAX_PLAY_PEG = 14


def is_impossible(total, size=4, crib=False):
    """A claim no hand of `size` cards (or crib) and the starter can score."""
    top, low = _HANDS[CRIB_SIZE if crib else size]
    return total < 0 or total > top or total in low


def limits(config):
    """The caps of a game under `config`: its hands, its crib (0 and () if it
    has none) and the most one keyed score can be."""
    top, low = _HANDS[hand_size(config)]
    best, none = _HANDS[CRIB_SIZE] if has_crib(config) else (0, ())
    return Limits(top, best, low, none, max(top, best, MAX_PLAY_PEG))
