"""engine.stats: what the board remembers of every game, per side.

The statistics are part of a game's state: a flat list, replaced and never
changed in place (Game's undo and atomicity rely on that; a list, since MicroPython
copies one with a slice, where it builds a tuple item by item), folded from each
score as the rule that makes it pegs it (``pegged``, ``heels``, ``shown``,
``ended``: an action that scores nothing costs them nothing, and a boot replays
every action), saved with the state (``to_list``/``from_list``: engine.state)
and kept into the next game; erasing them (an action) puts ZERO back.

Layout: [games] then, for each of SIDES sides, its F counters in order. Every
counter stops at CAP. Their names and the averages, derived, never stored, are
engine.figures' (loaded only where they are shown).
"""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    try:
        from micropython import const
    except ImportError:  # CPython with no stand-ins: a constant is its int
        const = int  # type: ignore[assignment]

from engine.rules import SIDE_NAMES

SIDES = len(SIDE_NAMES)  # kept for every side a game can have, whatever this game's
CAP = const(65535)  # two bytes' worth: a counter stops here

# Per side, the counters in the order they are kept (and saved), each at the
# index named after it (engine.figures.FIELDS names them, in this order; private
# constants: no names kept on the board; tests/test_engine_stats.py checks both).
_WINS = const(0)
_SKUNKS = const(1)
_DOUBLE_SKUNKS = const(2)
_SKUNKED = const(3)
_DOUBLE_SKUNKED = const(4)
_MATCHES = const(5)
_HANDS = const(6)
_HAND_POINTS = const(7)
_CRIBS = const(8)
_CRIB_POINTS = const(9)
_BEST_HAND = const(10)
_HANDS_29 = const(11)
_HANDS_28 = const(12)
_HANDS_24 = const(13)
_NOBS = const(14)
_HEELS = const(15)
_PLAY_POINTS = const(16)
_TYPED_POINTS = const(17)
F = const(18)  # counters a side
ZERO = [0] * (1 + SIDES * F)  # shared: never changed in place

_NOTED = {29: _HANDS_29, 28: _HANDS_28, 24: _HANDS_24}

# What each score adds, called by the rule that makes it (engine.deal, engine.hand),
# inside the action (so undo and a failed action take it back with the rest). Each
# returns new stats: the ones given are never changed.


def _add(out, i, n):
    v = out[i] + n
    out[i] = v if v < CAP else CAP


def pegged(stats, scores, typed):
    """After ``scores`` pegged in the play (cards laid, a go), or ``typed`` by hand."""
    out = stats[:]
    at = 1 + (_TYPED_POINTS if typed else _PLAY_POINTS)
    for s in scores:
        _add(out, at + s.side * F, s.points)
    return out


def heels(stats, side):
    """After his heels, pegged for ``side``."""
    out = stats[:]
    _add(out, 1 + side * F + _HEELS, 1)
    return out


def shown(stats, side, crib, scores, show):
    """After a hand (or the crib, ``crib``) of ``side`` counted as ``show``
    (engine.show's Show), ``scores`` what it pegged (a muggins taken among them)."""
    out = stats[:]
    at = 1 + side * F
    _add(out, at + (_CRIBS if crib else _HANDS), 1)
    for s in scores:  # what the show pegged for its side (not a muggins)
        if s.side == side:
            _add(out, at + (_CRIB_POINTS if crib else _HAND_POINTS), s.points)
    total = show.total
    if total > out[at + _BEST_HAND]:
        out[at + _BEST_HAND] = total
    if total in _NOTED:
        _add(out, at + _NOTED[total], 1)
    items = show.items  # in engine.show's fixed order: his nobs, if any, comes last
    if items and items[-1].kind == "nobs":
        _add(out, at + _NOBS, 1)
    return out


def ended(stats, game):
    """After ``game`` ended (its winner, loser, skunk and match tally set)."""
    out = stats[:]
    _add(out, 0, 1)
    won, lost, level = 1 + game.winner * F, 1 + game.loser * F, game.level
    _add(out, won + _WINS, 1)
    if level == 1:
        _add(out, won + _SKUNKS, 1)
        _add(out, lost + _SKUNKED, 1)
    elif level > 1:  # a triple skunk counts with the doubles
        _add(out, won + _DOUBLE_SKUNKS, 1)
        _add(out, lost + _DOUBLE_SKUNKED, 1)
    if game.match_winner() == game.winner and game.config.match_games > 1:
        _add(out, won + _MATCHES, 1)
    return out


# --- bytes: the games, the number of sides saved, then each side's 3-byte mask
# of the counters not zero and those counters, 7 bits a byte (low first, the
# top bit says another follows): a board of zeros is 2 bytes.

def _put(out, v):
    while v > 0x7F:
        out.append(0x80 | (v & 0x7F))
        v >>= 7
    out.append(v)


def to_list(stats):
    out = []  # type: list
    _put(out, stats[0])
    sides = SIDES
    while sides and not any(stats[1 + (sides - 1) * F:1 + sides * F]):
        sides -= 1
    out.append(sides)
    for s in range(sides):  # one pass a side: this runs at every checkpoint
        at, head, mask = 1 + s * F, len(out), 0
        out.extend((0, 0, 0))
        bit = 1
        for v in stats[at:at + F]:
            if v:
                mask |= bit
                if v > 0x7F:
                    _put(out, v)
                else:
                    out.append(v)
            bit <<= 1
        out[head], out[head + 1], out[head + 2] = mask & 0xFF, (mask >> 8) & 0xFF, mask >> 16
    return out


def _get(data, pos):
    v, shift = 0, 0
    while True:
        b = data[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        if not b & 0x80:
            break
        shift += 7
        if shift > 14:
            raise ValueError("a counter too long")
    if v > CAP:
        raise ValueError("a counter past its cap")
    return v, pos


def from_list(data, pos):
    """(stats, pos after them) from to_list() values at data[pos];
    ValueError (or IndexError) if they are not."""
    out = [0] * len(ZERO)
    out[0], pos = _get(data, pos)
    sides = data[pos]
    pos += 1
    if sides > SIDES:
        raise ValueError("stats for %d sides" % sides)
    for s in range(sides):
        mask = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16
        pos += 3
        if mask >> F:
            raise ValueError("an unknown counter")
        for i in range(F):
            if mask >> i & 1:
                out[1 + s * F + i], pos = _get(data, pos)
    return out, pos
