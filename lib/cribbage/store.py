"""cribbage.store: the game and the settings, kept as a log in the nvm flash sector.

The RP2040's nvm is one 4096-byte sector: writing bytes that read 0xFF programs
them; any other write erases the sector (~100,000 erases wear it out) and
programs it all again. So records are appended into the erased bytes:

    header  b"CRB", VERSION, generation (2 bytes; +1 per compaction)
    record  length (1 byte; 0x80|high, low from 128), kind, payload, check

check: CRC-8 (poly 0x07) of length, kind and payload, 0x00 in place of 0xFF so
an unprogrammed check never passes. A length is never 0xFF: the erased end.
Kinds: BASE (state.to_bytes of a game), EVENT (its last journal event), UNDO,
NEXT_GAME, SETTINGS (the app's bytes; the last wins). Loading replays the
records after the last BASE, up to the first torn, garbled or refused one. A
record that does not fit, or a torn tail, makes the store compact: one erase,
then the header, the settings and a BASE of the game now.

A power cut during an append leaves the game before the action, or after it
once the check byte is in. The limit of one sector: a cut from the start of a
compaction's erase until its BASE is programmed wipes the sector and the board
starts afresh. So the store compacts only when it must, or at the start of a
game once the log is half full, when least is at stake. A game whose undo
history outgrows half the sector loses that history (not its state) there.
"""

from micropython import const

from engine import state
from engine.game import Game

MAGIC = b"CRB"
VERSION = 1  # of this log; a sector in any other format is started afresh
HEADER_SIZE = 6
MAX_SETTINGS = 127  # bytes
BASE, EVENT, UNDO, NEXT_GAME, SETTINGS = 1, 2, 3, 4, 5

_ERASED = const(0xFF)


def _crc_table():
    table = bytearray(256)
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c << 1) ^ (0x107 if c & 0x80 else 0)  # x^8 + x^2 + x + 1
        table[i] = c
    return bytes(table)


_CRC_TABLE = _crc_table()


def check_byte(data, stop):
    """The check of data[:stop]: CRC-8, never 0xFF."""
    c = 0
    for i in range(stop):
        c = _CRC_TABLE[c ^ data[i]]
    return 0 if c == _ERASED else c


def pack(kind, payload):
    """One record as a bytearray."""
    n = len(payload)
    head = bytes((n,)) if n < 0x80 else bytes((0x80 | (n >> 8), n & 0xFF))
    rec = bytearray(head)
    rec.append(kind)
    rec.extend(payload)
    rec.append(check_byte(rec, len(rec)))
    return rec


def header(generation):
    return MAGIC + bytes((VERSION, (generation >> 8) & 0xFF, generation & 0xFF))


