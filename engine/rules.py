"""engine.rules: the settings a game is played under, and the caps they give.

Every cap the board checks a claim or a keyed score against is in limits()
and is_impossible(). Their table was worked out by counting every deal of
every hand size (`python tools/handstats.py --caps`); tests/test_handstats.py
counts them again and compares.
"""

from collections import namedtuple

from engine.errors import BadConfig
from engine.match import DEFAULT_VALUES, GAME_HOLE, SHORT_GAME_HOLE

STANDARD = 0
FIVE_CARD = 1
SEVEN_CARD = 2
SHOTGUN = 3
LOWBALL = 4
VARIANT_NAMES = ("standard", "five-card", "seven-card", "shotgun", "lowball")

Config = namedtuple("Config", ("players", "target", "variant", "muggins", "values", "match_games"))

# What a game may be set to, each in the order the board's new-game form steps
# through it; check_config refuses anything else.
PLAYERS = (2, 3, 4)  # 4: two teams of partners
MATCH_GAMES = (1, 3, 5)
_TARGETS = (GAME_HOLE, SHORT_GAME_HOLE)
_FIVE_CARD_TARGETS = (SHORT_GAME_HOLE,)  # the 17th-century game is 61 holes
# A double skunk is worth 4 games, or 3 in some books (docs/rules.md); a triple
# skunk, when played, twice a double.
DOUBLE_SKUNKS = (DEFAULT_VALUES[2], 3)


def targets(variant):
    """The holes a game of `variant` may be played to, the usual first."""
    return _FIVE_CARD_TARGETS if variant == FIVE_CARD else _TARGETS


def game_values(double_skunk=DEFAULT_VALUES[2], triple_skunk=False):
    """(win, skunk, double skunk, triple skunk) as the form sets them: the
    triple skunk 0 (not played) or twice the double."""
    return (DEFAULT_VALUES[0], DEFAULT_VALUES[1], double_skunk,
            2 * double_skunk if triple_skunk else 0)


def one_of(choices):
    """'2, 3 or 4': the choices as a sentence says them."""
    words = [str(c) for c in choices]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def make_config(players=2, target=GAME_HOLE, variant=STANDARD, muggins=False,
                values=DEFAULT_VALUES, match_games=1):
    """A checked Config; a variant played to one target only gets it (five-card: 61)."""
    allowed = targets(variant)
    if len(allowed) == 1:
        target = allowed[0]
    config = Config(players, target, variant, bool(muggins), tuple(values), match_games)
    check_config(config)
    return config


def check_config(config):
    """BadConfig, saying why, unless a game is played under `config`. (The
    board's form shows the sentence on one row: those it can reach fit 21.)"""
    if config.players not in PLAYERS:
        raise BadConfig("players must be %s (two teams)" % one_of(PLAYERS))
    if not 0 <= config.variant < len(VARIANT_NAMES):
        raise BadConfig("unknown variant %r" % (config.variant,))
    if config.target not in targets(config.variant):
        if config.variant == FIVE_CARD:
            raise BadConfig("five-card: %d holes" % SHORT_GAME_HOLE)
        raise BadConfig("the game is to %s holes" % one_of(_TARGETS))
    if config.variant == FIVE_CARD and config.players != 2:
        raise BadConfig("five-card: 2 players")
    if config.match_games not in MATCH_GAMES:
        raise BadConfig("a match is %s games" % one_of(MATCH_GAMES))
    values = config.values
    if len(values) != 4 or values[0] < 1 or values[1] < values[0] or values[2] < values[1]:
        raise BadConfig("game values must rise: win <= skunk <= double skunk")
    for v in values:
        if not 0 <= v <= 9:
            raise BadConfig("a game value is 0..9")


# The sides by name, side 0 first (partners share theirs); on the board the
# keys that peg for each side bear the same letters.
SIDE_NAMES = ("A", "B", "C")


def sides_of(players):
    """Scoring sides: partners (seats 0+2, 1+3) share one."""
    return 2 if players == 4 else players


def hand_size(config):
    """Cards each player keeps for the play and the show."""
    if config.variant == FIVE_CARD:
        return 3
    if config.variant == SEVEN_CARD:
        return 5
    if config.variant == SHOTGUN:
        return 6
    return 4


def has_crib(config):
    return config.variant != SHOTGUN


CRIB_SIZE = 4


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


# A keyed score past the cap (the points, the most one score can be): the app
# says it as the digits are typed, before the engine is asked.
BAD_PEG = "%s? a score is 1 to %d"
NO_PLAYER = "no player %s in this game"  # a side the game has not


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
