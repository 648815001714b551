"""engine.game: one game (and the match it belongs to), action by action.

Each action is checked, then done (engine.hand holds the rules of the play
and the show; here are who deals, the next game, and the journal), journalled
as a few bytes (engine.state) so that it can be undone, saved to flash and
replayed, and returns an Outcome: the event journalled and what it scored.
An action applies wholly or not at all: whatever it raises, a refusal or a
MemoryError halfway through, the game and its journal are as they were.
``preview(action, ...)`` and ``refusal(action, ...)`` run an action without
keeping it, so the app asks the rules instead of repeating them.
"""

from engine.cards import JACK, RANK, card_name
from engine.errors import CardSeen, IllegalAction, NoSuchSeat, WrongCards, WrongPhase
from engine.hand import (CUT, OVER, PHASE_NAMES, PLAY, SHOW, STARTER,  # noqa: F401 (the app's names)
                         THREE_FOR_LAST, Hand, Outcome, Score)
from engine.rules import limits
from engine.play import NOBODY
from engine.rules import FIVE_CARD, check_config, make_config, sides_of
from engine import state


CHECKPOINT_EVERY = 16  # actions; an undo re-applies fewer than this from a checkpoint


class Game(Hand):
    def __init__(self, config=None, dealer=0, tally=None, cut=False):
        self.config = config if config is not None else make_config()
        check_config(self.config)
        self.sides = sides_of(self.config.players)
        self.limits = limits(self.config)
        if not 0 <= dealer < self.config.players:
            raise NoSuchSeat("no seat %d" % (dealer + 1))
        self.tally = list(tally) if tally else [0] * self.sides
        self.games_played = 0
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
        self.backs, self.seen, self.play = s[12], s[13], s[14]

    def _kept(self):
        """The references that hold the state (see _do)."""
        return (self.tally, self.games_played, self.dealer, self.phase, self.hand_no,
                self.show_step, self.starter, self.winner, self.loser, self.level,
                self.last_side, self.scores, self.backs, self.seen, self.play,
                self.config, self.sides, self.limits, self.journal, self._checkpoints)

    def _back(self, kept, n):
        """Put the state in ``kept`` back, and the journal at ``n`` events,
        without allocating (so a MemoryError cannot stop it)."""
        self._put(kept)
        self.config, self.sides, self.limits = kept[15], kept[16], kept[17]
        journal, base = kept[18], kept[19]
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
        try:
            result = action(data)
            if change:
                return result
        except BaseException:
            change = False
            raise
        finally:
            if not change:
                self._back(kept, n)
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

    def replay(self, event):
        """Apply one journalled event (from a save) as the action itself would:
        wholly or not at all, as _do (written out here: every action comes
        this way, and a call less deep keeps the board's Python stack short)."""
        event = bytes(event)
        kept = self._kept()
        n = len(self.journal)
        try:
            result = self._apply(event)
            if (n + 1) % CHECKPOINT_EVERY == 0:
                self._checkpoints[n + 1] = state.encode(self)
            self.journal.append(event)
        except BaseException:
            self._back(kept, n)
            raise
        return result

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
        """Take back the last action; returns its event bytes."""
        if not self.journal:
            raise WrongPhase("nothing to undo in this game")
        return self._do(self._rebuild, len(self.journal) - 1)

    def _rebuild(self, n):
        k = n - n % CHECKPOINT_EVERY
        while k not in self._checkpoints:
            k -= CHECKPOINT_EVERY
        self._put(state.read(self._checkpoints[k])[1])
        for event in self.journal[k:n]:
            self._apply(event)
        stale = [i for i in self._checkpoints if i > n]
        event = self.journal.pop()  # last: nothing after it can fail
        for i in stale:
            del self._checkpoints[i]
        return event

    def next_game(self):
        """After a game: the next of the match (a new match after the last);
        the loser deals first. Undo does not reach back past this."""
        if self.phase != OVER:
            raise WrongPhase("the game is still on")
        self._do(self._next, None)

    def _next(self, _):
        if self.match_winner() != NOBODY:
            self.tally = [0] * self.sides
        dealer = self.loser if self.loser < self.config.players else 0
        played = self.games_played
        self._fresh(dealer, STARTER)
        self.games_played = played
        self._reset_journal()

    # --- the rules behind each event -------------------------------------------
    def _apply(self, event):
        """Check and do one event (not journalled): its Outcome."""
        state.check_event(event)
        op = event[0]
        if op == state.SHOW:
            return self._act_show(event)
        if op == state.PEG:
            scores = self._act_peg(event[1], event[2])
        elif op == state.STARTER:
            scores = self._act_starter(event[1])
        elif op == state.LAY:
            scores = self._act_lay(event[1])
        elif op == state.GO:
            self._phase(PLAY, "a go is said")
            play = self.play.copy()
            results = play.go()
            self.play = play
            scores = self._play_scores(results)
        elif op == state.NEXT:
            scores = self._act_next()
        elif op == state.DEALER:
            scores = self._act_dealer(event[1])
        elif op == state.CUT:
            scores = self._act_cut(list(event[2:]))
        else:
            scores = self._act_misdeal()
        return Outcome(event, scores, None, None, None, None)

    def _act_dealer(self, seat):
        self._not_over()
        if not 0 <= seat < self.config.players:
            raise NoSuchSeat("no seat %d" % (seat + 1))
        if self.phase not in (CUT, STARTER) or self.starter != NOBODY:
            raise WrongPhase("the dealer changes only before the starter is turned")
        self._redeal_first(seat) if self._first_hand_untouched() else self._set_dealer(seat)
        return []

    def _set_dealer(self, seat):
        self.dealer = seat
        self.phase = STARTER

    def _redeal_first(self, seat):
        # Before the first hand: the five-card pone's 3 follows the new dealer
        # (and nothing else pegged so far is lost).
        if self.config.variant == FIVE_CARD and seat != self.dealer:
            old = self.side_of(self.pone)
            scores, backs = self.scores[:], self.backs[:]
            scores[old] -= THREE_FOR_LAST
            backs[old] = min(backs[old], scores[old])
            self.scores, self.backs = scores, backs
            self._set_dealer(seat)
            self._score(self.side_of(self.pone), THREE_FOR_LAST, ["three for last"])
            return
        self._set_dealer(seat)

    def _act_cut(self, cards):
        self._not_over()
        if not self._first_hand_untouched():
            raise WrongPhase("the cut for deal comes before the first hand")
        if len(cards) != self.config.players:
            raise WrongCards("one cut card per player: %d, not %d"
                             % (self.config.players, len(cards)))
        for i, card in enumerate(cards):
            if card in cards[:i]:
                raise CardSeen("%s twice" % card_name(card), (card,))
        low = min([RANK[c] for c in cards])
        lowest = [seat for seat, c in enumerate(cards) if RANK[c] == low]
        if len(lowest) > 1:
            raise WrongCards("a tie: cut again")
        self._redeal_first(lowest[0])
        return []

    def _act_misdeal(self):
        self._not_over()
        laid = 0
        if self.play is not None:
            for cards in self.play.laid:
                laid += len(cards)
        if self.phase not in (STARTER, PLAY) or laid:
            raise WrongPhase("a misdeal is called before any card is played")
        if self.starter != NOBODY and RANK[self.starter] == JACK:
            raise WrongPhase("his heels are pegged: undo the starter instead")
        self._new_deal()
        self.phase = STARTER
        return []

