"""cribbage.app: the board's loop: key -> action -> engine -> view -> LEDs and OLED.

`run(board)` takes the object boards/ builds (real hardware or the sim) and
never returns. Any error in a key's handling is shown on the OLED; the game
stays as it was and the loop goes on.
"""

import gc

from engine.game import Game, OVER
from engine.match import (DOUBLE_SKUNK_LINE, SHORT_GAME_HOLE, SHORT_SKUNK_LINE,
                          SKUNK_LINE, TRIPLE_SKUNK_LINE)
from engine.play import NOBODY
from cribbage.keys import LEGEND
from cribbage.menu import menu_lines
from cribbage.pegs import Pegs, elapsed
from cribbage.screen import COLUMNS, PAGES, Screen, pad, wrap
from cribbage.settings import Settings
from cribbage.store import Store
from cribbage.names import side_name
from cribbage.ui import HOME, CARDS, UNDO, MUGGINS, NEXT, Table

SCROLL_MS = 1500
# Said when there may be no memory to build a sentence: made at import.
KEYS_LOST = "keys came too fast: some were lost, check the board"
OUT_OF_MEMORY = "out of memory: that key did nothing"
TAKEN_OUT_OF_MEMORY = "out of memory: the key was taken, check the board"
NOT_SAVED_MEMORY = "out of memory: not saved"
NOT_SAVED = "not saved"
ERROR = "error"
DETAIL_ROWS = 3
_TEXT_MODES = (HOME, CARDS, UNDO, MUGGINS, NEXT)


class View:
    """What the pegs show: plain numbers, rebuilt after every key."""

    def __init__(self, table, tracks):
        game = table.game
        self.target = game.config.target
        self.scores = list(game.scores)
        self.backs = list(game.backs)
        self.dealer_side = game.side_of(game.dealer)
        self.colours = [table.settings.colour(i) for i in range(tracks)]
        self.brightness = table.settings.fraction()
        over = game.phase == OVER
        self.winner = game.winner if over else NOBODY
        self.loser = game.loser if over else NOBODY
        self.loser_skunked = over and game.level > 0
        if self.target == SHORT_GAME_HOLE:
            self.skunk_line = SHORT_SKUNK_LINE
        else:
            self.skunk_line = (0, SKUNK_LINE, DOUBLE_SKUNK_LINE, TRIPLE_SKUNK_LINE)[game.level]

    def key(self):
        return (self.target, tuple(self.scores), tuple(self.backs), self.dealer_side,
                tuple(self.colours), self.brightness, self.winner, self.loser_skunked)


