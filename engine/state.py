"""engine.state: a game as bytes (for the board's flash) and its event codes.

A saved game is a snapshot of the state when the game began followed by the
journal of actions since, each a few bytes: replaying them rebuilds the game
exactly, undo history included. Every value is one byte (0..255). This module
reads and writes the bytes; engine.game applies them, through Game.load() and
Game.replay().
"""

from array import array
from collections import namedtuple

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    try:
        from micropython import const
    except ImportError:  # CPython with no stand-ins: a constant is its int
        const = int  # type: ignore[assignment]

from engine.cards import DECK_SIZE
from engine.errors import BadSave, IllegalAction
from engine.pegging import MAX_COUNT, pile_count
from engine.hand import OVER, PHASE_NAMES, PLAY
from engine.play import NOBODY, Play
from engine.rules import Config, check_config, hand_size, has_crib, sides_of
from engine import stats as _stats

FORMAT = const(3)  # bump when the layout below changes; older data is refused
READS = (2, 3)  # 2: before the stats (they read as zero) and the check

# Event codes: the first byte of each journalled action.
PEG = const(1)        # side, points
STARTER = const(2)    # card
LAY = const(3)        # card
GO = const(4)
SHOW = const(5)       # claim (255: none), muggins taken, n, cards...
NEXT = const(6)
DEALER = const(7)     # seat
CUT = const(8)        # n, cards...
MISDEAL = const(9)
ERASE = const(10)     # the statistics back to zero

_ARITY = {PEG: 2, STARTER: 1, LAY: 1, GO: 0, NEXT: 0, DEALER: 1, MISDEAL: 0, ERASE: 0}

# An event as a named record, for what reads the journal without knowing its
# bytes (the board's undo prompt): the kind by name, and what the event names
# (None, or () for cards, where it names nothing).
Action = namedtuple("Action", ("kind", "side", "points", "card", "seat", "claim", "muggins",
                               "cards"))
KIND_NAMES = ("", "peg", "starter", "lay", "go", "show", "next", "dealer", "cut", "misdeal",
              "erase")


def action(event):
    """The journalled ``event`` (its bytes) as an Action: a peg of 5 for side A
    is Action("peg", side=0, points=5, ...), a card laid Action("lay", card=...)."""
    op = event[0]
    side = points = card = seat = claim = muggins = None
    cards = ()  # type: tuple
    if op == PEG:
        side, points = event[1], event[2]
    elif op == STARTER or op == LAY:
        card = event[1]
    elif op == DEALER:
        seat = event[1]
    elif op == SHOW:
        claim = None if event[1] == NOBODY else event[1]
        muggins = event[2] != 0
        cards = tuple(event[4:])
    elif op == CUT:
        cards = tuple(event[2:])
    kind = KIND_NAMES[op] if op < len(KIND_NAMES) else ""
    return Action(kind, side, points, card, seat, claim, muggins, cards)


def check_event(event):
    """Raise BadSave unless `event` is well formed (length, card range)."""
    if not event:
        raise BadSave("empty event")
    op = event[0]
    if op in _ARITY:
        if len(event) != 1 + _ARITY[op]:
            raise BadSave("event %d: %d bytes" % (op, len(event)))
        cards = event[1:] if op in (STARTER, LAY) else ()
    elif op == SHOW:
        if len(event) < 4 or len(event) != 4 + event[3]:
            raise BadSave("show event: bad length")
        cards = event[4:]
    elif op == CUT:
        if len(event) < 2 or len(event) != 2 + event[1]:
            raise BadSave("cut event: bad length")
        cards = event[2:]
    else:
        raise BadSave("unknown event %d" % op)
    for c in cards:
        if not 0 <= c < DECK_SIZE:
            raise BadSave("card %d out of range" % c)


def encode(game, checkpoint=False):
    """The whole state (not the journal) as bytes; for a checkpoint (kept in
    memory, never saved: read(data, True)), the stats 2 bytes each, made in C,
    and no check (their packing and the check are most of a checkpoint's cost)."""
    c = game.config
    out = [FORMAT, c.players, c.target, c.variant, 1 if c.muggins else 0]
    out.extend(c.values)
    out.append(c.match_games)
    out.extend(game.tally)
    out.extend([game.games_played, game.dealer, game.phase, game.hand_no,
                game.show_step, game.starter, game.winner, game.loser, game.level,
                game.last_side])
    out.extend(game.scores)
    out.extend(game.backs)
    out.append(len(game.seen))
    out.extend(game.seen)
    if game.play is None:
        out.append(0)
    else:
        out.append(1)
        out.extend(game.play.to_list())
    if None in out:  # (a search in C: the loop costs more than the rest)
        for i in range(len(out)):
            if out[i] is None:
                out[i] = NOBODY
    if checkpoint:
        return bytes(out) + bytes(array("H", game.stats))
    out.extend(_stats.to_list(game.stats))
    out.append(_check(out))
    return bytes(out)


def sealed(values):
    """The state bytes of ``values`` (a test's, changed): them, then their check."""
    return bytes(values) + bytes((_check(values),))


def _check(values):
    # A state's last byte: the sum of those before it, mod 255. The flash log's
    # CRC-8 repairs a flipped bit in a long record only when one of the bits it
    # could be (127 apart) gives a state the rules accept, and the statistics'
    # counters take nearly any value: this tells, as one flipped bit, or two 127
    # apart (never at the same place in their bytes), always changes it.
    return sum(values) % 255


