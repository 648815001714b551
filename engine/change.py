"""engine.change: a proposed action, the record game.propose() returns.

Game.commit(change) keeps it with no rule run again; Game.peek(change, look)
shows what it leaves without keeping it.
"""

from engine.hand import OVER

# What a Change does to the journal when it is committed.
ACTION = 0  # an action: its event is journalled
UNDO = 1    # the last action taken back (its event is the one undone)
NEXT = 2    # the next game of the match: the journal starts again


class Change:
    """A proposed action: ``kind``, the engine ``outcome``, and the state it
    leaves (``after``, in the order of Game._kept). Made, never changed;
    ``game.commit`` keeps it while the game is still where it was proposed."""

    def __init__(self, kind, outcome, after, at):
        self.kind = kind
        self.outcome = outcome
        self.after = after
        self.at = at  # the game's moves when proposed: a later commit is refused

    @property
    def phase(self):  # the hand's step after it
        return self.after[3]

    @property
    def starter(self):
        return self.after[6]

    @property
    def over(self):
        return self.after[3] == OVER