class Store:
    """The log in ``nvm`` (``microcontroller.nvm``, or a fake with its slices).

    The store follows the game object it last loaded or was given, and the
    last settings, so that a compaction can write them whole.
    """

    def __init__(self, nvm):
        self.nvm = nvm
        self.erases = 0         # compactions that erased the sector
        self.bytes_written = 0  # header and record bytes (not the erased fill)
        self.generation = 0
        self._game = None  # type: Game | None
        self._count = 0     # the game's journal length that the log holds
        self._over = False  # the game was over at its last record
        self._settings = None  # type: bytes | None
        self._end = -1      # where the next record goes; -1: not read yet
        self._dirty = False  # bytes from _end on are not erased: compact first
        self.notices = []  # type: list  # what was lost or trimmed, for the OLED

    def load(self):
        """(game or None, settings bytes or None); never raises."""
        self._game = self._settings = None
        try:
            self._load()
        except Exception:  # anything unreadable: a fresh board, not a crash
            self._game = self._settings = None
            self._end, self._dirty = 0, True
        self._synced()
        return self._game, self._settings

    def _load(self):
        head = self.nvm[0:HEADER_SIZE]
        pos = end = 0
        base = kept = settings = -1
        if bytes(head[0:4]) == header(0)[0:4]:
            self.generation = (head[4] << 8) | head[5]
            pos = HEADER_SIZE
            rec = self._record_at(pos)
            while rec is not None:
                if rec[0] == BASE:
                    base, kept = pos, settings
                elif rec[0] == SETTINGS:
                    settings = pos
                pos = rec[2]
                rec = self._record_at(pos)
            end = pos
        if base >= 0:
            settings, pos = kept, base
            while pos < end:
                kind, payload, nxt = self._record_at(pos)
                if kind == SETTINGS:
                    settings = pos
                elif not self._replay(kind, payload):
                    break
                pos = nxt
            end = pos
        if settings >= 0:
            self._settings = bytes(self._record_at(settings)[1])
        self._end, self._dirty = end, False
        nvm = self.nvm
        size = len(nvm)
        while pos < size:  # anything but erased bytes after the log? (byte reads: no garbage)
            if nvm[pos] != _ERASED:
                self._dirty = True
                break
            pos += 1

    def _record_at(self, pos):
        """(kind, payload, next position) of a sound record at pos, else None."""
        nvm = self.nvm
        size = len(nvm)
        if pos + 3 > size or nvm[pos] == _ERASED:
            return None
        at, n = 1, nvm[pos]
        if n & 0x80:
            at, n = 2, ((n & 0x7F) << 8) | nvm[pos + 1]
        stop = pos + at + n + 2
        if stop > size:
            return None
        data = nvm[pos:stop]
        kind = data[at]
        if not BASE <= kind <= SETTINGS or data[-1] != check_byte(data, len(data) - 1):
            return None
        return kind, data[at + 1:at + 1 + n], stop

    def _replay(self, kind, payload):
        try:
            if kind == BASE:
                self._game = state.from_bytes(Game, bytes(payload))
            elif self._game is None:
                return False
            elif kind == EVENT:
                self._game.replay(bytes(payload))
            elif kind == UNDO:
                self._game.undo()
            else:
                self._game.next_game()
            return True
        except Exception:  # refused by the rules, or not a game at all
            return False

    def free_bytes(self):
        """Erased bytes left for records before the next compaction."""
        self._ready()
        return 0 if self._dirty else len(self.nvm) - max(self._end, HEADER_SIZE)

    # Each record_ call comes after the game in RAM has changed.
    def record_new_game(self, game: Game) -> None:
        """A new Game object (or one the log does not match): a BASE."""
        self._ready()
        self._game = game
        self._synced()
        self._at_game_start(BASE, state.to_bytes(game))

    def record_event(self, game: Game) -> None:
        """The action just accepted: game.journal[-1]."""
        self._ready()
        n = len(game.journal)
        self._follow(game, n == self._count + 1, EVENT, game.journal[-1] if n else b"")

    def record_undo(self):
        """game.undo() was just done on the game the store follows."""
        self._ready()
        game = self._game
        if game is not None:
            self._follow(game, len(game.journal) == self._count - 1, UNDO, b"")

    def record_next_game(self):
        """game.next_game() was just done: the next game of the match."""
        self._ready()
        game = self._game
        if game is not None:
            self._follow(game, self._over and not game.journal and not game.over, NEXT_GAME, b"")

    def record_settings(self, blob):
        """The app's settings (up to MAX_SETTINGS bytes); unchanged ones are not written."""
        self._ready()
        blob = bytes(blob)
        if len(blob) > MAX_SETTINGS:
            raise ValueError("settings of %d bytes; at most %d" % (len(blob), MAX_SETTINGS))
        if blob != self._settings:
            self._settings = blob
            self._append(SETTINGS, blob)

    def _ready(self):
        if self._end < 0:
            self.load()

    def _synced(self):
        game = self._game
        self._count = len(game.journal) if game is not None else 0
        self._over = game is not None and game.over

    def _follow(self, game, follows, kind, payload):
        # A change the log cannot follow from its last record (another game
        # object, a record missed) saves the game whole instead.
        if game is not self._game or not follows:
            self.record_new_game(game)
            return
        self._synced()
        if kind == NEXT_GAME:
            self._at_game_start(kind, payload)
        else:
            self._append(kind, payload)

    def _at_game_start(self, kind, payload):
        # Compacting now puts the least at stake, and spares a mid-game one.
        if self._end > len(self.nvm) // 2:
            self._compact()
        else:
            self._append(kind, payload)

    def _append(self, kind, payload):
        rec = pack(kind, payload)
        at = self._end
        if at == 0:
            rec = bytearray(header(self.generation)) + rec
        stop = at + len(rec)
        if self._dirty or stop > len(self.nvm):
            self._compact()
        else:
            self.nvm[at:stop] = rec
            self._end = stop
            self.bytes_written += len(rec)

    def _compact(self):
        size = len(self.nvm)
        generation = (self.generation + 1) & 0xFFFF
        image = bytearray(header(generation))
        if self._settings is not None:  # first: they survive a cut in the BASE
            image.extend(pack(SETTINGS, self._settings))
        game = self._game
        if game is not None:
            base = pack(BASE, state.to_bytes(game))
            if len(base) > size // 2:
                game.forget_history()  # the undo history no longer fits
                self._synced()
                base = pack(BASE, state.to_bytes(game))
            image.extend(base)
        used = len(image)
        erase = self._dirty or self._end > 0
        # All past the new log must read erased: an erasing write keeps the old bytes.
        stop = size if self._dirty else max(used, self._end)
        image.extend(b"\xff" * (stop - used))
        self.nvm[0:stop] = image
        if erase:
            self.erases += 1
        self.generation = generation
        self._end, self._dirty = used, False
        self.bytes_written += used
