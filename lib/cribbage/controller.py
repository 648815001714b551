"""cribbage.controller: a key to the mode's handler, its Turn committed whole, and the face made.

The modes' table: each mode's record (cribbage.turn.Mode) is its handler's
module's (scoreboard's at boot; card entry's, the menu's pages, the advice and
the stats come in the first time one opens, not at boot: fewer modules to load
before the first frame, and less heap held by those a board never opens).
No handler imports another: a handler names the next mode and the controller
enters it. The controller is the handlers' context: ``game``, ``settings``,
``tracks`` and ``message`` are read there, never written by a handler. At
commit it applies the Turn (the engine Change first) and makes the face
(cribbage.view.Face): what the LEDs and the OLED show, plain values.

The answer before the key: a handler changes nothing, so while the board
waits, the Turns of the keys most likely next (a suit after a rank, a side
after points, the # of a claim, a go, an undo or the next game) are made one a
pass (``prepare``), with what their commit makes (the mode, the message, the
face: ``_after``, on the game as the Turn leaves it, seen through Game.peek;
an action's only), and the one pressed is committed as made. Any commit or
message drops them.
"""

if __debug__:  # for mypy; mpy-cross -O3 compiles it out of the board's .mpy
    try:
        from typing import Any  # noqa: F401  (used in type comments, which ruff does not read)
    except ImportError:
        pass

from engine.change import ACTION
from engine.errors import IllegalAction
from engine.hand import PLAY
from cribbage import scoreboard, words
from cribbage.keys import PLAYER_KEYS, SUIT_KEYS
from cribbage.turn import (ADVISE, BASE, CARDS, ERASE_STATS, HOME, MUGGINS, NEXT, STATS, UNDO,
                           Turn)
from cribbage.view import make_face

_PLAYING = (CARDS, MUGGINS)  # modes a finished game leaves for the scoreboard


def _mode(name):
    """The Mode called ``name`` (its module imported the first time: the one
    other late import is Store.earlier's)."""
    found = scoreboard.MODES.get(name)
    if found is not None:
        return found
    if name == CARDS or name == MUGGINS:  # (made ahead: the # on the scoreboard)
        from cribbage import entry
        return entry.MODES[name]
    if name == ADVISE:
        from cribbage import advise
        return advise.MODES[name]
    if name == STATS or name == ERASE_STATS:
        from cribbage import stats_page
        return stats_page.MODES[name]
    from cribbage import menu
    return menu.MODES[name]


def _rows(lines):
    rows = []  # (line, start, end): each row's text is made when it is shown
    for line in lines:
        for start, end in words.breaks(line):
            rows.append((line, start, end))
    return rows


class _Seen:
    """What a page or a prompt reads (the handlers' context) with the message a
    commit is about to show: its face is made before anything is changed."""

    def __init__(self, ctrl, message):
        self.game, self.settings, self.tracks = ctrl.game, ctrl.settings, ctrl.tracks
        self.message = message