class App:
    def __init__(self, board):
        self.board = board
        self.store = Store(board.nvm)
        game, blob = self.store.load()
        settings = Settings.from_bytes(blob, Settings.from_board(board.settings))
        if game is None:
            game = Game()
            self.store.record_new_game(game)
        self.table = Table(game, settings)
        self.tracks = len(board.tracks)
        self.table.max_sides = self.tracks
        # What the board could not take or keep is said at start, never silently.
        notices = board.settings.problems + board.settings.unknown()
        if game.sides > self.tracks:
            notices.append(_no_track(game, self.tracks))
        self.table.detail = notices
        hole_map = getattr(board, "hole_map", None) or bytes(range(board.config.LEDS_PER_TRACK))
        self.pegs = Pegs(board.tracks, hole_map, board.config)
        self.screen = Screen(board.display, board.font_path)
        self.detail_at = 0
        self.errors = 0
        self.drawn = None
        self.was_busy = False
        self.scrolling = False  # more detail lines than rows: they scroll
        self.pending = False  # a render is owed (the last one failed)
        self.render()

    def now(self):
        return self.board.ticks_ms()

    def key(self, key):
        table = self.table
        was_over = table.game.phase == OVER
        table.detail = []
        before = table.snapshot()
        for attempt in (1, 2):
            try:
                table.press(key)
                break
            except MemoryError:
                # The engine's actions are whole or nothing; what the key did to the
                # table goes back too, and the key is tried once more after a collection.
                if not table.unchanged(before):
                    self.fail(TAKEN_OUT_OF_MEMORY)  # it took effect: keep it, the save follows
                    break
                table.restore(before)
                if attempt == 2:
                    self.errors += 1
                    table.message = OUT_OF_MEMORY
                gc.collect()
            except Exception as err:  # a bug must not stop the board: say so, keep the game
                self.fail(err)
                break
        self.save()
        now = self.now()
        if table.scored:
            self.pegs.animate(table.scored, now)
        if not table.message:
            said = [table.echo] if table.echo else []
            if table.scored:
                said.append(_scored_text(table))
            table.message = "  ".join(said)
        if not was_over and table.game.phase == OVER:
            game = table.game
            match = game.config.match_games > 1 and game.match_winner() != NOBODY
            self.pegs.celebrate(now, match)
        self.detail_at = now

    def save(self):
        table = self.table
        changes, table.changes = table.changes, []
        i = 0
        retried = False
        while i < len(changes):
            try:
                self._record(changes[i][0])
                i += 1
            except MemoryError:
                if retried:
                    self.errors += 1
                    table.message = NOT_SAVED_MEMORY
                    return
                retried = True  # the store is as before the record: once more
                gc.collect()
            except Exception as err:
                self.errors += 1
                table.message = _said(NOT_SAVED, err)
                return

    def _record(self, kind):
        table = self.table
        if kind == "event":
            self.store.record_event(table.game)
        elif kind == "undo":
            self.store.record_undo()
        elif kind == "next":
            self.store.record_next_game()
        elif kind == "new":
            self.store.record_new_game(table.game)
        else:
            self.store.record_settings(table.settings.to_bytes())

    def fail(self, err):
        """A key or a pass of the loop failed: the scoreboard, and why if it can be said."""
        self.errors += 1
        table = self.table
        table.mode = HOME
        table.entry = None
        table.message = err if isinstance(err, str) else _said(ERROR, err)

    def step(self):
        """One pass of the loop; an error is shown on the OLED and the loop goes on."""
        try:
            self._step()
        except MemoryError:
            # Short of memory while drawing: what the keys did stands; collect and
            # draw it all again on the next pass.
            gc.collect()
            self.errors += 1
            self.redraw()
        except Exception as err:
            self.fail(err)
            try:
                self.screen.draw(self.rows(self.now()))
            except Exception:
                pass  # the OLED itself failed: the watchdog and the next pass remain
            self.drawn = None  # the strips may be half written: redraw them next time

    def redraw(self):
        """Send the strips and every OLED page again at the next render."""
        self.drawn = None
        self.screen.rows = [None] * len(self.screen.rows)
        self.pending = True

    def _step(self):
        self.board.feed_watchdog()
        pressed = False
        keys = self.board.keys
        event = keys.get()
        while event is not None:
            if event.pressed:
                self.key(LEGEND[event.key_number])
                pressed = True
            event = keys.get()
        if keys.overflowed:  # the queue was full: presses were dropped
            keys.clear()
            self.table.message = KEYS_LOST
            pressed = True
        now = self.now()
        busy = self.pegs.busy(now)
        # One more frame after an animation ends puts the pegs back at rest.
        if self.was_busy and not busy:
            self.drawn = None  # the strips still hold the animation's last frame
        if pressed or busy or self.was_busy or self.scrolling or self.pending:
            self.pending = False
            self.render()
        self.was_busy = busy

    def render(self):
        now = self.now()
        view = View(self.table, self.tracks)
        key = view.key()
        if key != self.drawn or self.pegs.busy(now):
            self.pegs.draw(view, now)  # strips only change with the view or a moving peg
            self.drawn = key
        self.screen.draw(self.rows(now))

    def rows(self, now):
        table = self.table
        if table.mode not in _TEXT_MODES:
            lines = menu_lines(table)
            return [("text", lines[i] if i < len(lines) else "") for i in range(PAGES)]
        game = table.game
        # The last peg of each side, the dealer starred; a match's tally at the end.
        tally = "-".join([str(t) for t in game.tally]) if game.config.match_games > 1 else ""
        room = COLUMNS - len(tally) - (1 if tally else 0)
        width = room // game.sides
        last = ""
        for side in range(game.sides):
            cell = "%s+%d" % (side_name(game, side), game.scores[side] - game.backs[side])
            if side == game.side_of(game.dealer):
                cell += "*"
            last += pad(cell, width)
        if tally:
            last = pad(last, COLUMNS - len(tally)) + tally
        status = table.status()
        below = wrap(table.message) if table.message else []
        detail = []
        for line in table.detail:
            detail.extend(wrap(line))
        room = DETAIL_ROWS - len(below)
        self.scrolling = len(detail) > room > 0
        if detail and room > 0:
            steps = len(detail) - room + 1
            first = (elapsed(now, self.detail_at) // SCROLL_MS) % steps if steps > 1 else 0
            below.extend(detail[first:first + room])
        rows = [("scores", tuple(game.scores)), ("bottom",), ("text", last),
                ("text", status), ("text", table.prompt())]
        for i in range(DETAIL_ROWS):
            rows.append(("text", below[i] if i < len(below) else ""))
        return rows

    # What the simulator and the tests read of the running app.
    def oled_lines(self):
        return self.screen.lines()

    @property
    def game(self):
        return self.table.game

    @property
    def mode(self):
        return self.table.mode

    @property
    def message(self):
        return self.table.message

    @property
    def detail(self):
        return list(self.table.detail)

    @property
    def milliamps(self):
        return self.pegs.milliamps

    def busy(self):
        """An animation is still running."""
        return self.pegs.busy(self.now())


def _said(prefix, err):
    """``prefix`` and the error's text; the prefix alone if even that cannot be had."""
    try:
        return prefix + ": " + str(err)
    except MemoryError:
        return prefix


def _no_track(game, tracks):
    names = "/".join([side_name(game, s) for s in range(tracks, game.sides)])
    return ("%s has no track: set CRIBBAGE_TRACKS = %d, or D 1 for a new game"
            % (names, game.sides))


def _scored_text(table):
    parts = []
    for s in table.scored:
        parts.append("%s+%d %s" % (side_name(table.game, s.side), s.points, " ".join(s.reasons)))
    return ", ".join(parts)


def run(board):
    app = App(board)
    while True:
        app.step()
