"""engine.match: skunks, game values and the match tally.

Every skunk line is here: the rules, the board's marks and the OLED ask
skunk_lines() and skunk_line() rather than knowing the holes.
"""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    try:
        from micropython import const
    except ImportError:  # CPython with no stand-ins: a constant is its int
        const = int  # type: ignore[assignment]

GAME_HOLE = const(121)
SHORT_GAME_HOLE = const(61)
SKUNK_LINE = const(91)         # a loser short of 91 is skunked (121-hole game)
DOUBLE_SKUNK_LINE = const(61)  # short of 61: double skunk
TRIPLE_SKUNK_LINE = const(31)  # under 31: triple skunk (house rule, off by default)
SHORT_SKUNK_LINE = const(31)   # a 61-hole game: a loser short of 31 is skunked

# Game values for (win, skunk, double skunk, triple skunk); 0 turns triple off.
DEFAULT_VALUES = (1, 2, 4, 0)

SKUNK_NAMES = ("", "skunk", "double skunk", "triple skunk")


# The lines a loser must reach, highest first: a 121-hole game's, the same with
# the triple skunk valued, a 61-hole game's.
_LINES = ((SKUNK_LINE, DOUBLE_SKUNK_LINE), (SKUNK_LINE, DOUBLE_SKUNK_LINE, TRIPLE_SKUNK_LINE),
          (SHORT_SKUNK_LINE,))


def skunk_lines(target, values=DEFAULT_VALUES):
    """The lines a loser must reach, highest first: (91, 61), with the triple
    skunk valued (91, 61, 31); a 61-hole game (31,)."""
    return _LINES[2 if target == SHORT_GAME_HOLE else 1 if values[3] else 0]


def skunk_line(level, target):
    """The line a loser skunked at `level` (1 skunk, 2 double, 3 triple) fell
    short of; 0 for a plain win."""
    if level <= 0:
        return 0
    if target == SHORT_GAME_HOLE:
        return SHORT_SKUNK_LINE
    return (SKUNK_LINE, DOUBLE_SKUNK_LINE, TRIPLE_SKUNK_LINE)[level - 1]


def skunk_level(loser_score, target, values=DEFAULT_VALUES):
    """0 = plain win, 1 = skunk, 2 = double, 3 = triple: one per line missed."""
    level = 0
    # (The table, not skunk_lines(): one call less deep at the end of a game.)
    for line in _LINES[2 if target == SHORT_GAME_HOLE else 1 if values[3] else 0]:
        if loser_score < line:
            level += 1
    return level


def game_value(level, values=DEFAULT_VALUES):
    return values[level]


def games_to_win(match_games):
    """A match of 1, 3 or 5 games is won by the first to this many game points."""
    return match_games // 2 + 1
