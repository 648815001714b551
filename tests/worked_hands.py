"""tests.worked_hands: the hands the discard tests work out by hand, with the arithmetic:
what keeping four cards can expect over every starter, and the crib's points."""

from fractions import Fraction

WORKED = "5H 5D JS 6C 4D KH"
# Keeping 4D 5H 5D 6C scores 12 before the starter (fifteen 4, a pair, a double
# run of three). By the starter's rank, with the cards of it still unseen:
#   A 14 x4, 2 12 x4, 3 14 x4, 4 24 x3, 5 23 x2, 6 24 x3, 7 14 x4, 8 12 x4,
#   9 14 x4, and each of the 14 ten-cards left 16:
# 56 + 48 + 56 + 72 + 46 + 72 + 56 + 48 + 56 + 224 = 734 over 46 starters.
WORKED_HAND = Fraction(734, 46)
# Laying JS KH away: 180,782 crib points over 46 x C(45,2) = 45,540 deals, each
# walked in tests/test_discard.py.
WORKED_CRIB = Fraction(180782, 45540)

# Three players: 5 cards each and one from the deck to the crib, so the crib's
# other three cards (two players' and the deck's) and the starter all come
# from the 47 unseen: 47 x C(46,3) = 713,460 deals. Laying JS away keeps the
# worked hand's four cards, now with KH unseen too: 734 + 16 = 750 over 47.
THREE = "5H 5D JS 6C 4D"
THREE_HAND = Fraction(750, 47)
THREE_CRIB = Fraction(3098268, 713460)  # every deal walked (test_discard.test_walks_slow)
