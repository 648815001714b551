"""engine.hand: where the game is, and the rules behind each journalled event.

Hand is the half of engine.game.Game that knows cribbage: the seats, the show
order, scoring and the end of a game, and for each event its checks (each
written once, raising the IllegalAction that says why) and then its changes.
Game adds the journal, undo, saves and the guarantee that an action applies
wholly or not at all.
"""

from collections import namedtuple

if __debug__:  # for mypy and CPython: mpy-cross -O3 compiles it out, and folds const()
    try:
        from typing import Any  # noqa: F401  (used in a type comment, which ruff does not read)
    except ImportError:
        pass
    try:
        from micropython import const
    except ImportError:  # CPython with no stand-ins: a constant is its int
        const = int  # type: ignore[assignment]

from engine.cards import JACK, RANK, refused
from engine.errors import BadClaim, CardSeen, GameOver, NoSuchSeat, WrongCards, WrongPhase
from engine.match import game_value, games_to_win, skunk_level
from engine.play import NOBODY, Play
from engine.rules import (BAD_PEG, CRIB_SIZE, FIVE_CARD, LOWBALL, NO_PLAYER, SIDE_NAMES, Config,
                          Limits, has_crib, hand_size, is_impossible)
from engine.show import CRIB, HAND, score_show
from engine import stats as _stats

# The steps of a hand (one set: saves use them too); the game may end after
# any scoring step.
CUT = const(0)       # cutting for the first deal
STARTER = const(1)   # waiting for the starter to be turned
PLAY = const(2)      # the pegging
SHOW = const(3)      # the show walks show_order()
OVER = const(4)      # somebody reached the target
PHASE_NAMES = ("cut", "starter", "play", "show", "game over")

Score = namedtuple("Score", ("side", "points", "reasons"))
# What an action did: `event` the bytes journalled (what to save), `scores`
# [Score]; for a counted show the seat, whether it was the crib, the Show and
# the claim (None if none was made); None for other actions.
Outcome = namedtuple("Outcome", ("event", "scores", "seat", "crib", "show", "claim"))

HEELS = const(2)           # a Jack turned as starter: two for his heels
THREE_FOR_LAST = const(3)  # five-card: the pone's start
_COUNTER_MAX = const(255)  # hands and games are counted in one byte of a saved state


