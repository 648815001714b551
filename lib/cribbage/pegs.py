"""cribbage.pegs: the LED tracks, drawn like pegs in a wooden board.

The front peg is bright in the player's colour, the back peg dim behind it, so
the gap shows the last score. Faint marks every 5 holes; the skunk line and the
game hole stand out; the dealer's game hole glows white. A frame never draws
more than the board's current budget.
"""

from engine.match import SHORT_GAME_HOLE, SHORT_SKUNK_LINE, SKUNK_LINE, DOUBLE_SKUNK_LINE

# Skunk marks are white: no player has it in any colour set (tests check).
MARK = (1, 1, 1)          # every fifth hole
SKUNK_MARK = (4, 4, 4)    # the skunk lines: brighter than the fifth-hole marks
GAME_MARK = (4, 3, 0)     # the game hole
DEALER_MARK = (8, 8, 8)   # the dealer's game hole
SKUNKED = (24, 24, 24)    # after a skunk: every fifth hole of the loser's track, up to the line
BACK_SHARE = 5            # the back peg is a fifth as bright as the front
JUMP_MS_PER_HOLE = 25
JUMP_MS_MAX = 500
WIN_MS = 3000        # the winner's comet: three runs up the track
MATCH_WIN_MS = 9000  # the match's winner: nine


_TICKS_PERIOD = 1 << 29  # supervisor.ticks_ms() wraps to 0 after 2**29 ms (~6 days)


def elapsed(now, then):
    """Milliseconds from `then` to `now` on a clock that wraps."""
    return (now - then) % _TICKS_PERIOD


def peg_hole(score, target):
    return score if score < target else target


class Pegs:
    def __init__(self, strips, hole_map, config):
        self.strips = strips
        self.map = hole_map  # hole_map[hole - 1] = LED under the hole
        self.leds = len(hole_map)
        self.cap = getattr(config, "BRIGHTNESS_CAP", 0.25)
        self.budget = getattr(config, "CURRENT_BUDGET_MA", 500)
        self.full_ma = getattr(config, "LED_FULL_WHITE_MA", 60)
        self.idle_ma = getattr(config, "IDLE_MA_PER_LED", 1)
        # Frames are bytearrays of r, g, b per LED: a few hundred bytes, not tuples.
        # A new strip object holds all black, so only lit LEDs need setting at first.
        self.shown = [bytearray(3 * self.leds) for _ in strips]
        self.fresh = [True] * len(strips)
        self.jumps = []   # [side, start ms] of pegs on their way
        self.win_start = None
        self.win_ms = WIN_MS
        self.milliamps = 0
        self._face = None  # (target, marks frame): the board's face, made once

    def animate(self, scores, now):
        """Start a jump for each Score (side, points) just pegged."""
        for s in scores:
            self.jumps.append([s.side, now])

    def celebrate(self, now, match=False):
        self.win_start = now
        self.win_ms = MATCH_WIN_MS if match else WIN_MS

    def busy(self, now):
        if self.win_start is not None and elapsed(now, self.win_start) >= self.win_ms:
            self.win_start = None  # over: it must not come back when the clock wraps
        return bool(self.jumps) or self.win_start is not None

    def _put(self, frame, hole, rgb):
        i = 3 * self.map[hole - 1]
        frame[i] = rgb[0]
        frame[i + 1] = rgb[1]
        frame[i + 2] = rgb[2]

    def marks(self, target):
        """The board's fixed face: marks every 5 holes, skunk lines, game hole."""
        if self._face is None or self._face[0] != target:
            face = bytearray(3 * self.leds)
            for hole in range(5, target, 5):
                self._put(face, hole, MARK)
            lines = (SHORT_SKUNK_LINE,) if target == SHORT_GAME_HOLE else (DOUBLE_SKUNK_LINE, SKUNK_LINE)
            for hole in lines:
                self._put(face, hole, SKUNK_MARK)
            self._put(face, target, GAME_MARK)
            self._face = (target, bytes(face))
        return bytearray(self._face[1])

    def frame(self, view, side, now):
        """The colours of one track: r, g, b per LED along the strip."""
        target = view.target
        if side >= len(view.scores):
            return bytearray(3 * self.leds)  # a track this game does not use
        face = self.marks(target)
        if side == view.dealer_side:
            self._put(face, target, DEALER_MARK)
        if view.loser_skunked and side == view.loser:
            for hole in range(5, view.skunk_line, 5):
                self._put(face, hole, SKUNKED)
        colour = _scale(view.colours[side], view.brightness * self.cap)
        dim = (colour[0] // BACK_SHARE, colour[1] // BACK_SHARE, colour[2] // BACK_SHARE)
        front = peg_hole(view.scores[side], target)
        back = peg_hole(view.backs[side], target)
        for jump in self.jumps:
            if jump[0] == side and front > back:
                span = min(JUMP_MS_MAX, (front - back) * JUMP_MS_PER_HOLE)
                done = elapsed(now, jump[1])
                if done < span:
                    front = back + 1 + (front - back - 1) * done // span
        if back:
            self._put(face, back, dim)
        if front:
            self._put(face, front, colour)
        if self.win_start is not None and side == view.winner:
            done = elapsed(now, self.win_start)
            if done < self.win_ms:
                # A comet runs up the winner's track to the game hole, every second.
                head = 1 + (done * target // 1000) % target
                for hole in range(max(1, head - 4), head + 1):
                    self._put(face, hole, colour)
        return face

    def draw(self, view, now):
        """Write each strip whose frame changed; returns how many were written."""
        self.jumps = [j for j in self.jumps if elapsed(now, j[1]) < JUMP_MS_MAX]
        frames = [self.frame(view, side, now) for side in range(len(self.strips))]
        scale = self.fit_budget(frames)
        written = 0
        for track in range(len(frames)):
            frame = frames[track]
            if scale < 256:
                for i in range(len(frame)):
                    frame[i] = frame[i] * scale >> 8
            old = self.shown[track]
            if frame == old and not self.fresh[track]:
                continue
            strip = self.strips[track]
            for led in range(self.leds):
                i = 3 * led
                if old[i] != frame[i] or old[i + 1] != frame[i + 1] or old[i + 2] != frame[i + 2]:
                    strip[led] = (frame[i], frame[i + 1], frame[i + 2])
            strip.show()
            self.shown[track] = frame
            self.fresh[track] = False
            written += 1
        return written

    def fit_budget(self, frames):
        """A factor /256 that keeps all strips within the current budget."""
        units = 0  # sum of channel values; 255 on one channel draws full/3 mA
        for frame in frames:
            units += sum(frame)
        idle = self.idle_ma * self.leds * len(frames)
        lit = units * self.full_ma // (3 * 255)
        if idle + lit <= self.budget or lit == 0:
            self.milliamps = idle + lit
            return 256
        scale = (self.budget - idle) * 256 // lit
        self.milliamps = idle + lit * scale // 256
        return max(0, scale)

    def colour_at(self, track, hole):
        """The (r, g, b) last written under `hole` of `track`."""
        frame = self.shown[track]
        i = 3 * self.map[hole - 1]
        return (frame[i], frame[i + 1], frame[i + 2])


def _scale(rgb, fraction):
    return (int(rgb[0] * fraction), int(rgb[1] * fraction), int(rgb[2] * fraction))
