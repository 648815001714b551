"""engine.deal: each journalled event to its rule, and the rules of who deals.

Deal is the part of engine.game.Game between the journal (Game) and the play
and the show (engine.hand.Hand): ``_apply`` does one event, and
here are the dealer chosen, the cut for the first deal and a misdeal.
"""

from engine.cards import JACK, RANK, refused
from engine.errors import CardSeen, NoSuchSeat, WrongCards, WrongPhase
from engine.hand import CUT, OVER, PLAY, STARTER, THREE_FOR_LAST, Hand, Outcome
from engine.play import NOBODY
from engine.rules import FIVE_CARD
from engine import state
from engine import stats as _stats


class Deal(Hand):
    def _state(self):  # the state's references: Game's
        raise NotImplementedError

    def _count_end(self, was):
        # Called once an action leaves the game over, ``was`` its phase before: the stats
        # count a game once, in the action that ended it (an erase may follow).
        if was != OVER:
            self.stats = _stats.ended(self.stats, self)

    # --- the rules behind each event -------------------------------------------
    def _apply(self, event):
        """Do one event checked already (state.check_event; not journalled): its Outcome."""
        op = event[0]
        if op == state.SHOW:
            return self._act_show(event)
        if op == state.PEG:
            scores = self._act_peg(event[1], event[2])
            self.stats = _stats.pegged(self.stats, scores, True)
        elif op == state.STARTER:
            scores = self._act_starter(event[1])
            if scores:  # his heels: the one score a starter makes
                self.stats = _stats.heels(self.stats, scores[0].side)
        elif op == state.LAY or op == state.GO:
            if op == state.LAY:
                scores = self._act_lay(event[1])
            else:
                self._phase(PLAY, "a go is said")
                play = self.play.copy()
                results = play.go()
                self.play = play
                scores = self._play_scores(results)
            if scores:
                self.stats = _stats.pegged(self.stats, scores, False)
        elif op == state.NEXT:
            scores = self._act_next()
        elif op == state.DEALER:
            scores = self._act_dealer(event[1])
        elif op == state.CUT:
            scores = self._act_cut(list(event[2:]))
        elif op == state.ERASE:  # the stats: any time, the game as it is
            self.stats = _stats.ZERO
            scores = []
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
                raise refused(CardSeen, "%s twice", card)
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

    # --- the next game ---------------------------------------------------------
    def _next(self, _):
        """The next game of the match (a new match after the last), the loser
        dealing first; the games played and the stats go on."""
        if self.match_winner() != NOBODY:
            self.tally = [0] * self.sides
        dealer = self.loser if self.loser < self.config.players else 0
        played = self.games_played
        self._fresh(dealer, STARTER)
        self.games_played = played
        return self._state()
