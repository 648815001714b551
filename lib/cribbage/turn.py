"""cribbage.turn: what one key did, and the names of the modes the keys can be in.

Every mode's handler takes the board's state and a key and returns a Turn: the
mode the keys are in next (with its own state, or what to enter it for), the
engine's Scores, the records to save and what the OLED says. The controller
commits a Turn whole; a handler changes nothing of the board's itself, so a key
that fails half way (even for want of memory) leaves the board as it was.
"""

from cribbage.flashread import BASE, EVENT, NEXT_GAME, SETTINGS, UNDONE  # noqa: F401  (the saves)

# The modes, by name; cribbage.controller's table maps each to its handler.
HOME = "home"          # the scoreboard: points, then whose
CARDS = "cards"        # keying the cards of the hand's step
MUGGINS = "muggins?"   # a claim missed points: does the other side take them?
UNDO = "undo?"
NEXT = "next game?"
MENU = "menu"
FORM = "new game"
REPLACE = "replace?"   # a new game would replace the one under way: yes or no
DEALER = "dealer"
LIGHTS = "lights"
ADVISE = "advise"      # which cards to lay away

# What a turn saves, in order: the flash log's record kinds (the app hands each
# to the store): EVENT the engine action just journalled, UNDONE the last action
# taken back, NEXT_GAME the next game of the match, BASE a Game saved whole,
# SETTINGS the lights; and EARLIER, no record: back to the game before this one.
EARLIER = 8  # read back from the log (cribbage.earlier), then saved as a BASE


class Turn:
    """What a key did. ``here`` is the next mode's own state (never changed once
    made: a mode makes a new one); None lets that mode make it, for ``enter``.
    What most turns leave as it is is the class's (each is only ever replaced,
    never changed in place): a new object's attributes are fewer to set."""

    echo = ""      # the card just keyed, as the OLED writes it
    event = None  # type: bytes | None  # the engine Outcome's event, saved as an EVENT
    scores = ()  # type: tuple  # engine Scores, for the pegs and the message
    saves = ()  # type: tuple  # what to save, in order
    detail = None  # type: list | None  # a show's breakdown, for the rows below the message
    game = None  # type: object  # a new Game, from the menu
    settings = None  # type: object  # new lights settings, from the menu

    def __init__(self, mode, here=None, say="", enter=None):
        self.mode = mode
        self.here = here
        self.enter = enter
        self.say = say      # the message row; "" lets the echo and the scores make it


def acted(turn, outcome):
    """``turn`` after an engine action: its Scores, and its event to save."""
    turn.scores, turn.event, turn.saves = outcome.scores, outcome.event, (EVENT,)
    return turn
