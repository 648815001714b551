"""cribbage.controller: a key to the mode's handler, and its Turn committed whole.

The one table of modes: each has a handler ``key(ctx, here, key) -> Turn``,
how it is entered (``enter(ctx, purpose) -> here``), and what the OLED shows in
it: a prompt row under the scores, or a whole page. No handler imports another:
a handler names the next mode and the controller enters it.

The controller is the handlers' context: ``game``, ``settings``, ``tracks`` and
``message`` are read there, never written by a handler.
"""

from engine.errors import IllegalAction
from cribbage import entry, scoreboard, words
from cribbage.turn import (ADVISE, BASE, CARDS, DEALER, FORM, HOME, LIGHTS, MENU, MUGGINS,
                           NEXT, REPLACE, UNDO, Turn)

_NONE = scoreboard.nothing

# mode: (enter, key, prompt row, whole page); a mode has a prompt or a page.
MODES = {  # type: dict
    HOME: (scoreboard.enter, scoreboard.key, scoreboard.prompt, None),
    UNDO: (scoreboard.undo_enter, scoreboard.undo_key, scoreboard.undo_prompt, None),
    NEXT: (_NONE, scoreboard.next_key, scoreboard.next_prompt, None),
    CARDS: (entry.enter, entry.key, entry.prompt, None),
    MUGGINS: (_NONE, entry.muggins_key, entry.muggins_prompt, None),
    MENU: None, FORM: None, REPLACE: None, DEALER: None,  # the menu: loaded when first opened
    LIGHTS: None,
    ADVISE: None,  # the advice: loaded when first asked for
}


def _mode(mode):
    """The table's entry for ``mode``. The menu's pages, and the advice (with its
    table), come in the first time one opens, not at boot (fewer modules to load
    then, and less heap held). (The one other late import: Store.earlier's.)"""
    found = MODES[mode]
    if found is None and mode == ADVISE:
        from cribbage import advise
        found = MODES[ADVISE] = (advise.enter, advise.key, None, advise.page)
    elif found is None:
        from cribbage import menu
        MODES[MENU] = (_NONE, menu.main_key, None, menu.main_page)
        MODES[FORM] = (_NONE, menu.form_key, None, menu.form_page)
        MODES[REPLACE] = (_NONE, menu.replace_key, None, menu.replace_page)
        MODES[DEALER] = (_NONE, menu.dealer_key, None, menu.dealer_page)
        MODES[LIGHTS] = (_NONE, menu.lights_key, None, menu.lights_page)
        found = MODES[mode]
    return found
_PLAYING = (CARDS, MUGGINS)  # modes a finished game leaves for the scoreboard


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
        self.version = 0  # moves on whenever what the OLED shows may have changed
        self.changes = 0  # moves on whenever the game or the settings may have (all saved)

    def press(self, key):
        """Handle one key; the Turn it made (already committed)."""
        try:
            turn = _mode(self.mode)[1](self, self.here, key)
        except IllegalAction as err:
            turn = Turn(self.mode, self.here, words.refusal(err))
        self.commit(turn)
        return turn

    def commit(self, turn):
        if turn.game is not None:
            self.game = turn.game
        if turn.settings is not None:
            self.settings = turn.settings
        mode, here = turn.mode, turn.here
        if self.game.over and mode in _PLAYING:
            mode, here = HOME, None
        if here is None:
            here = _mode(mode)[0](self, turn.enter)
        self.mode, self.here = mode, here
        self.version += 1
        if turn.saves:
            self.changes += 1
        self.scored = turn.scores  # the last key's Scores
        self.message = turn.say or words.said(self.game, turn.echo, turn.scores)
        self.tell(turn.detail or [])

    def say(self, text):
        """A message from the board itself (not a key): keys lost, not saved."""
        self.message = text
        self.version += 1

    def tell(self, lines):
        """Lines for the rows under the message: notices of what was not kept."""
        self.detail = lines
        rows = []  # (line, start, end): each row's text is made when it is shown
        for line in lines:
            for start, end in words.breaks(line):
                rows.append((line, start, end))
        self.detail_rows = rows
        self.version += 1

    def marker(self):
        """What a key may have changed of the game, to tell if one that failed did."""
        game = self.game
        return game, len(game.journal), game.phase, game.games_played

    def lost(self, marker, say, stay=False):
        """A key failed: say so, back on the scoreboard; if it had changed the game,
        keep the game and save it whole. ``stay``: if the game is as it was, the
        keys stay where they were too (the key can simply be pressed again)."""
        if stay and marker == self.marker():
            turn = Turn(self.mode, self.here, say)
        else:
            turn = Turn(HOME, None, say)
            if marker != self.marker():
                turn.saves = (BASE,)
        self.commit(turn)
        return turn

    def prompt(self):
        """The prompt row of a scoreboard mode, or None on a menu page."""
        show = _mode(self.mode)[2]
        return None if show is None else show(self, self.here)

    def page(self):
        return _mode(self.mode)[3](self, self.here)
