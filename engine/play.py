"""engine.play: the pegging of one hand, as a state machine.

Seats are numbered clockwise. The pone (dealer's left) leads. A seat that
cannot play says go; when no seat can play, the last to lay a card pegs 1
(2 for 31, never both), the count resets, and the seat after the last to
lay leads the next series.
"""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    try:
        from micropython import const
    except ImportError:  # CPython with no stand-ins: a constant is its int
        const = int  # type: ignore[assignment]

from engine.cards import VALUE, refused
from engine.errors import OverThirtyOne, WrongPhase
from engine.pegging import MAX_COUNT, laid_reasons

NOBODY = const(255)


class Play:
    def __init__(self, seats, leader, hand_size):
        self.seats = seats
        self.turn = leader
        self.count = 0
        self.pile = []
        self.passed = 0  # bitmask of seats that said go this series
        self.last = NOBODY
        self.left = [hand_size] * seats
        self.laid = [[] for _ in range(seats)]  # type: list

    @property
    def over(self):
        return self.turn == NOBODY

    def cards_laid(self):
        n = 0
        for cards in self.laid:
            n += len(cards)
        return n

    def check_lay(self, card):
        """Raise IllegalAction unless the seat to play may lay `card`."""
        if self.over:
            raise WrongPhase("the play is over: all cards are out")
        value = VALUE[card]
        if self.count + value > MAX_COUNT:
            raise refused(OverThirtyOne, "%%s makes the count %d; the limit is %d"
                          % (self.count + value, MAX_COUNT), card)

    def lay(self, card):
        """The seat to play lays `card`: [(seat, points, reasons)]."""
        self.check_lay(card)
        seat = self.turn
        self.pile.append(card)
        self.count += VALUE[card]
        self.left[seat] -= 1
        self.laid[seat].append(card)
        self.last = seat
        reasons = laid_reasons(self.pile, self.count)
        scores = []
        if reasons:
            why = []
            for r, _ in reasons:
                why.append(r)
            scores.append((seat, _total(reasons), why))
        if self.count == MAX_COUNT:
            self._reset()
        else:
            scores.extend(self._pass_turn(seat))
        return scores

    def check_go(self):
        if self.over:
            raise WrongPhase("the play is over: all cards are out")
        if self.count + 10 <= MAX_COUNT:  # even a ten-card fits
            raise WrongPhase("the count is %d: any card fits, no go" % self.count)

    def go(self):
        """The seat to play cannot: [(seat, points, reasons)] for a go point."""
        self.check_go()
        seat = self.turn
        self.passed |= 1 << seat
        return self._pass_turn(seat)

    def copy(self):
        """An independent copy: what a game keeps while an action might fail."""
        play = Play(self.seats, self.turn, 0)
        play.count, play.passed, play.last = self.count, self.passed, self.last
        play.left = list(self.left)
        play.pile = list(self.pile)
        play.laid = [list(cards) for cards in self.laid]
        return play

    def _can_play(self, seat):
        return self.left[seat] > 0 and not (self.passed >> seat) & 1

    def _pass_turn(self, seat):
        # Clockwise from the next seat, the current one last: it may go on alone.
        for step in range(1, self.seats + 1):
            nxt = (seat + step) % self.seats
            if self._can_play(nxt):
                self.turn = nxt
                return []
        # Nobody can play: a point for the go (or for the last card).
        reason = "last card" if sum(self.left) == 0 else "go"
        scores = [(self.last, 1, [reason])] if self.last != NOBODY else []
        self._reset()
        return scores

    def _reset(self):
        self.count = 0
        self.pile = []
        self.passed = 0
        self.turn = NOBODY
        if sum(self.left) == 0:
            return
        for step in range(1, self.seats + 1):
            nxt = (self.last + step) % self.seats
            if self.left[nxt] > 0:
                self.turn = nxt
                return

    # Serialisation: a flat list of small ints.
    def to_list(self):
        out = [self.seats, self.turn, self.count, self.passed, self.last]
        out.extend(self.left)
        out.append(len(self.pile))
        out.extend(self.pile)
        for cards in self.laid:
            out.append(len(cards))
            out.extend(cards)
        return out

    @classmethod
    def from_list(cls, data, pos=0):
        """Rebuild from to_list() output starting at data[pos]; (play, next pos)."""
        seats = data[pos]
        play = cls(seats, 0, 0)
        play.turn, play.count, play.passed, play.last = data[pos + 1:pos + 5]
        pos += 5
        play.left = list(data[pos:pos + seats])
        pos += seats
        n = data[pos]
        play.pile = list(data[pos + 1:pos + 1 + n])
        pos += 1 + n
        play.laid = []
        for _ in range(seats):
            n = data[pos]
            play.laid.append(list(data[pos + 1:pos + 1 + n]))
            pos += 1 + n
        return play, pos


def _total(reasons):
    total = 0
    for _, points in reasons:
        total += points
    return total
