"""cribbage.scoreboard: the scoreboard's keys, and the yes/no steps it leads to.

On the scoreboard points are typed and pegged like a wooden board: ``12B``.
``*`` clears them or offers an undo (with no action left, of the new game
itself: the game before it comes back), ``#`` moves the hand on (or, after a
game, asks before the next one), ``D`` opens the menu. The mode's own state is
the digits typed so far.
"""

from engine.errors import IllegalAction
from cribbage import words
from cribbage.keys import PLAYER_KEYS
from cribbage.turn import CARDS, EARLIER, HOME, MENU, NEXT, UNDO, Mode, Turn

_GAME = "game"  # what an undo takes back with no action left: the new game itself


def enter(ctx, purpose):
    return ""  # nothing typed


def key(ctx, typed, key):
    game = ctx.game
    if key.isdigit():
        points = typed + key
        top = game.limits.max_peg
        if len(points) > len(str(top)) or int(points) > top:
            return Turn(HOME, "", words.bad_points(points, top))
        return Turn(HOME, points)
    if key in PLAYER_KEYS:
        side = PLAYER_KEYS.index(key)
        if side >= game.sides:
            return Turn(HOME, "", words.no_player(key))
        if not typed:
            return Turn(HOME, "", words.points_first(key))
        try:
            return Turn(HOME, "", change=game.propose(game.peg, side, int(typed)))
        except IllegalAction as err:
            return Turn(HOME, "", words.refusal(err))  # the points typed go with the refusal
    if key == "*":
        return Turn(HOME, "") if typed else Turn(UNDO)
    if key == "#":
        if typed:
            return Turn(HOME, typed, words.whose(typed, game))
        return Turn(NEXT if game.over else CARDS)  # a finished game is not left by one key
    if key == "D":
        return Turn(MENU)
    return Turn(HOME, typed)


def prompt(ctx, typed):
    return words.home_prompt(ctx.game, typed)


def undo_enter(ctx, purpose):
    return "" if ctx.game.journal else _GAME


def undo_key(ctx, here, key):
    if key != "#":
        return Turn(HOME, "", words.KEPT)
    if here == _GAME:  # the app reads the game before this one back from the flash
        return Turn(HOME, "", saves=(EARLIER,))
    return Turn(HOME, "", words.UNDONE, change=ctx.game.propose_undo())


def undo_prompt(ctx, here):
    return words.UNDO_NEW_GAME if here == _GAME else words.undo_prompt(ctx.game.journal[-1])


def next_key(ctx, here, key):
    if key == "*":
        return Turn(HOME, "", words.KEPT)
    if key != "#":  # only # and * answer: a digit is not taken for "no"
        return Turn(NEXT, None, words.YES_OR_NO)
    return Turn(HOME, "", change=ctx.game.propose_next(), report=words.new_game)


def next_prompt(ctx, here):
    return words.next_prompt(ctx.game)


MODES = {
    HOME: Mode(key, enter, prompt),
    UNDO: Mode(undo_key, undo_enter, undo_prompt),
    NEXT: Mode(next_key, None, next_prompt),
}
