"""cribbage.pegs: the LED tracks, drawn like pegs in a wooden board.

The front peg is bright in the player's colour, the back peg dim behind it, so
the gap shows the last score. Faint marks every 5 holes; the skunk line and the
game hole stand out; the dealer's game hole glows white. A frame never draws
more than the board's current budget.

Frames are lists of one 0xRRGGBB int an LED, in plain red-green-blue: the
board's strip driver (Adafruit's neopixel) puts them in the strip's colour
order and scales them to the current budget (its brightness), one slice
assignment and one show() a strip. A view's frames at rest are made once
(``show``); an animation frame copies the track's frame without its front peg
and puts the moving peg (or the comet) in: nothing to allocate.
"""

if __debug__:  # for mypy and CPython: mpy-cross -O3 compiles it out, and folds const()
    try:
        from typing import Any  # noqa: F401  (used in type comments, which ruff does not read)
    except ImportError:
        pass
    from micropython import const

from engine.match import skunk_lines

# Skunk marks are white: no player has it in any colour set (tests check).
MARK = (1, 1, 1)          # every fifth hole
SKUNK_MARK = (4, 4, 4)    # the skunk lines: brighter than the fifth-hole marks
GAME_MARK = (4, 3, 0)     # the game hole
DEALER_MARK = (8, 8, 8)   # the dealer's game hole
SKUNKED = (24, 24, 24)    # after a skunk: every fifth hole of the loser's track, up to the line
BACK_SHARE = 5            # the back peg is a fifth as bright as the front
_JUMP_MS_PER_HOLE = const(25)
_JUMP_MS_MAX = const(500)
_WIN_MS = const(3000)        # the winner's comet: three runs up the track
MATCH_WIN_MS = 9000  # the match's winner: nine
BLACK = (0, 0, 0)


def peg_hole(score, target):
    return score if score < target else target


