"""cribbage.store: the game and the settings, kept in the nvm sector's flash log.

Records (their kinds and bytes are cribbage.flashread's):
  BASE       a whole game (engine.state.to_bytes): its start and every action since
  EVENT      the action just accepted (the engine Outcome's event)
  UNDONE     the last action taken back
  NEXT_GAME  the next game of the match (written by earlier firmware; still read)
  SETTINGS   the app's bytes; the last wins
A load replays them from the last BASE (a game's start writes one: the game in
play alone). A record that cannot be read costs only itself; a BASE with a flipped
bit is read through it when only one reading the check allows is a game the rules
accept. What could not be kept is said in ``notices`` (for the OLED to show).

The one erase is a compaction: the header, the settings and a BASE of the game now.
A power cut from its erase until that BASE is programmed loses the game (the only
copy), so it is done only at a game's start short of a game's ``room()``, when a
record does not fit at all, or after a load that could not read (or read through
damage) part of the log, judged once so.
"""

import gc

from engine import state
from engine.game import CHECKPOINT_EVERY, Game
from cribbage.flashlog import FlashLog
from cribbage.flashread import BASE, EVENT, NEXT_GAME, SETTINGS, UNDONE, UNREADABLE

MAGIC = b"CRB"
MAX_SETTINGS = 127  # bytes
NO_GAME = "no saved game: new game"
NO_GAME_UNREADABLE = "saved game unreadable: new game"
# A boot replays the game's actions, and for each undo after the last BASE up to
# CHECKPOINT_EVERY more: past this many, the next save is a BASE of the game.
REPLAY_BUDGET = 256
GAME_ROOM, ROOM_FLOOR = 1280, 640  # room(), at most (cards: ~800 a game) and least (pegs: ~450)


