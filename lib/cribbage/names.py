"""cribbage.names: the letters the board gives sides and seats (imports nothing of ours)."""

SIDE_LETTERS = "ABC"  # also the keys that peg for each side


def side_name(game, side):
    return SIDE_LETTERS[side] if 0 <= side < len(SIDE_LETTERS) else "?"


def seat_name(game, seat):
    name = side_name(game, game.side_of(seat))
    if game.players == 4:
        return name + str(seat // 2 + 1)  # partners A1/A2, B1/B2
    return name