class Pegs:
    def __init__(self, tracks, write, hole_map, power, ticks_diff):
        self.tracks = tracks
        self.write = write  # write(track, frame, scale): the board's one strip writer
        self.elapsed = ticks_diff  # ms from then to now on the board's wrapping clock
        self.map = hole_map  # hole_map[hole - 1] = LED under the hole
        self.leds = leds = len(hole_map)
        # The board's caps (boards.hardware.Power): brightness, and the current budget,
        # which is the whole board's (the Pico and the OLED draw from it too).
        self.cap = power.cap
        self.budget = power.budget_ma
        self.full_ma = power.full_white_ma
        self.idle_ma = power.idle_ma
        self.board_ma = power.board_ma
        self.under = [[0] * leds for _ in range(tracks)]  # the view's frame, no front peg
        self.fronts = [(0, BLACK)] * tracks  # (hole, colour) of each front peg, 0: none
        # A track's frame, made in place: one list for every track (a strip keeps
        # what it was sent in its driver's own buffer).
        self.frame_buf = [0] * leds
        # What made each frame (its rest, its front hole and comet head, the
        # scale), and what made the one its strip holds: the same is not sent again.
        self.rests = [0] * tracks  # type: list  # what each track's under was made of
        self.heads = [0] * (2 * tracks)  # front hole, comet head: frame() puts them in
        self.sent = [None] * (4 * tracks)  # type: list  # rest, front, head, scale
        self.fresh = True  # nothing written yet: every strip goes out once
        self.view = None  # type: Any  # the View the frames at rest were made for
        self.jumps = []   # [side, start ms, span ms] of pegs on their way
        self.win_start = None
        self.win_ms = _WIN_MS
        self.milliamps = 0
        self._face = None  # type: Any  # ((target, values), frame, its sum): the board's face, made once
        self.units = [0] * tracks

    def animate(self, scores, now):
        """Start a jump for each Score (side, points) just pegged."""
        for s in scores:
            self.jumps.append([s.side, now])

    def celebrate(self, now, match=False):
        self.win_start = now
        self.win_ms = MATCH_WIN_MS if match else _WIN_MS

    def busy(self, now):
        if self.win_start is not None and self.elapsed(now, self.win_start) >= self.win_ms:
            self.win_start = None  # over: it must not come back when the clock wraps
        return bool(self.jumps) or self.win_start is not None

    def _put(self, frame, hole, rgb):
        """Light ``hole`` in ``rgb``; returns how the frame's channel sum moved."""
        i = self.map[hole - 1]
        was = frame[i]
        r, g, b = rgb
        frame[i] = r << 16 | g << 8 | b
        return r + g + b - (was >> 16) - (was >> 8 & 255) - (was & 255)

    def marks(self, target, values):
        """The board's fixed face: marks every 5 holes, skunk lines, game hole."""
        if self._face is None or self._face[0] != (target, values):
            face = [0] * self.leds
            lit = 0
            for hole in range(5, target, 5):
                lit += self._put(face, hole, MARK)
            for hole in skunk_lines(target, values):
                lit += self._put(face, hole, SKUNK_MARK)
            lit += self._put(face, target, GAME_MARK)
            self._face = ((target, values), face, lit)
        return self._face[1]

    def show(self, view):
        """Make each track's frame at rest for ``view`` (once a change, not a frame)."""
        self.view = view
        target = view.target
        face = self.marks(target, view.values)
        units = self.units  # each track's channel sum, for the current budget
        for side in range(self.tracks):
            under = self.under[side]
            if side >= len(view.scores):  # a track this game does not use
                if self.rests[side] is not None:
                    for i in range(len(under)):  # seldom: fewer sides than tracks
                        under[i] = 0
                self.rests[side] = None
                self.fronts[side] = (0, BLACK)
                units[side] = 0
                continue
            colour = _scale(view.colours[side], view.brightness * self.cap)
            back = peg_hole(view.backs[side], target)
            self.fronts[side] = (peg_hole(view.scores[side], target), colour)
            skunked = view.skunk_line if view.loser_skunked and side == view.loser else 0
            # What the track's frame at rest is made of: made again only if it changed.
            rest = (target, view.values, side == view.dealer_side, skunked, back, colour)
            if rest == self.rests[side] and not self.fresh:
                continue
            self.rests[side] = None  # not known until it is made
            under[:] = face
            lit = self._face[2]
            if side == view.dealer_side:
                lit += self._put(under, target, DEALER_MARK)
            for hole in range(5, skunked, 5):
                lit += self._put(under, hole, SKUNKED)
            if back:
                lit += self._put(under, back, (colour[0] // BACK_SHARE, colour[1] // BACK_SHARE,
                                               colour[2] // BACK_SHARE))
            units[side] = lit
            self.rests[side] = rest

    def frame(self, side, now):
        """Track ``side``'s frame now (at rest, or mid-animation), into
        self.frame_buf; returns its channel sum."""
        view = self.view
        frame = self.frame_buf
        frame[:] = self.under[side]
        units = self.units[side]
        front, colour = self.fronts[side]
        self.heads[2 * side] = front
        self.heads[2 * side + 1] = 0
        if not front:
            return units
        target = view.target
        back = peg_hole(view.backs[side], target)
        for jump in self.jumps:
            if jump[0] == side and front > back:
                span = min(_JUMP_MS_MAX, (front - back) * _JUMP_MS_PER_HOLE)
                done = self.elapsed(now, jump[1])
                if done < span:
                    front = back + 1 + (front - back - 1) * done // span
        units += self._put(frame, front, colour)
        head = 0
        if self.win_start is not None and side == view.winner:
            done = self.elapsed(now, self.win_start)
            if done < self.win_ms:
                # A comet runs up the winner's track to the game hole, every second.
                head = 1 + (done * target // 1000) % target
                for hole in range(max(1, head - 4), head + 1):
                    units += self._put(frame, hole, colour)
        self.heads[2 * side] = front
        self.heads[2 * side + 1] = head
        return units

    def draw(self, now):
        """Write each strip whose frame changed; returns how many were written."""
        if self.jumps:
            self.jumps = [j for j in self.jumps if self.elapsed(now, j[1]) < _JUMP_MS_MAX]
        last = self.tracks - 1
        units = 0
        for side in range(last + 1):
            units += self.frame(side, now)
        scale = self.fit_budget(units)
        written, held = 0, last  # the track whose frame frame_buf holds
        for track in range(last + 1):
            sent, heads, k = self.sent, self.heads, 4 * track
            rest, front, head = self.rests[track], heads[2 * track], heads[2 * track + 1]
            if (not self.fresh and sent[k] == rest and sent[k + 1] == front
                    and sent[k + 2] == head and sent[k + 3] == scale):
                continue
            sent[k + 3] = -1  # not known (no scale is -1), should the write fail
            if track != held:  # made again, unless frame_buf holds it still
                self.frame(track, now)
                held = track
            self.write(track, self.frame_buf, scale)
            sent[k], sent[k + 1], sent[k + 2], sent[k + 3] = rest, front, head, scale
            written += 1
        self.fresh = False
        return written

    def fit_budget(self, units):
        """A factor /256 (the strip driver's brightness) that keeps the board
        (strips, Pico, OLED) within the current budget; ``units``: the frames'
        channel values summed (255 on one channel draws full/3 mA)."""
        idle = self.idle_ma * self.leds * self.tracks + self.board_ma
        lit = units * self.full_ma // (3 * 255)
        if idle + lit <= self.budget or lit == 0:
            self.milliamps = idle + lit
            return 256
        scale = (self.budget - idle) * 256 // lit
        self.milliamps = idle + lit * scale // 256
        return max(0, scale)


def _scale(rgb, fraction):
    return (int(rgb[0] * fraction), int(rgb[1] * fraction), int(rgb[2] * fraction))