class Store:
    """Follows the game object it last loaded or was given, and the settings."""

    def __init__(self, nvm):
        self.nvm = nvm
        self._flash = FlashLog(nvm, MAGIC)  # the sector's log
        self.notices = []  # type: list  # what was lost or trimmed, for the OLED
        self._game = None  # type: Game | None
        self._count = -2  # the game's journal length in the log; -1: not the game; -2: not loaded
        self._settings = None  # type: bytes | None  # the app's
        self._dirty = False    # the app's settings are not in the log
        self._replays = 0      # what a load replays after the last BASE (REPLAY_BUDGET)
        self._clean = False    # the load refused records: the next save compacts
        self._base_at = None   # bytes_written where the game in play's BASE began (room())

    @property
    def erases(self):
        return self._flash.erases

    @property
    def bytes_written(self):
        return self._flash.bytes_written

    def load(self):
        """(game or None, settings bytes or None); never raises."""
        self._game, self._settings, self._dirty = None, None, False
        game = blob = None
        said = [NO_GAME_UNREADABLE]  # if the log cannot be read at all
        for _ in range(2):
            try:
                game, blob, said = self._load()
                break
            except MemoryError:
                gc.collect()  # and once more
            except Exception:
                break
        self.notices.extend(said)
        self._game, self._settings = game, blob
        self._synced()
        return game, blob

    def _load(self):
        base, kept, blob, seen, stale = self._records()
        game = self._checked(BASE, base) if base is not None else None
        count = replays = 0  # game records lost; what their replay costs
        took = None if base is None else len(base) + 4  # room(); an unreadable record: none
        for kind, payload in kept:
            took = None if took is None or kind == UNREADABLE else took + len(payload) + 3
            if game is None or not self._replay(game, kind, payload):
                count += 1
            replays += _cost(kind)
        kept = []  # their bytes freed before the check below
        try:
            if game is not None:
                state.encode(game)  # a state no game can have is no game
        except MemoryError:
            raise
        except Exception:  # damage the check let through made values no game has
            game = None
        f = self._flash
        self._replays, self._clean = replays, count > 0  # refused once, then rewritten
        self._base_at = None if took is None else f.bytes_written - took
        if f.found < 2:  # not a log; or erased: a new board, or a compaction's erase
            # just done (the one sector cannot tell those apart): both are said
            return None, None, [NO_GAME_UNREADABLE if f.found else NO_GAME]
        said = []
        if game is None:
            said.append(NO_GAME_UNREADABLE if seen or f.cut else NO_GAME)
        else:
            if f.old:
                said.append("older save: check the scores")
            if count:
                said.append("1 saved action unreadable" if count == 1 else
                            "%d saved actions unreadable" % count)
            if f.cut:
                said.append("power cut: last action lost")
            if f.changed:  # one flipped bit is read right; more could be misread
                said.append("save repaired: check the scores")
        if stale:
            said.append("saved settings unreadable")
        return game, blob, said

    def _records(self):
        """One read: (the last BASE's payload or None, the game's records after it,
        the last settings, whether a game was saved, whether later settings were
        lost). Only the game's records are kept (a few KB at most): the games
        before it cost nothing to replay."""
        base = blob = None
        kept = []  # type: list
        seen = stale = False
        for kind, payload in self._flash.read(self._checked):
            if kind == BASE:
                base, kept, seen = payload, [], True
            elif kind == SETTINGS:
                blob, stale = payload, False
            else:
                # An unreadable record counts as lost whatever its tag claims,
                # and stales the settings if it claims to be settings.
                stale = stale or kind == UNREADABLE and payload == SETTINGS
                kept.append((kind, payload))
                seen = True
        return base, kept, blob, seen, stale

    def _checked(self, kind, payload):
        """The game a BASE holds, or whether a record of another kind could be
        one this store writes (None or False if not)."""
        try:
            if kind == BASE:
                return state.from_bytes(Game, payload)
            if kind == EVENT:
                state.check_event(payload)
                return True
        except MemoryError:
            raise
        except Exception:  # an older engine format, or not a game at all
            return None
        return not payload if kind == UNDONE or kind == NEXT_GAME else kind == SETTINGS

    def _replay(self, game, kind, payload):
        try:
            if kind == EVENT:
                game.replay(payload)
            elif kind == UNDONE:
                game.undo()
            elif kind == NEXT_GAME:
                game.next_game()
            else:
                return False
            return True
        except MemoryError:
            raise
        except Exception:  # refused by the rules
            return False

    def room(self):
        """Bytes a game's start keeps free: 3/2 of the last game's, GAME_ROOM unknown."""
        room = GAME_ROOM if self._base_at is None else (self.bytes_written - self._base_at) * 3 // 2
        return min(GAME_ROOM, max(ROOM_FLOOR, room))

    def free_bytes(self):
        """Record bytes the next save can append before a compaction."""
        self._ready()
        return self._flash.free_bytes()

    # Each record_ call comes after the game in RAM has changed.
    def record_new_game(self, game: Game) -> None:
        """A new Game object (or one the log does not match): a BASE."""
        self._ready()
        self._game, self._count = game, -1
        self._follow(BASE, state.to_bytes(game), not game.journal and game.hand_no == 0)

    def record_event(self, game: Game, event: bytes) -> None:
        """The action just committed: ``event``, its Outcome's."""
        self._ready()
        if game is not self._game or self._count < 0 or len(game.journal) != self._count + 1:
            self.record_new_game(game)  # a record missed, or another game: saved whole
        else:
            self._follow(EVENT, event, False)

    def record_undo(self):
        """game.undo() was just done on the game the store follows."""
        self._ready()
        game = self._game
        if game is None:
            return
        if (self._count < 0 or len(game.journal) != self._count - 1
                or self._replays + _cost(UNDONE) > REPLAY_BUDGET):
            self.record_new_game(game)
        else:
            self._follow(UNDONE, b"", False)

    def record_next_game(self):
        """game.next_game() was just done: a BASE of it (a load replays it alone)."""
        self._ready()
        if self._game is not None:
            self.record_new_game(self._game)

    def record_settings(self, blob):
        """The app's settings (up to MAX_SETTINGS bytes); unchanged ones are not written."""
        self._ready()
        blob = bytes(blob)
        if len(blob) > MAX_SETTINGS:
            raise ValueError("settings of %d bytes; at most %d" % (len(blob), MAX_SETTINGS))
        if blob != self._settings or self._dirty:
            self._settings, self._dirty = blob, True
            self._follow(None, b"", False)  # the settings alone

    def _ready(self):
        if self._count == -2:
            self.load()

    def _synced(self):
        game = self._game
        self._count = len(game.journal) if game is not None else -1

    def _follow(self, kind, payload, start):
        # Settings not yet in the log, then the record; in one write.
        out = []
        if self._dirty:
            out.append((SETTINGS, self._settings))
        if kind is not None:
            out.append((kind, payload))
        # Short of room at a game's start, compact now, when least is at stake; or if full.
        if self._clean or start and self._flash.free_bytes() < self.room() \
                or not self._append(out, False):
            self._compact()

    def _compact(self):
        game = self._game
        out = []
        if self._settings is not None:
            out.append((SETTINGS, self._settings))
        if game is not None:
            base = state.to_bytes(game)
            if len(base) > 1024:
                game.forget_history()  # else the undo history leaves little room for a game
                self.notices.append("undo history trimmed to fit flash")
                base = state.to_bytes(game)
            out.append((BASE, base))
        self._append(out, True)

    def _append(self, out, erase):
        log = self._flash
        done = False
        try:
            if erase:
                log.compact(out)
                done = True
            else:
                done = log.append(out)
        finally:
            # What the log holds now; nothing allocated (this runs when a write raised).
            n = log.written
            if n < 0:  # not known: the game is saved whole next time
                self._count, self._dirty = -1, self._settings is not None
            if erase and n == len(out):
                self._clean, self._replays = False, 0
            for i in range(max(n, 0)):
                kind = out[i][0]
                if kind == SETTINGS:
                    self._dirty = False
                elif kind == BASE:  # the game in play's bytes from here (room())
                    self._replays, self._base_at = 0, log.bytes_written - len(out[i][1]) - 4
                    self._synced()
                else:
                    self._replays += _cost(kind)
                    self._synced()
        return done

    def earlier(self, game: Game):
        """(the game before this one, replayed from the log, or None; what to say); ``game``,
        in play, saved whole first unless the log holds it (the one given back is not)."""
        self._ready()
        if game is not self._game or self._count != len(game.journal):
            self._game, self._count = game, -1
            self._follow(BASE, state.to_bytes(game), False)  # never a start's compaction
        from cribbage.earlier import read_back  # loaded when first asked: less heap at boot
        return read_back(self)


def _cost(kind):  # actions a load applies for it beyond the game's own: an undo's, the undone's
    return CHECKPOINT_EVERY + 1 if kind == UNDONE else 0

