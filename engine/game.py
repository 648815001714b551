"""engine.game: one game (and the match it belongs to), action by action.

Every action is checked before anything changes: a refused action raises an
IllegalAction saying why and leaves the game exactly as it was. Each accepted
action is journalled as a few bytes (see engine.state) so it can be undone,
saved to flash and replayed.
"""

from collections import namedtuple

try:
    from typing import Any
except ImportError:
    pass

from engine.cards import JACK, card_name
from engine.errors import BadClaim, CardSeen, GameOver, IllegalAction, WrongPhase
from engine.match import game_value, games_to_win, skunk_level
from engine.play import NOBODY, Play
from engine.rules import (CRIB_SIZE, FIVE_CARD, LOWBALL, check_config, hand_size,
                          has_crib, make_config, sides_of)
from engine.show import is_impossible, score_show
from engine import state

Score = namedtuple("Score", ("side", "points", "reasons"))
Counted = namedtuple("Counted", ("seat", "crib", "show", "claim", "scores"))

# Phases of a hand; the game may end after any scoring step.
CUT = 0       # cutting for the first deal
STARTER = 1   # waiting for the starter to be turned
PLAY = 2      # the pegging
SHOW = 3      # show_step walks show_order()
OVER = 4      # somebody reached the target
PHASE_NAMES = ("cut", "starter", "play", "show", "game over")

HEELS = 2          # a Jack turned as starter: two for his heels
THREE_FOR_LAST = 3  # five-card: the pone's start
MAX_PEG = 29       # the most one hand (or one keyed score) can make

_CHECKPOINT_EVERY = 16
_COUNTER_MAX = 255  # hands and games are counted in one byte of a saved state


