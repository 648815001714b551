"""cribbage.turn: what one key did, the modes the keys can be in, and a mode's record.

Every mode's handler takes the board's state and a key and returns a Turn: the
mode the keys are in next (with its own state, or what to enter it for), the
engine Change it proposes (nothing kept yet), the records to save and what the
OLED says. A handler changes nothing; the controller commits a Turn whole, so
a key that fails half way (even for want of memory) leaves the board as it was.
"""

from engine import change as _engine
from cribbage.flashread import BASE, EVENT, NEXT_GAME, SETTINGS, UNDONE  # noqa: F401  (the saves)

# The modes, by name; cribbage.controller's table maps each to its Mode.
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
STATS = "stats"        # the statistics' pages
ERASE_STATS = "erase stats?"

# What a turn saves, in order: the flash log's record kinds (the app hands each
# to the store): EVENT the engine action just journalled, UNDONE the last action
# taken back, NEXT_GAME the next game of the match, BASE a Game saved whole,
# SETTINGS the lights; and EARLIER, no record: back to the game before this one.
EARLIER = 8  # read back from the log (cribbage.earlier), then saved as a BASE

# A Change's record, by its kind.
_SAVES = {_engine.ACTION: (EVENT,), _engine.UNDO: (UNDONE,), _engine.NEXT: (NEXT_GAME,)}


class Mode:
    """A mode of the keys: ``key(ctx, here, key) -> Turn``; ``enter(ctx, purpose)
    -> here`` (None: the mode has no state of its own); and what the OLED shows:
    ``prompt(ctx, here)``, a row under the scores, or ``page(ctx, here)``, a page."""

    def __init__(self, key, enter=None, prompt=None, page=None):
        self.key = key
        self.enter = enter
        self.prompt = prompt
        self.page = page


class Turn:
    """What a key did: made whole by its handler, never changed after.

    ``here`` is the next mode's own state (None lets the mode make it, for
    ``enter``); ``change`` the engine Change to commit (its Outcome's scores
    peg and its event is saved); ``report(game)`` the message made from the game
    as committed (who deals now), when ``say`` is not given; ``echo`` the card
    just keyed; ``detail`` a show's breakdown; ``game`` and ``settings`` new ones
    from the menu; ``saves`` the records, the change's own unless given."""

    # What a turn does not set is its class's: an instance holds only what it
    # was given (each attribute set on an instance grows its table).
    here = None
    say = ""  # the message row; "" lets the echo and the scores make it
    enter = None
    change = None
    echo = ""
    report = None
    detail = None
    game = None
    settings = None
    saves = ()

    def __init__(self, mode, here=None, say="", enter=None, change=None, echo="",
                 report=None, detail=None, game=None, settings=None, saves=None):
        self.mode = mode
        if here is not None:
            self.here = here
        if say:
            self.say = say
        if enter is not None:
            self.enter = enter
        if change is not None:
            self.change = change
            if saves is None:
                saves = _SAVES[change.kind]
        if echo:
            self.echo = echo
        if report is not None:
            self.report = report
        if detail is not None:
            self.detail = detail
        if game is not None:
            self.game = game
        if settings is not None:
            self.settings = settings
        if saves:
            self.saves = saves

    @property
    def scores(self):
        """The engine Scores the change makes, for the pegs and the message."""
        return self.change.outcome.scores if self.change is not None else ()
