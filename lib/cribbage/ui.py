"""cribbage.ui: the table's key presses turned into game actions.

Modes: the scoreboard (points then a player key), card entry for the step of
the hand (cribbage.entry), the menu and its pages (cribbage.menu), and yes/no
confirmations. Every accepted action is also noted in `changes` so the app
can save it and animate it; a refused one leaves a message and nothing else.
"""

try:
    from typing import Any
except ImportError:
    pass

from engine import state
from engine.errors import IllegalAction
from engine.game import OVER, Game
from engine.play import NOBODY
from engine.match import SKUNK_NAMES
from cribbage.keys import PLAYER_KEYS
from cribbage.names import seat_name, side_name

HOME = "home"
UNDO = "undo?"
MENU = "menu"
CARDS = "cards"
MUGGINS = "muggins?"
NEXT = "next game?"
FORM = "new game"
DEALER = "dealer"
LIGHTS = "lights"

MAX_TYPED = 29


class Table:
    def __init__(self, game=None, settings=None):
        from cribbage.settings import Settings
        self.game = game if game is not None else Game()
        self.settings = settings if settings is not None else Settings()
        self.mode = HOME
        self.typed = ""
        self.message = ""
        self.entry = None  # type: Any
        self.page = None  # type: Any
        self.changes = []   # ("event",) ("undo",) ("new",) ("next",) ("settings",)
        self.scored = []    # Scores of the last key, for the OLED and the pegs
        self.detail = []    # the last show's breakdown, for the OLED
        self.echo = ""      # the card just keyed, as the OLED shows it
        self.max_sides = 3  # tracks on the board

    # --- one key ---------------------------------------------------------
    def snapshot(self):
        """What a key may change besides the game: taken before it, to go back to."""
        e = self.entry
        entry = None if e is None else (e.purpose, e.rank, list(e.known), list(e.cards), e.claim,
                                        e.claiming, e.late, e.muggins_prompt)
        page = None if self.page is None else list(self.page)
        return (self.game, len(self.game.journal), self.mode, self.typed, entry, page,
                self.settings.brightness, self.settings.palette)

    def unchanged(self, snap):
        """Nothing to save happened since ``snap``: the game and lights are as they were."""
        return (not self.changes and self.game is snap[0] and len(self.game.journal) == snap[1]
                and (self.settings.brightness, self.settings.palette) == (snap[6], snap[7]))

    def restore(self, snap):
        self.mode, self.typed, entry, page = snap[2], snap[3], snap[4], snap[5]
        self.entry = None
        if entry is not None:
            from cribbage.entry import Entry
            e = self.entry = Entry(entry[0], entry[2], entry[6])
            e.rank, e.cards, e.claim, e.claiming, e.muggins_prompt = (
                entry[1], entry[3], entry[4], entry[5], entry[7])
        self.page = page
        self.message = self.echo = ""
        self.scored = []

    def press(self, key):
        self.message = ""
        self.echo = ""
        self.scored = []
        try:
            handler = _HANDLERS[self.mode]
            handler(self, key)
        except IllegalAction as err:
            self.message = str(err)

    def act(self, action, *args):
        """Run a journalled game action; note the change; keep its Scores."""
        result = action(*args)
        self.changes.append(("event",))
        self.scored = result.scores  # every action returns an engine.game.Outcome
        if self.game.phase == OVER:
            self.mode = HOME
            self.entry = None
        return result

    # --- the scoreboard --------------------------------------------------
    def home(self, key):
        game = self.game
        if key.isdigit():
            if len(self.typed) >= 2 or int(self.typed + key) > MAX_TYPED:
                self.message = "%s? a score is 1 to %d" % (self.typed + key, MAX_TYPED)
                self.typed = ""
                return
            self.typed += key
        elif key in PLAYER_KEYS:
            self.peg_typed(key)
        elif key == "*":
            if self.typed:
                self.typed = ""
            elif game.journal:
                self.mode = UNDO
            else:
                self.message = "nothing to undo"
        elif key == "#":
            if self.typed:
                self.message = "whose %s? press %s" % (self.typed, _side_keys(game))
            elif game.phase == OVER:
                self.mode = NEXT  # a finished game is not left by one key
            else:
                from cribbage.entry import open_step
                open_step(self)
        elif key == "D":
            self.typed = ""
            from cribbage.menu import open_menu
            open_menu(self)

    def peg_typed(self, key):
        side = PLAYER_KEYS.index(key)
        typed, self.typed = self.typed, ""
        if side >= self.game.sides:
            self.message = "no player %s in this game" % key
            return
        if not typed:
            self.message = "type the points first, then %s" % key
            return
        self.act(self.game.peg, side, int(typed))

    def next_game(self):
        self.game.next_game()
        self.changes.append(("next",))
        self.message = "new game: %s deals" % seat_name(self.game, self.game.dealer)

    def confirm_next(self, key):
        self.mode = HOME
        if key == "#":
            self.next_game()
        else:
            self.message = "kept"

    def confirm_undo(self, key):
        self.mode = HOME
        if key != "#":
            self.message = "kept"
            return
        self.game.undo()
        self.changes.append(("undo",))
        self.message = "undone"

    # --- what the OLED says ----------------------------------------------
    def status(self):
        """One line: whose turn, what step, or who won."""
        game = self.game
        if game.phase == OVER:
            text = "%s wins" % side_name(game, game.winner)
            if game.level:
                text += " " + SKUNK_NAMES[game.level]
            return text + "!"
        from cribbage.entry import step_status
        return step_status(self)

    def prompt(self):
        """What the keys do now."""
        if self.mode == HOME:
            if self.typed:
                return "%s: then A/B%s  *clr" % (self.typed, "/C" if self.game.sides == 3 else "")
            if self.game.phase == OVER:
                mw = self.game.match_winner()
                if mw != NOBODY and self.game.config.match_games > 1:
                    return "match to %s! #new" % side_name(self.game, mw)
                return "# next game  *undo"
            return "pts+%s #step D menu" % ("A-C" if self.game.sides == 3 else "A/B")
        if self.mode == UNDO:
            return "undo %s? # yes" % undo_text(self.game.journal[-1])
        if self.mode == NEXT:
            mw = self.game.match_winner()
            return "%s? # yes *no" % ("new match" if mw != NOBODY and self.game.config.match_games > 1
                                      else "next game")
        if self.mode == CARDS:
            from cribbage.entry import entry_prompt
            return entry_prompt(self)
        if self.mode == MUGGINS:
            return self.entry.muggins_prompt
        return ""


