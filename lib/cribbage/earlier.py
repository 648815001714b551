"""cribbage.earlier: the game before the one in play, read back from the flash log.

A new game (or the next of a match) writes a BASE of itself; the records before
it are the game it replaced, so an undo right after a new game can bring that
one back. A game saved whole again (a record missed, a long replay) writes a
BASE too: one from the same start is the same game, unless it has no actions
and the game had some (a new game, then). Loaded by Store.earlier when first
asked, not at boot; what it says is here, as the store's notices are its own.
"""

from engine import state
from cribbage.flashread import BASE, SETTINGS, UNDONE, UNREADABLE

NOTHING_BEFORE = "nothing to undo: no game before this one"
DROPPED = "the game before is gone: erased to make room in the flash"
CANNOT_READ = "the game before cannot be read from the flash"


def read_back(store):
    """(the game before the last game's BASEs, replayed, or None; what to say).
    Reads only."""
    try:
        before = base = None  # the last BASE of each of the last two games
        between, kept, games, acts = [], [], 0, 0  # type: list, list, int, int
        for kind, payload in store._flash.read(store._checked):
            if kind == BASE and base is not None and _same(payload, base, acts):
                base, kept, acts = payload, [], _actions(payload)  # the game saved whole again
            elif kind == BASE or kind == UNREADABLE and (payload == BASE or payload == UNREADABLE):
                # (an unreadable one may have been a BASE: the game after it is not known)
                before, between, base, kept = base, kept, payload if kind == BASE else None, []
                games, acts = games + 1, _actions(payload) if kind == BASE else 0
            elif kind != SETTINGS and not (kind == UNREADABLE and payload == SETTINGS):
                kept.append((kind, payload))
                acts += -1 if kind == UNDONE else 1  # (a record lost counts as an action)
        kept = []
        if base is not None and games < 2:  # the game in play alone
            # A compaction counts its generation: it dropped the games before.
            return None, DROPPED if store._flash.generation else NOTHING_BEFORE
        old = store._checked(BASE, before) if base is not None and before is not None else None
        if old is None:
            return None, CANNOT_READ
        lost = 0
        for kind, payload in between:
            lost += 0 if store._replay(old, kind, payload) else 1
        state.encode(old)  # a state no game can have is no game (raises)
        said = "game back: " + "-".join([str(n) for n in old.scores])
        return old, said + ("; saved actions unreadable: %d" % lost if lost else "")
    except MemoryError:
        raise
    except Exception:  # a record cut short or refused, a state no game has
        return None, CANNOT_READ


# A BASE is state.to_bytes: FORMAT, the start's length, the start, the count of
# actions (2 bytes), the actions.

def _actions(payload):
    n = payload[1] + 2
    return payload[n] << 8 | payload[n + 1]


def _same(payload, base, acts):
    """Whether the BASE ``payload`` is the game ``base`` began, now ``acts``
    actions on: from the same start, with actions, or with none and none taken
    (a new game then would be this one as it stands: nothing told apart)."""
    n = payload[1] + 2
    return payload[:n] == base[:base[1] + 2] and (_actions(payload) > 0 or acts == 0)
