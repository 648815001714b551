"""engine.game: one game (and the match it belongs to), action by action.

Each action is checked, then done (engine.hand: the play and the show;
engine.deal: who deals; here the next game and the journal), journalled
as a few bytes (engine.state) so that it can be undone, saved to flash and
replayed, and returns an Outcome: the event journalled and what it scored.
An action applies wholly or not at all: whatever it raises, a refusal or a
MemoryError halfway through, the game and its journal are as they were.

``propose(action, ...)`` (and ``propose_undo()``, ``propose_next()``) runs an
action without keeping it and returns a Change, the record of what it would
do; ``commit(change)`` keeps it, with no rule run again (a key's handler
proposes, only the controller commits). ``preview`` and ``refusal`` ask too.
"""

from engine.change import ACTION, NEXT, UNDO, Change
from engine.deal import Deal
from engine.errors import IllegalAction, NoSuchSeat, WrongPhase
from engine.hand import (CUT, OVER, PHASE_NAMES, PLAY, SHOW, STARTER,  # noqa: F401 (the app's names)
                         Outcome, Score)
from engine.play import NOBODY
from engine.rules import check_config, limits, make_config, sides_of
from engine.stats import ZERO
from engine import state


CHECKPOINT_EVERY = 16  # actions; an undo re-applies fewer than this from a checkpoint