def _cards(table, key):
    from cribbage.entry import entry_key
    entry_key(table, key)


def _muggins(table, key):
    from cribbage.entry import muggins_key
    muggins_key(table, key)


def _menu(table, key):
    from cribbage.menu import menu_key
    menu_key(table, key)


def _side_keys(game):
    """'A or B', 'A, B or C': the keys that peg for this game's sides."""
    keys = [PLAYER_KEYS[s] for s in range(game.sides)]
    return ", ".join(keys[:-1]) + " or " + keys[-1]


def undo_text(event):
    """The journalled action an undo takes back, in a few words for the prompt."""
    op = event[0]
    if op == state.PEG:
        return "%s+%d" % (PLAYER_KEYS[event[1]] if event[1] < len(PLAYER_KEYS) else "?", event[2])
    if op in (state.STARTER, state.LAY):
        from cribbage.entry import card_text
        return "%s %s" % (card_text(event[1]), "turned" if op == state.STARTER else "laid")
    return _UNDO_WORDS.get(op, "that")


_UNDO_WORDS = {state.GO: "the go", state.SHOW: "the count", state.NEXT: "the skip",
               state.DEALER: "the dealer", state.CUT: "the cut", state.MISDEAL: "misdeal"}

_HANDLERS = {
    HOME: Table.home,
    UNDO: Table.confirm_undo,
    NEXT: Table.confirm_next,
    CARDS: _cards,
    MUGGINS: _muggins,
    MENU: _menu,
    FORM: _menu,
    DEALER: _menu,
    LIGHTS: _menu,
}