class Game:
    def __init__(self, config=None, dealer=0, tally=None, cut=False):
        self.config = config if config is not None else make_config()
        check_config(self.config)
        self.sides = sides_of(self.config.players)
        if not 0 <= dealer < self.config.players:
            raise IllegalAction("no seat %d" % (dealer + 1))
        self.tally = list(tally) if tally else [0] * self.sides
        self.games_played = 0
        self._fresh(dealer, CUT if cut else STARTER)
        self._reset_journal()

    # --- the state -------------------------------------------------------
    def _fresh(self, dealer, phase):
        self.scores = [0] * self.sides
        self.backs = [0] * self.sides
        self.dealer = dealer
        self.phase = phase
        self.hand_no = 0
        self.winner = NOBODY
        self.loser = NOBODY
        self.level = 0
        self.last_side = NOBODY
        self._new_deal()
        if self.config.variant == FIVE_CARD:
            self._score(self.pone, THREE_FOR_LAST, ["three for last"])

    def _new_deal(self):
        self.show_step = 0
        self.starter = NOBODY
        self.seen = []  # type: list
        self.play = None  # type: Any

    def _reset_journal(self):
        self.journal = []
        self._checkpoints = {0: state.encode(self)}

    @property
    def players(self):
        return self.config.players

    @property
    def pone(self):
        return (self.dealer + 1) % self.config.players

    @property
    def over(self):
        return self.phase == OVER

    def side_of(self, seat):
        return seat % self.sides

    def show_order(self):
        """[(seat, is_crib)]: clockwise from the dealer's left, the crib last."""
        n = self.config.players
        order = [((self.dealer + i) % n, False) for i in range(1, n + 1)]
        if has_crib(self.config):
            order.append((self.dealer, True))
        return order

    def showing(self):
        """(seat, is_crib) of the show step now, or None outside the show."""
        if self.phase != SHOW:
            return None
        return self.show_order()[self.show_step]

    def known_cards(self):
        """Cards of the hand being shown that were laid in the play."""
        now = self.showing()
        if now is None or now[1] or self.play is None:
            return []
        return list(self.play.laid[now[0]])

    def match_winner(self):
        need = games_to_win(self.config.match_games)
        for side in range(self.sides):
            if self.tally[side] >= need:
                return side
        return NOBODY

    # --- scoring ---------------------------------------------------------
    def _score(self, side, points, reasons):
        if points <= 0:
            return None
        self.backs[side] = self.scores[side]
        self.scores[side] += points
        self.last_side = side
        if self.scores[side] >= self.config.target:
            self._end(side)
        return Score(side, points, reasons)

    def _end(self, side):
        self.phase = OVER
        others = [s for s in range(self.sides) if s != side]
        if self.config.variant == LOWBALL:
            # The first to the target loses; the lowest other score wins.
            self.loser = side
            best = others[0]
            for s in others:
                if self.scores[s] < self.scores[best]:
                    best = s
            self.winner = best
            self.level = 0
        else:
            self.winner = side
            runner = others[0]
            for s in others:
                if self.scores[s] > self.scores[runner]:
                    runner = s
            self.loser = runner
            self.level = skunk_level(self.scores[runner], self.config.target, self.config.values)
        self.tally[self.winner] += game_value(self.level, self.config.values)
        if self.games_played < _COUNTER_MAX:  # kept in one byte: stops at 255
            self.games_played += 1

    def _scores(self, results):
        """Peg [(seat-or-side, points, reasons)] in order; stop at game end."""
        out = []
        for who, points, reasons in results:
            if self.phase == OVER:
                break
            s = self._score(who, points, reasons)
            if s is not None:
                out.append(s)
        return out

    # --- checks ----------------------------------------------------------
    def _not_over(self):
        if self.phase == OVER:
            raise GameOver("the game is over: start the next game")

    def _phase(self, phase, doing):
        self._not_over()
        if self.phase != phase:
            raise WrongPhase("%s only in the %s, not the %s"
                             % (doing, PHASE_NAMES[phase], PHASE_NAMES[self.phase]))

    def _unseen(self, card):
        if card in self.seen:
            raise CardSeen("%s is already out this deal" % card_name(card))

    # --- actions (each journalled) ---------------------------------------
    def _do(self, event):
        result = state.apply(self, event)
        self.journal.append(bytes(event))
        if len(self.journal) % _CHECKPOINT_EVERY == 0:
            self._checkpoints[len(self.journal)] = state.encode(self)
        return result

    def peg(self, side, points):
        """Points keyed by hand, as on a wooden board: a Score."""
        return self._do((state.PEG, side, points))

    def turn_starter(self, card):
        """The dealer turns the starter (or, skipped then, keys it in the show);
        a Jack pegs his heels: [Score]."""
        return self._do((state.STARTER, card))

    def lay(self, card):
        """The seat to play lays a card: [Score]."""
        return self._do((state.LAY, card))

    def go(self):
        """The seat to play cannot lay a card: [Score] (a go point, maybe)."""
        return self._do((state.GO,))

    def count_show(self, cards, claim=None, muggins=False):
        """Count the hand (or crib) now showing against the starter: Counted.

        `claim`: the total the player announced, checked against the real
        count; `muggins`: the opponent takes points the claim missed.
        """
        event = [state.SHOW, NOBODY if claim is None else claim, 1 if muggins else 0, len(cards)]
        event.extend(cards)
        return self._do(event)

    def advance(self):
        """'#': move the hand on to its next step; [] or the new phase's Score."""
        return self._do((state.NEXT,))

    def set_dealer(self, seat):
        return self._do((state.DEALER, seat))

    def cut_for_deal(self, cards):
        """One cut card per seat, in seat order: the lowest deals."""
        event = [state.CUT, len(cards)]
        event.extend(cards)
        return self._do(event)

    def misdeal(self):
        return self._do((state.MISDEAL,))

    def replay(self, event):
        """Apply one journalled event (from a save) as the action itself would."""
        return self._do(event)

    def forget_history(self):
        """Keep the state now as the game's start: undo reaches back no further."""
        self._reset_journal()

    def undo(self):
        """Take back the last action; returns its event bytes."""
        if not self.journal:
            raise IllegalAction("nothing to undo in this game")
        event = self.journal.pop()
        self._rebuild()
        return event

    def _rebuild(self):
        n = len(self.journal)
        k = n - n % _CHECKPOINT_EVERY
        while k not in self._checkpoints:
            k -= _CHECKPOINT_EVERY
        for stale in [i for i in self._checkpoints if i > n]:
            del self._checkpoints[stale]
        state.decode(self, self._checkpoints[k])
        for event in self.journal[k:]:
            state.apply(self, event)

    def next_game(self):
        """After a game: the next of the match (a new match after the last);
        the loser deals first. Undo does not reach back past this."""
        if self.phase != OVER:
            raise WrongPhase("the game is still on")
        if self.match_winner() != NOBODY:
            self.tally = [0] * self.sides
        loser = self.loser
        dealer = loser if loser < self.config.players else 0
        played = self.games_played
        self._fresh(dealer, STARTER)
        self.games_played = played
        self._reset_journal()

    # --- the rules behind each event (called by engine.state.apply) ------
    def _act_peg(self, side, points):
        self._not_over()
        if not 0 <= side < self.sides:
            raise IllegalAction("no player %s" % "ABC"[side] if side < 3 else "no such player")
        if not 1 <= points <= MAX_PEG:
            raise IllegalAction("%d points? a score is 1 to %d" % (points, MAX_PEG))
        return self._score(side, points, ["pegged"])

    def _act_starter(self, card):
        if self.phase == SHOW and self.starter == NOBODY:
            # Skipped at the turn, keyed now so the shows can be counted.
            self._unseen(card)
        else:
            self._phase(STARTER, "the starter is turned")
            self._begin_play()
        self.starter = card
        self.seen.append(card)
        if card // 4 + 1 == JACK:
            return self._scores([(self.side_of(self.dealer), HEELS, ["his heels"])])
        return []

    def _begin_play(self):
        self.phase = PLAY
        self.play = Play(self.config.players, self.pone, hand_size(self.config))

    def _act_lay(self, card):
        self._phase(PLAY, "cards are laid")
        self._unseen(card)
        self.play.check_lay(card)
        results = self.play.lay(card)
        self.seen.append(card)
        return self._play_scores(results)

    def _act_go(self):
        self._phase(PLAY, "a go is said")
        return self._play_scores(self.play.go())

    def _play_scores(self, results):
        out = self._scores([(self.side_of(seat), pts, why) for seat, pts, why in results])
        if self.phase == PLAY and self.play.over:
            self.phase = SHOW
            self.show_step = 0
        return out

    def _act_show(self, claim, muggins, cards):
        self._phase(SHOW, "hands are counted")
        if self.starter == NOBODY:
            raise WrongPhase("no starter was keyed: peg this hand by points")
        seat, crib = self.showing()
        size = CRIB_SIZE if crib else hand_size(self.config)
        if len(cards) != size:
            raise IllegalAction("%s has %d cards, not %d" % ("the crib" if crib else "a hand", size, len(cards)))
        laid = [] if crib or self.play is None else self.play.laid[seat]
        for i, card in enumerate(cards):
            if card in cards[:i]:
                raise CardSeen("%s twice" % card_name(card))
            if card not in laid:
                self._unseen(card)
        for card in laid:
            if card not in cards:
                raise IllegalAction("%s was laid from this hand" % card_name(card))
        show = score_show(cards, self.starter, crib)
        real = show.total
        if claim != NOBODY:
            if size == 4 and is_impossible(claim):
                raise BadClaim("%d is impossible: no hand makes it" % claim)
            if claim > real:
                raise BadClaim("%d is too high: the hand makes %d" % (claim, real))
        side = self.side_of(seat)
        counted = real if claim == NOBODY else claim
        results = [(side, counted, ["crib" if crib else "hand"])]
        if claim != NOBODY and claim < real:
            if not self.config.muggins:
                results = [(side, real, ["crib" if crib else "hand", "corrected"])]
            elif muggins:
                results.append(((side + 1) % self.sides, real - claim, ["muggins"]))
        for card in cards:
            if card not in self.seen:
                self.seen.append(card)
        scores = self._scores(results)
        if self.phase == SHOW:
            self._next_step()
        return Counted(seat, crib, show, None if claim == NOBODY else claim, scores)

    def _next_step(self):
        self.show_step += 1
        if self.show_step >= len(self.show_order()):
            self.dealer = (self.dealer + 1) % self.config.players
            if self.hand_no < _COUNTER_MAX:  # kept in one byte: stops at 255
                self.hand_no += 1
            self.phase = STARTER
            self._new_deal()

    def _act_next(self):
        self._not_over()
        if self.phase == CUT:
            self.phase = STARTER
        elif self.phase == STARTER:
            self._begin_play()
        elif self.phase == PLAY:
            self.phase = SHOW
            self.show_step = 0
        else:
            self._next_step()
        return []

    def _first_hand_untouched(self):
        return self.hand_no == 0 and self.phase in (CUT, STARTER) and self.starter == NOBODY

    def _act_dealer(self, seat):
        self._not_over()
        if not 0 <= seat < self.config.players:
            raise IllegalAction("no seat %d" % (seat + 1))
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
            self.scores[old] -= THREE_FOR_LAST
            self.backs[old] = min(self.backs[old], self.scores[old])
            self._set_dealer(seat)
            self._score(self.side_of(self.pone), THREE_FOR_LAST, ["three for last"])
            return
        self._set_dealer(seat)

    def _act_cut(self, cards):
        self._not_over()
        if not self._first_hand_untouched():
            raise WrongPhase("the cut for deal comes before the first hand")
        if len(cards) != self.config.players:
            raise IllegalAction("one cut card per player: %d, not %d" % (self.config.players, len(cards)))
        for i, card in enumerate(cards):
            if card in cards[:i]:
                raise CardSeen("%s twice" % card_name(card))
        low = min([c // 4 for c in cards])
        lowest = [seat for seat, c in enumerate(cards) if c // 4 == low]
        if len(lowest) > 1:
            raise IllegalAction("a tie: cut again")
        self._redeal_first(lowest[0])
        return lowest[0]

    def _act_misdeal(self):
        self._not_over()
        laid = 0
        if self.play is not None:
            for cards in self.play.laid:
                laid += len(cards)
        if self.phase not in (STARTER, PLAY) or laid:
            raise WrongPhase("a misdeal is called before any card is played")
        if self.starter != NOBODY and self.starter // 4 + 1 == JACK:
            raise WrongPhase("his heels are pegged: undo the starter instead")
        self._new_deal()
        self.phase = STARTER
        return []