class Game(Deal):
    def __init__(self, config=None, dealer=0, tally=None, cut=False, stats=None):
        self.config = config if config is not None else make_config()
        check_config(self.config)
        self.sides = sides_of(self.config.players)
        self.limits = limits(self.config)
        if not 0 <= dealer < self.config.players:
            raise NoSuchSeat("no seat %d" % (dealer + 1))
        self.tally = list(tally) if tally else [0] * self.sides
        self.games_played = 0
        self.stats = ZERO if stats is None else list(stats)  # kept from game to game
        self.moves = 0  # moves on with every change kept (a Change names the one it follows)
        self._proposing = False  # replay proposes instead of keeping (see propose)
        self._fresh(dealer, CUT if cut else STARTER)
        self._reset_journal()

    def _reset_journal(self):
        base = {0: state.encode(self)}
        journal = []  # type: list
        self.journal = journal
        self._checkpoints = base

    def _put(self, s):
        """Set the state from a tuple in the order of state.read()."""
        self.tally, self.games_played, self.dealer = s[0], s[1], s[2]
        self.phase, self.hand_no, self.show_step = s[3], s[4], s[5]
        self.starter, self.winner, self.loser = s[6], s[7], s[8]
        self.level, self.last_side, self.scores = s[9], s[10], s[11]
        self.backs, self.seen, self.play, self.stats = s[12], s[13], s[14], s[15]

    def _kept(self):
        """The references that hold the state (see _do), the journal and checkpoints last."""
        return (self.tally, self.games_played, self.dealer, self.phase, self.hand_no,
                self.show_step, self.starter, self.winner, self.loser, self.level,
                self.last_side, self.scores, self.backs, self.seen, self.play, self.stats,
                self.config, self.sides, self.limits, self.journal, self._checkpoints)

    def _state(self):
        """The state's references alone, a Change's after: no journal held."""
        return self._kept()[:-2]

    def _back(self, kept, n):
        """Put the state in ``kept`` back, and the journal at ``n`` events,
        without allocating or calling (so a MemoryError cannot stop it)."""
        s = kept  # _put written out: a restore after a proposal must not be cut short
        self.tally, self.games_played, self.dealer = s[0], s[1], s[2]
        self.phase, self.hand_no, self.show_step = s[3], s[4], s[5]
        self.starter, self.winner, self.loser = s[6], s[7], s[8]
        self.level, self.last_side, self.scores = s[9], s[10], s[11]
        self.backs, self.seen, self.play, self.stats = s[12], s[13], s[14], s[15]
        self.config, self.sides, self.limits = kept[16], kept[17], kept[18]
        journal, base = kept[-2], kept[-1]
        while len(journal) > n:
            journal.pop()
        if n + 1 in base:  # a checkpoint the action made (any past n is stale)
            del base[n + 1]
        self.journal, self._checkpoints = journal, base

    def _do(self, action, data, change=True):
        """action(data), wholly or not at all (with change False: never kept).

        The actions never change a list or the play in place (they change a
        copy and then put it in), so keeping the references is keeping the
        state; on any exception they are put back without allocating, so a
        MemoryError is safe here too."""
        kept = self._kept()
        n = len(self.journal)
        moves = self.moves
        done = False  # the state is where it should end: kept, or put back
        try:
            result = action(data)
            if not change:
                self._back(kept, n)  # (cut short, the finally puts it back)
            self.moves = moves + 1 if change else moves
            done = True
        finally:
            if not done:
                self._back(kept, n)
                self.moves = moves
        return result

    def start(self):
        """The state the journal starts from, as state.encode() bytes."""
        return self._checkpoints[0]

    # --- actions (each journalled; each returns an Outcome) -------------------
    def peg(self, side, points):
        """Points keyed by hand, as on a wooden board."""
        return self.replay((state.PEG, side, points))

    def turn_starter(self, card):
        """The dealer turns the starter (or, skipped then, keys it in the show);
        a Jack pegs his heels."""
        return self.replay((state.STARTER, card))

    def lay(self, card):
        """The seat to play lays a card."""
        return self.replay((state.LAY, card))

    def go(self):
        """The seat to play cannot lay a card (a go point, maybe)."""
        return self.replay((state.GO,))

    def count_show(self, cards, claim=None, muggins=False):
        """Count the hand (or crib) now showing against the starter.

        `claim`: the total the player announced, checked against the real
        count; `muggins`: the opponent takes points the claim missed.
        """
        event = [state.SHOW, NOBODY if claim is None else claim, 1 if muggins else 0, len(cards)]
        event.extend(cards)
        return self.replay(event)

    def advance(self):
        """'#': move the hand on to its next step."""
        return self.replay((state.NEXT,))

    def set_dealer(self, seat):
        return self.replay((state.DEALER, seat))

    def cut_for_deal(self, cards):
        """One cut card per seat, in seat order: the lowest deals."""
        event = [state.CUT, len(cards)]
        event.extend(cards)
        return self.replay(event)

    def misdeal(self):
        return self.replay((state.MISDEAL,))

    def erase_stats(self):
        """The statistics back to zero (journalled: undo brings them back)."""
        return self.replay((state.ERASE,))

    def replay(self, event):
        """Apply one event (an action's, a save's) wholly or not at all, as _do
        (written out: one call less deep); under propose(), its Change."""
        event = bytes(event)
        kept = self._kept()
        n = len(self.journal)
        try:
            state.check_event(event)  # a show straight to its rule: the deepest chain
            result = self._act_show(event) if event[0] == state.SHOW else self._apply(event)
            if self.phase == OVER:  # (a call only then: this runs for every action)
                self._count_end(kept[3])
            if self._proposing:
                after = self._kept()  # (its journal and checkpoints go unused)
                self._back(kept, n)  # (cut short, the except puts it back)
                return Change(ACTION, result, after, self.moves)
            if (n + 1) % CHECKPOINT_EVERY == 0:
                self._checkpoints[n + 1] = state.encode(self, True)
            self.journal.append(event)
        except BaseException:
            self._back(kept, n)
            raise
        self.moves += 1
        return result

    # --- proposing, then keeping -------------------------------------------------
    def propose(self, action, *args):
        """The Change action(*args) would make (game.propose(game.lay, card)),
        with nothing kept: IllegalAction if the rules refuse it."""
        self._proposing = True
        try:
            return action(*args)
        finally:
            self._proposing = False

    def propose_undo(self):
        """The Change that takes back the last action; its outcome's event is that action's."""
        if not self.journal:
            raise WrongPhase("nothing to undo in this game")
        n = len(self.journal)
        after = self._do(self._state_at, n - 1, False)
        return Change(UNDO, Outcome(self.journal[-1], [], None, None, None, None), after,
                      self.moves)

    def propose_next(self):
        """The Change to the next game of the match (a new match after the last);
        the loser deals first. Undo does not reach back past it."""
        if self.phase != OVER:
            raise WrongPhase("the game is still on")
        after = self._do(self._next, None, False)
        return Change(NEXT, Outcome(None, [], None, None, None, None), after, self.moves)

    def commit(self, change):
        """Keep a Change this game proposed, wholly or not at all; its Outcome.
        WrongPhase if the game has moved since (the Change is of a game gone)."""
        if change.at != self.moves:
            raise WrongPhase("the game has moved on since")
        n = len(self.journal)
        kind = change.kind
        journal, base = self.journal, self._checkpoints
        if kind == ACTION and (n + 1) % CHECKPOINT_EVERY:  # no state kept to put back:
            journal.append(change.outcome.event)
            try:
                self._install(change.after)  # stores to names that exist: whole, or not begun
            except BaseException:
                journal.pop()
                raise
            self.moves += 1
            return change.outcome
        kept = self._kept()
        stale = [i for i in base if i >= n] if kind == UNDO else None
        try:
            self._install(change.after)
            if kind == ACTION:
                if (n + 1) % CHECKPOINT_EVERY == 0:
                    base[n + 1] = state.encode(self, True)
                journal.append(change.outcome.event)
            elif kind == NEXT:
                self._reset_journal()
        except BaseException:
            self._back(kept, n)
            raise
        if stale is not None:  # nothing below allocates: it cannot fail half way
            for i in stale:
                del base[i]
            journal.pop()
        self.moves += 1
        return change.outcome

    def peek(self, change, look):
        """look(), with the state ``change`` leaves in place (the journal as it
        is), then everything put back: what the board would show after it."""
        if change.at != self.moves:
            raise WrongPhase("the game has moved on since")
        return self._do(self._peeked, (change.after, look), False)

    def _peeked(self, data):
        self._install(data[0])
        return data[1]()

    def _install(self, after):
        self._put(after)
        self.config, self.sides, self.limits = after[16], after[17], after[18]

    def _state_at(self, n):
        # The state after the journal's first n events (from the checkpoint below).
        k = n - n % CHECKPOINT_EVERY
        while k not in self._checkpoints:
            k -= CHECKPOINT_EVERY
        self._put(state.read(self._checkpoints[k], k > 0)[1])  # 0: the journal's start, as saved
        for event in self.journal[k:n]:
            was = self.phase
            self._apply(event)
            if self.phase == OVER:
                self._count_end(was)
        return self._state()

    # --- asking the rules ----------------------------------------------------
    def preview(self, action, *args):
        """The Outcome action(*args) would return, with nothing kept:
        game.preview(game.count_show, cards).show.total is what the cards
        count before any claim; its scores show a muggins it would give."""
        return self._do(lambda _: action(*args), None, False)

    def refusal(self, action, *args):
        """The sentence action(*args) is refused with, or None if the rules
        allow it; nothing is kept either way. Any action, or check_card,
        check_claim: game.refusal(game.lay, card)."""
        try:
            self.preview(action, *args)
        except IllegalAction as err:
            return str(err)
        return None

    # --- the journal -----------------------------------------------------
    def forget_history(self):
        """Keep the state now as the game's start: undo reaches back no further."""
        self._reset_journal()

    def load(self, data):
        """Start over from a saved state (state.encode() bytes, config and all);
        the journal starts there. BadSave, and nothing changed, if it is not one."""
        self._do(self._load, state.read(data))

    def _load(self, data):
        config, fields = data
        self.config, self.sides, self.limits = config, sides_of(config.players), limits(config)
        self._put(fields)
        self._reset_journal()

    def undo(self):
        """Take back the last action; its Outcome (the event, the one undone)."""
        return self.commit(self.propose_undo())

    def next_game(self):
        """After a game: the next of the match (see propose_next); its Outcome."""
        return self.commit(self.propose_next())