class Controller:
    def __init__(self, game, settings, tracks):
        self.game = game
        self.settings = settings
        self.tracks = tracks  # LED tracks on the board: the most sides a game can have
        self.mode = HOME
        self.here = ""  # type: Any  # the mode's own state: digits typed, an Entry, ...
        self.message = ""
        self.detail = []  # lines under the message: a show's breakdown, notices at start
        self.detail_rows = []  # the same, wrapped to the screen: (line, start, end) a row
        self.scored = ()
        self.face = None
        self.ready = {}  # key: the Turn it makes now (None: made when pressed)
        self.after = {}  # key: what committing its Turn makes (see _after), if made
        self.ready_at = None  # what the handlers read when they were made
        self._show(True)

    def press(self, key, keep=True):
        """Handle one key; the Turn it made, committed (``keep`` False: only made,
        for ``prepare``; a handler changes nothing, so neither does that)."""
        turn = self.ready.get(key) if keep and self.ready_at == self._now() else None
        after = self.after.get(key) if turn is not None else None
        if turn is None:
            try:
                turn = _mode(self.mode).key(self, self.here, key)
            except IllegalAction as err:
                turn = Turn(self.mode, self.here, words.refusal(err))
        if keep:
            self.commit(turn, after)
        return turn

    def _now(self):
        game = self.game
        return game, game.moves, self.mode, self.here, self.settings, self.message

    def likely(self):
        """The keys most likely next, whose Turns are worth making before they come."""
        here = self.here
        if self.mode == CARDS:
            if here.rank:
                return SUIT_KEYS
            if here.claiming or here.purpose == PLAY:
                return "#"  # the claim made (a show counted), or a go
            return ""
        if self.mode == HOME:  # points typed: whose; else the # to the cards
            return PLAYER_KEYS[:self.game.sides] if here else "#"
        if self.mode == UNDO or self.mode == NEXT:  # the yes of an undo, of the next game
            return "#"
        return ""

    def prepare(self):
        """Make one likely key's Turn; the face its commit makes (None if not
        made ahead), or False when there is none left to make."""
        likely = self.likely()
        if not likely:
            return False
        ready, now = self.ready, self._now()
        if self.ready_at != now:  # made for a board gone (or none made yet)
            ready = self.ready = {}
            self.after = {}
            self.ready_at = now
        for key in likely:
            if key not in ready:
                try:
                    turn = ready[key] = self.press(key, False)
                    change = turn.change
                    if turn.game is None and turn.settings is None and (
                            change is None or change.kind == ACTION):
                        self.after[key] = (self._after(turn) if change is None else
                                           self.game.peek(change, lambda: self._after(turn)))
                except MemoryError:
                    self.ready, self.after = {}, {}  # short: the keys are answered when pressed
                    return False
                except Exception:
                    ready[key] = None  # an error is the pressed key's to report
                after = self.after.get(key)
                return after[4] if after is not None else None
        return False

    def unprepared(self):
        """Whether a likely key's answer is still to be made."""
        ready = self.ready if self.ready_at == self._now() else {}
        for key in self.likely():
            if key not in ready:
                return True
        return False

    def commit(self, turn, after=None):
        """Apply ``turn``: the engine Change (nothing else is changed if it
        fails), the new game or settings; then what ``_after`` makes of it (the
        next mode, the message, the face), or ``after``, made so ahead."""
        if self.ready:
            self.ready, self.after = {}, {}
        self.ready_at = None  # (nor is a game gone held on to)
        if turn.change is not None:
            self.game.commit(turn.change)
        if turn.game is not None:
            self.game = turn.game
        if turn.settings is not None:
            self.settings = turn.settings
        if after is None:
            after = self._after(turn)
        self.mode, self.here, self.message, detail, self.face = after
        if detail is not None:
            self.detail, self.detail_rows = detail
        self.scored = turn.scores  # the last key's Scores

    def _after(self, turn):
        """(mode, here, message, (detail, its rows) or None when unchanged,
        face) for ``turn`` on the game as it leaves it; nothing changed here."""
        game = self.game
        mode, here = turn.mode, turn.here
        if game.over and mode in _PLAYING:
            mode, here = HOME, None
        if here is None:
            enter = _mode(mode).enter
            here = enter(self, turn.enter) if enter is not None else None
        if turn.say:
            message = turn.say
        elif turn.report is not None:
            message = turn.report(game)
        else:
            message = words.said(game, turn.echo, turn.scores)
        detail = None
        rows = self.detail_rows
        if turn.detail or self.detail:  # (most keys have none, and had none)
            lines = turn.detail or []
            rows = _rows(lines)
            detail = (lines, rows)
        try:
            face = self._face(mode, here, message, rows, turn.saves)
        except MemoryError:  # the key is kept: its face is made when next drawn
            face = None
        return mode, here, message, detail, face

    def shown(self):
        """The face to draw (made now if a commit could not make it)."""
        if self.face is None:
            self._show(True)
        return self.face

    def say(self, text):
        """A message from the board itself (not a key): keys lost, not saved."""
        self.message = text
        self.ready, self.after, self.ready_at = {}, {}, None
        self._show(False)

    def tell(self, lines):
        """Lines for the rows under the message: notices of what was not kept."""
        self.detail, self.detail_rows = lines, _rows(lines)
        self.ready, self.after, self.ready_at = {}, {}, None
        self._show(False)

    def _show(self, changed):
        self.face = self._face(self.mode, self.here, self.message, self.detail_rows, changed)

    def _face(self, name, here, message, rows, changed):
        """The face of mode ``name``: a menu page, or the scoreboard with the
        mode's prompt (``changed``: the game or the settings may have; else the
        pegs' part and the game's rows are the last face's)."""
        mode = _mode(name)
        seen = self if message == self.message else _Seen(self, message)
        page = mode.page(seen, here) if mode.page is not None else None
        prompt = mode.prompt(seen, here) if page is None else None
        return make_face(self.game, self.settings, self.tracks, page, prompt, message, rows,
                         None if changed else self.face)

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
