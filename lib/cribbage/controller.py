"""cribbage.controller: a key to the mode's handler, its Turn committed whole, and the face made.

The modes' table: each mode's record (cribbage.turn.Mode) is its handler's
module's (scoreboard, entry; the menu's pages and the advice come in the first
time one opens, not at boot: fewer modules to load then, and less heap held).
No handler imports another: a handler names the next mode and the controller
enters it. The controller is the handlers' context: ``game``, ``settings``,
``tracks`` and ``message`` are read there, never written by a handler. At
commit it applies the Turn (the engine Change first) and makes the face
(cribbage.view.Face): what the LEDs and the OLED show, plain values.
"""

from engine.errors import IllegalAction
from cribbage import entry, scoreboard, words
from cribbage.turn import ADVISE, BASE, CARDS, ERASE_STATS, HOME, MUGGINS, STATS, Turn
from cribbage.view import make_face

_PLAYING = (CARDS, MUGGINS)  # modes a finished game leaves for the scoreboard


def _mode(name):
    """The Mode called ``name`` (its module imported the first time: the one
    other late import is Store.earlier's)."""
    found = scoreboard.MODES.get(name) or entry.MODES.get(name)
    if found is not None:
        return found
    if name == ADVISE:
        from cribbage import advise
        return advise.MODES[name]
    if name == STATS or name == ERASE_STATS:
        from cribbage import stats_page
        return stats_page.MODES[name]
    from cribbage import menu
    return menu.MODES[name]


class Controller:
    def __init__(self, game, settings, tracks):
        self.game = game
        self.settings = settings
        self.tracks = tracks  # LED tracks on the board: the most sides a game can have
        self.mode = HOME
        self.here = ""
        self.message = ""
        self.detail = []  # lines under the message: a show's breakdown, notices at start
        self.detail_rows = []  # the same, wrapped to the screen: (line, start, end) a row
        self.scored = ()
        self.face = None
        self._show(True)

    def press(self, key):
        """Handle one key; the Turn it made (already committed)."""
        try:
            turn = _mode(self.mode).key(self, self.here, key)
        except IllegalAction as err:
            turn = Turn(self.mode, self.here, words.refusal(err))
        self.commit(turn)
        return turn

    def commit(self, turn):
        """Apply ``turn``: the engine Change (nothing else is changed if it
        fails), the new game or settings, the next mode; then the face."""
        if turn.change is not None:
            self.game.commit(turn.change)
        if turn.game is not None:
            self.game = turn.game
        if turn.settings is not None:
            self.settings = turn.settings
        game = self.game
        mode, here = turn.mode, turn.here
        if game.over and mode in _PLAYING:
            mode, here = HOME, None
        if here is None:
            enter = _mode(mode).enter
            here = enter(self, turn.enter) if enter is not None else None
        self.mode, self.here = mode, here
        self.scored = turn.scores  # the last key's Scores
        if turn.say:
            self.message = turn.say
        elif turn.report is not None:
            self.message = turn.report(game)
        else:
            self.message = words.said(game, turn.echo, turn.scores)
        if turn.detail or self.detail:  # (most keys have none, and had none)
            self._detail(turn.detail or [])
        try:
            self._show(turn.saves)
        except MemoryError:  # the key is kept: its face is made when next drawn
            self.face = None

    def shown(self):
        """The face to draw (made now if a commit could not make it)."""
        if self.face is None:
            self._show(True)
        return self.face

    def say(self, text):
        """A message from the board itself (not a key): keys lost, not saved."""
        self.message = text
        self._show(False)

    def tell(self, lines):
        """Lines for the rows under the message: notices of what was not kept."""
        self._detail(lines)
        self._show(False)

    def _detail(self, lines):
        self.detail = lines
        rows = []  # (line, start, end): each row's text is made when it is shown
        for line in lines:
            for start, end in words.breaks(line):
                rows.append((line, start, end))
        self.detail_rows = rows

    def _show(self, changed):
        """The face for now: a menu page, or the scoreboard with the mode's prompt
        (``changed``: the game or the settings may have; else the pegs' part and
        the game's rows are the last face's)."""
        mode = _mode(self.mode)
        page = mode.page(self, self.here) if mode.page is not None else None
        prompt = mode.prompt(self, self.here) if page is None else None
        self.face = make_face(self.game, self.settings, self.tracks, page, prompt,
                              self.message, self.detail_rows, None if changed else self.face)

    def marker(self):
        """What a key may have changed of the game, to tell if one that failed did."""
        game = self.game
        return game, game.moves

    def lost(self, marker, say, stay=False):
        """A key failed: say so, back on the scoreboard; if it had changed the game,
        keep the game and save it whole. ``stay``: if the game is as it was, the
        keys stay where they were too (the key can simply be pressed again)."""
        if stay and marker == self.marker():
            turn = Turn(self.mode, self.here, say)
        else:
            turn = Turn(HOME, None, say, saves=(BASE,) if marker != self.marker() else ())
        self.commit(turn)
        return turn
