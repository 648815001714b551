"""cribbage.app: the board's loop: key -> controller -> engine -> save -> view -> LEDs and OLED.

``App(board)`` takes the object boards/ builds (real hardware or the sim);
code.py calls its ``step()`` for ever. A key that fails leaves the board as it was and says so; an
error anywhere in a pass of the loop is shown on the OLED and the loop goes on.
"""

import gc

from engine.game import Game
from engine.play import NOBODY
from cribbage import words
from cribbage.controller import Controller
from cribbage.pegs import Pegs
from cribbage.screen import Screen
from cribbage.settings import Settings
from cribbage.store import Store
from cribbage.turn import BASE, EARLIER, EVENT, HOME, NEXT_GAME, SETTINGS, UNDONE, Turn
from cribbage.view import SCROLL_MS

# A collection takes ~13 ms with the app's heap: one is made after each key, in
# the first pass with no key, no peg moving and no answer left to make ahead, so
# that a key's garbage (~1.5 KB) and its answers' (up to 23 KB a pass, an undo's:
# tools/bench_device.py prints both) never fill the heap inside the next key.
# (Asking gc.mem_free walks the heap: about as slow.)


class App:
    def __init__(self, board):
        self.board = board
        self.store = Store(board.nvm)
        game, blob = self.store.load()
        settings = Settings.from_bytes(blob, Settings.from_board(board.settings))
        if game is None:
            game = Game()
            self.store.record_new_game(game)
        self.tracks = len(board.tracks)
        self.ctrl = Controller(game, settings, self.tracks)
        # What the board could not take or keep is said at start, never silently.
        notices = board.settings.problems + board.settings.unknown()
        notices.extend(getattr(self.store, "notices", ()))
        self.store.notices = []  # said now: they go with the next key
        if game.sides > self.tracks:
            notices.append(words.missing_track(game, self.tracks))
        self.ctrl.tell(notices)
        self.legend = board.key_legend
        self.pegs = Pegs(self.tracks, board.write_strip, board.hole_map, board.power,
                         board.ticks_diff)
        self.screen = Screen(board.display, board.font_path)
        self.detail_at = 0
        self.errors = 0
        self.was_busy = False
        self.pending = False  # a render is owed (the last one failed)
        self.shown = None     # (face, scroll step) on the OLED
        self.pegs_of = None   # the View the pegs were last given
        self.drawn = None     # and its key (a new View may show the same)
        self.moved = False    # the view changed: the strips are due a frame
        self.collect = gc.collect  # the idle collection
        # garbage made since it (a key, answers made ahead; the boot's at first)
        self.to_collect = True
        self.render()

    def now(self):
        return self.board.ticks_ms()

    def key(self, key):
        self.to_collect = True
        ctrl = self.ctrl
        before = ctrl.game
        was_over = before.over
        marker = ctrl.marker()
        try:
            turn = ctrl.press(key)
        except MemoryError:
            turn = self._short_of_memory(key, marker)
        except Exception as err:  # a bug must not stop the board: say so, keep the game
            self.errors += 1
            turn = ctrl.lost(marker, _said(words.ERROR, err))
        self.save(turn)
        now = self.now()
        if turn.scores:
            self.pegs.animate(turn.scores, now)
        game = ctrl.game
        if not was_over and game.over and game is before:  # (not a game back from the flash)
            match = game.config.match_games > 1 and game.match_winner() != NOBODY
            self.pegs.celebrate(now, match)
        self.detail_at = now

    def _short_of_memory(self, key, marker):
        # The engine's actions are whole or nothing and a handler changes nothing
        # itself: unless the game moved, the key is tried once more after a collection.
        ctrl = self.ctrl
        self.errors += 1
        if marker == ctrl.marker():
            gc.collect()
            try:
                turn = ctrl.press(key)
                self.errors -= 1
                return turn
            except MemoryError:
                pass
        said = words.OUT_OF_MEMORY if marker == ctrl.marker() else words.TAKEN_OUT_OF_MEMORY
        return ctrl.lost(marker, said, stay=True)

    def save(self, turn):
        saves = turn.saves
        i = 0
        retried = False
        while i < len(saves):
            try:
                self._record(saves[i], turn)
                i += 1
            except MemoryError:
                if retried:
                    self.errors += 1
                    self.ctrl.say(words.NOT_SAVED_MEMORY)
                    return
                retried = True  # the store is as before the record: once more
                gc.collect()
            except Exception as err:
                self.errors += 1
                self.ctrl.say(_said(words.NOT_SAVED, err))
                return
        notices = getattr(self.store, "notices", None)
        if notices:  # the flash lost or trimmed something: say what
            self.ctrl.tell(self.ctrl.detail + notices)
            self.store.notices = []

    def _record(self, kind, turn):
        ctrl = self.ctrl
        if kind == EVENT:
            self.store.record_event(ctrl.game, turn.change.outcome.event)
        elif kind == UNDONE:
            self.store.record_undo()
        elif kind == NEXT_GAME:
            self.store.record_next_game()
        elif kind == BASE:
            self.store.record_new_game(ctrl.game)
        elif kind == SETTINGS:
            self.store.record_settings(ctrl.settings.to_bytes())
        elif kind == EARLIER:
            self._earlier()

    def _earlier(self):
        # The game before this one, read back from the log: saved whole as the
        # game in play, then shown; or why it cannot come back.
        store, ctrl = self.store, self.ctrl
        game, said = store.earlier(ctrl.game)
        if game is None:
            ctrl.say(said)
            return
        store.record_new_game(game)
        ctrl.commit(Turn(HOME, None, said, game=game, saves=(BASE,)))

    def step(self):
        """One pass of the loop: the keys pressed, then a frame if one is due. An
        error is shown on the OLED and the loop goes on. (One function, not two:
        every frame of the board's Python stack counts.)"""
        try:
            self.board.feed_watchdog()
            pressed = False
            keys = self.board.keys
            event = keys.get()
            while event is not None:
                if event.pressed:
                    self.key(self.legend[event.key_number])
                    pressed = True
                event = keys.get()
            if keys.overflowed:  # the queue was full: presses were dropped
                keys.clear()
                self.ctrl.say(words.KEYS_LOST)
                pressed = True
            now = self.now()
            busy = self.pegs.busy(now)
            # One more frame after an animation ends puts the pegs back at rest.
            if self.was_busy and not busy:
                self.moved = True  # the strips still hold the animation's last frame
            idle = not (pressed or busy)
            if not idle or self.was_busy or self.ctrl.shown().scrolls or self.pending:
                self.pending = False
                idle = not self.render() and idle
            if idle:  # nothing else in this pass: one likely key's answer made,
                face = self.ctrl.prepare()
                if face is not False:
                    self.to_collect = True
                    if face:  # and the OLED rows it changes
                        self.screen.ahead(face.rows(0))
                elif self.to_collect:  # none left to make: now rather than in a key
                    self.to_collect = False
                    self.collect()
            self.was_busy = busy
        except MemoryError:
            # Short of memory while drawing: what the keys did stands; collect and
            # draw it all again on the next pass.
            gc.collect()
            self.errors += 1
            self.redraw()
        except Exception as err:
            self.errors += 1
            self.ctrl.lost(self.ctrl.marker(), _said(words.ERROR, err))
            self.redraw()  # the strips may be half written: all again next time
            try:
                self.screen.draw(self.ctrl.shown().rows(0))
            except Exception:
                pass  # the OLED itself failed: the watchdog and the next pass remain

    def redraw(self):
        """Send the strips and every OLED page again at the next render."""
        self.drawn = None
        self.shown = None
        self.pegs_of = None
        self.pegs.fresh = True
        self.screen.rows = [None] * len(self.screen.rows)
        self.pending = True

    def render(self):
        """Draw what changed; whether anything did."""
        # The OLED first: it says what happened; the strips follow (a peg's jump
        # runs after the key anyway).
        now = self.now()
        face = self.ctrl.shown()
        step = self.board.ticks_diff(now, self.detail_at) // SCROLL_MS if face.scrolls else 0
        drew = (face, step) != self.shown
        if drew:
            self.screen.draw(face.rows(step))
            self.shown = (face, step)
        pegs = self.pegs
        view = face.pegs
        if view is not self.pegs_of:  # a face made after the game or the lights changed
            key = view.key()
            if key != self.drawn:
                pegs.show(view)
                self.drawn = key
                self.moved = True
            self.pegs_of = view
        if self.moved or pegs.busy(now):
            pegs.draw(now)  # strips only change with the view or a moving peg
            self.moved = False
            drew = True
        return drew

    # What the simulator and the tests read of the running app.
    def oled_lines(self):
        return self.screen.lines()

    @property
    def game(self):
        return self.ctrl.game

    @property
    def mode(self):
        return self.ctrl.mode

    @property
    def message(self):
        return self.ctrl.message

    @property
    def detail(self):
        return list(self.ctrl.detail)

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