def read(data, checkpoint=False):
    """(config, fields) from encode() bytes, fields in the order the bytes
    hold them: (tally, games_played, dealer, phase, hand_no, show_step,
    starter, winner, loser, level, last_side, scores, backs, seen, play,
    stats); a state of FORMAT 2 (before the stats and the check) reads with
    stats zero; a checkpoint's bytes (encode(game, True)) with ``checkpoint``.
    BadSave if its check (sealed) fails or they are not a state the rules can
    reach."""
    try:
        if data[0] not in READS:
            raise BadSave("saved state format %d, this board reads %d" % (data[0], FORMAT))
        end = len(data)
        stats = _stats.ZERO
        if checkpoint:
            end -= 2 * len(stats)
            stats = list(array("H", data[end:]))
        elif data[0] == FORMAT:
            end -= 1
            if _check(data[:end]) != data[end]:
                raise BadSave("saved state fails its check")
        players, target, variant, muggins = data[1], data[2], data[3], data[4]
        config = Config(players, target, variant, bool(muggins), tuple(data[5:9]), data[9])
        check_config(config)
        sides = sides_of(players)
        pos = 10
        tally = list(data[pos:pos + sides])
        pos += sides
        fields = list(data[pos:pos + 10])
        pos += 10
        scores = list(data[pos:pos + sides])
        backs = list(data[pos + sides:pos + 2 * sides])
        pos += 2 * sides
        n = data[pos]
        seen = list(data[pos + 1:pos + 1 + n])
        pos += 1 + n
        play = None
        if data[pos]:
            play, pos = Play.from_list(data, pos + 1)
        else:
            pos += 1
        if data[0] == FORMAT and not checkpoint:
            stats, pos = _stats.from_list(data, pos)
        if pos != end or len(fields) != 10 or len(backs) != sides:
            raise BadSave("saved state has the wrong length")
        _check_state(config, sides, fields, scores, seen, play)
    except (IndexError, ValueError, IllegalAction) as err:
        raise BadSave("not a saved game: %s" % err)
    return config, tuple([tally] + fields + [scores, backs, seen, play, stats])


def _check_state(config, sides, fields, scores, seen, play):
    """BadSave unless the decoded fields make a state the rules can reach."""
    dealer, phase, show_step, starter = fields[1], fields[2], fields[4], fields[5]
    winner, loser, level, last_side = fields[6], fields[7], fields[8], fields[9]
    players = config.players
    if dealer >= players or phase >= len(PHASE_NAMES) or level > 3:
        raise BadSave("bad dealer, phase or skunk")
    # A game ends the moment a score reaches the target.
    if phase != OVER and max(scores) >= config.target:
        raise BadSave("a score past the target in a game not over")
    if show_step > players + (1 if has_crib(config) else 0):
        raise BadSave("bad show step")
    for side in (winner, loser, last_side):
        if side != NOBODY and side >= sides:
            raise BadSave("bad side")
    _check_cards(seen)
    if starter != NOBODY and starter >= DECK_SIZE:
        raise BadSave("bad starter")
    if play is None:
        if phase == PLAY:
            raise BadSave("the play is missing")
        return
    seats = play.seats
    if seats != players or play.passed >> seats:
        raise BadSave("bad play")
    if play.turn != NOBODY and (play.turn >= seats or not play.left[play.turn]):
        raise BadSave("bad turn")
    if play.last != NOBODY and play.last >= seats:
        raise BadSave("bad last player")
    _check_cards(play.pile)
    if play.count != pile_count(play.pile) or play.count > MAX_COUNT:
        raise BadSave("bad count")
    size = hand_size(config)
    for seat in range(seats):
        _check_cards(play.laid[seat])
        if play.left[seat] + len(play.laid[seat]) != size:
            raise BadSave("bad hand")


def _check_cards(cards):
    for i in range(len(cards)):
        if cards[i] >= DECK_SIZE or cards[i] in cards[:i]:
            raise BadSave("bad card")


def to_bytes(game):
    """Snapshot at the game's start + the journal: everything, undo included.

    FORMAT, snapshot length, snapshot, event count (2 bytes), then each event
    as its length and its bytes: a save cut short anywhere is refused.
    """
    base = game.start()
    out = bytearray([FORMAT, len(base)])
    out.extend(base)
    count = len(game.journal)
    out.append(count >> 8)
    out.append(count & 0xFF)
    for event in game.journal:
        out.append(len(event))
        out.extend(event)
    return bytes(out)


def from_bytes(game_class, data):
    """Rebuild a Game from to_bytes() output; BadSave for anything else."""
    if len(data) < 2 or data[0] not in READS:
        raise BadSave("not a saved game (format)")
    n = data[1]
    game = game_class()
    game.load(bytes(data[2:2 + n]))
    pos = 2 + n
    if pos + 2 > len(data):
        raise BadSave("saved game cut short")
    count = (data[pos] << 8) | data[pos + 1]
    pos += 2
    while pos < len(data):
        size = data[pos]
        event = bytes(data[pos + 1:pos + 1 + size])
        if len(event) != size:
            raise BadSave("saved game cut short")
        try:
            game.replay(event)
        except IllegalAction as err:
            raise BadSave("saved game does not replay: %s" % err)
        pos += 1 + size
    if len(game.journal) != count:
        raise BadSave("saved game cut short: %d of %d actions" % (len(game.journal), count))
    return game