class Hand:
    # Set by Game (annotations only: nothing is stored in the class).
    config: Config
    limits: Limits
    sides: int
    tally: "list"
    games_played: int
    journal: "list"
    stats: "list"

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
        order = []
        for i in range(1, n + 1):  # a loop, not a comprehension: one stack frame less
            order.append(((self.dealer + i) % n, False))
        if has_crib(self.config):
            order.append((self.dealer, True))
        return order

    def showing(self):
        """(seat, is_crib) of the show step now, or None outside the show: the
        show_order() entry, worked out (no list made on the count's path)."""
        if self.phase != SHOW:
            return None
        if self.show_step < self.config.players:
            return ((self.dealer + 1 + self.show_step) % self.config.players, False)
        return (self.dealer, True)

    def known_cards(self):
        """Cards of the hand being shown that were laid in the play."""
        now = self.showing()
        if now is None or now[1] or self.play is None:
            return []
        return list(self.play.laid[now[0]])

    def to_play(self):
        """The seat to lay next, NOBODY outside the play or once all are out."""
        return self.play.turn if self.phase == PLAY else NOBODY

    def cards_laid(self):
        """How many cards this deal's play has laid (0 before it)."""
        return 0 if self.play is None else self.play.cards_laid()

    def match_winner(self):
        need = games_to_win(self.config.match_games)
        for side in range(self.sides):
            if self.tally[side] >= need:
                return side
        return NOBODY

    # --- scoring ---------------------------------------------------------
    def _score(self, side, points, reasons):
        out = self._scores(((side, points, reasons),))
        return out[0] if out else None

    def _end(self, side):
        self.phase = OVER
        scores = self.scores
        others = [s for s in range(self.sides) if s != side]  # (ties: the first seat's)
        if self.config.variant == LOWBALL:  # the first to the target loses; the lowest other wins
            self.winner, self.loser, self.level = min(others, key=lambda s: scores[s]), side, 0
        else:
            runner = max(others, key=lambda s: scores[s])  # skunked or not: the best of the losers
            self.winner, self.loser = side, runner
            self.level = skunk_level(scores[runner], self.config.target, self.config.values)
        tally = self.tally[:]
        tally[self.winner] += game_value(self.level, self.config.values)
        self.tally = tally
        if self.games_played < _COUNTER_MAX:  # kept in one byte: stops at 255
            self.games_played += 1

    def _scores(self, results):
        """Peg [(side, points, reasons)] in order; stop at game end: [Score]."""
        out = []
        for who, points, reasons in results:
            if self.phase == OVER:
                break
            if points <= 0:
                continue
            # New lists, never changed in place: see Game._do.
            scores, backs = self.scores[:], self.backs[:]
            backs[who] = scores[who]
            scores[who] += points
            self.scores, self.backs = scores, backs
            self.last_side = who
            out.append(Score(who, points, reasons))
            if scores[who] >= self.config.target:
                self._end(who)
        return out

    # --- checks the app may ask too ----------------------------------------
    def check_card(self, card):
        """CardSeen, saying where, if `card` is already out this deal."""
        if card not in self.seen:
            return
        if card == self.starter:
            why = "the starter"
        else:
            why = "in a hand shown"
            for laid in self.play.laid if self.play is not None else ():
                if card in laid:
                    why = "laid in the play"
        raise refused(CardSeen, "%%s is already out this deal (%s)" % why, card)

    def check_claim(self, claim):
        """BadClaim if no hand (or crib, when the crib shows) of the size
        played makes `claim`, whatever its cards."""
        now = self.showing()
        crib = now is not None and now[1]
        if not is_impossible(claim, hand_size(self.config), crib):
            return
        top = self.limits.max_crib if crib else self.limits.max_hand
        why = "the most is %d" % top if claim > top else "no %s makes it" % (CRIB if crib else HAND)
        raise BadClaim("%d is impossible: %s" % (claim, why))

    def _not_over(self):
        if self.phase == OVER:
            raise GameOver("the game is over: start the next game")

    def _phase(self, phase, doing):
        self._not_over()
        if self.phase != phase:
            raise WrongPhase("%s only in the %s, not the %s"
                             % (doing, PHASE_NAMES[phase], PHASE_NAMES[self.phase]))

    def _first_hand_untouched(self):
        return self.hand_no == 0 and self.phase in (CUT, STARTER) and self.starter == NOBODY

    # --- the rules behind each event (checks first, then changes) ----------
    def _act_peg(self, side, points):
        self._not_over()
        if not 0 <= side < self.sides:
            raise NoSuchSeat(NO_PLAYER % SIDE_NAMES[side] if 0 <= side < len(SIDE_NAMES)
                             else "no such player")
        top = self.limits.max_peg
        if not 1 <= points <= top:
            raise BadClaim(BAD_PEG % (points, top))
        return [self._score(side, points, ["pegged"])]

    def _act_starter(self, card):
        if self.phase == SHOW and self.starter == NOBODY:
            # Skipped at the turn, keyed now so the shows can be counted.
            self.check_card(card)
        else:
            self._phase(STARTER, "the starter is turned")
            self._begin_play()
        self.starter = card
        self.seen = self.seen + [card]
        if RANK[card] == JACK:
            return self._scores([(self.side_of(self.dealer), HEELS, ["his heels"])])
        return []

    def _begin_play(self):
        self.phase = PLAY
        self.play = Play(self.config.players, self.pone, hand_size(self.config))

    def _act_lay(self, card):
        self._phase(PLAY, "cards are laid")
        self.check_card(card)
        play = self.play.copy()
        results = play.lay(card)  # OverThirtyOne before anything changes
        self.play = play
        self.seen = self.seen + [card]
        return self._play_scores(results)

    def _play_scores(self, results):
        sides = []
        for seat, pts, why in results:
            sides.append((self.side_of(seat), pts, why))
        out = self._scores(sides)
        if self.phase == PLAY and self.play.over:
            self.phase = SHOW
            self.show_step = 0
        return out

    def _act_show(self, event):
        claim = None if event[1] == NOBODY else event[1]
        cards = list(event[4:])
        self._phase(SHOW, "hands are counted")
        if self.starter == NOBODY:
            raise WrongPhase("no starter was keyed: peg this hand by points")
        seat, crib = self.showing()
        laid = [] if crib or self.play is None else self.play.laid[seat]
        for i, card in enumerate(cards):
            if card in cards[:i]:
                raise refused(CardSeen, "%s twice", card)
            if card not in laid:
                self.check_card(card)
        size = CRIB_SIZE if crib else hand_size(self.config)
        if len(cards) != size:
            raise WrongCards("the %s has %d cards, not %d"
                             % (CRIB if crib else HAND, size, len(cards)))
        for card in laid:
            if card not in cards:
                raise refused(WrongCards, "%s was laid from this hand", card)
        if claim is not None:
            self.check_claim(claim)
        show = score_show(cards, self.starter, crib)
        real = show.total
        side = self.side_of(seat)
        why = CRIB if crib else HAND
        results = [(side, real, [why])]
        if claim is not None:
            if claim > real:
                raise BadClaim("%d is too high: the %s makes %d" % (claim, why, real))
            results = [(side, claim, [why])]
            if claim < real:
                if not self.config.muggins:
                    results = [(side, real, [why, "corrected"])]
                elif event[2]:
                    results.append(((side + 1) % self.sides, real - claim, ["muggins"]))
        seen = self.seen[:]
        for card in cards:
            if card not in seen:
                seen.append(card)
        self.seen = seen
        scores = self._scores(results)
        self.stats = _stats.shown(self.stats, side, crib, scores, show)
        if self.phase == SHOW:
            self._next_step()
        return Outcome(event, scores, seat, crib, show, claim)

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
