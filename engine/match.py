"""engine.match: skunks, game values and the match tally."""

GAME_HOLE = 121
SHORT_GAME_HOLE = 61
SKUNK_LINE = 91         # a loser short of 91 is skunked (121-hole game)
DOUBLE_SKUNK_LINE = 61  # short of 61: double skunk
TRIPLE_SKUNK_LINE = 31  # under 31: triple skunk (house rule, off by default)
SHORT_SKUNK_LINE = 31   # a 61-hole game: a loser short of 31 is skunked

# Game values for (win, skunk, double skunk, triple skunk); 0 turns triple off.
DEFAULT_VALUES = (1, 2, 4, 0)

SKUNK_NAMES = ("", "skunk", "double skunk", "triple skunk")


def skunk_level(loser_score, target, values=DEFAULT_VALUES):
    """0 = plain win, 1 = skunk, 2 = double, 3 = triple."""
    if target == SHORT_GAME_HOLE:
        return 1 if loser_score < SHORT_SKUNK_LINE else 0
    if loser_score < TRIPLE_SKUNK_LINE and values[3]:
        return 3
    if loser_score < DOUBLE_SKUNK_LINE:
        return 2
    if loser_score < SKUNK_LINE:
        return 1
    return 0


def game_value(level, values=DEFAULT_VALUES):
    return values[level]


def games_to_win(match_games):
    """A match of 1, 3 or 5 games is won by the first to this many game points."""
    return match_games // 2 + 1
