#!/usr/bin/env python3
"""Play the cribbage board on a laptop: the real firmware on the simulated board.

    python tools/sim.py                          # interactive in a terminal
    python tools/sim.py --keys "12A 5B" --json   # scripted: one JSON object
    python tools/sim.py --keys "12A 5B"          # scripted: a readable summary
    python tools/sim.py --keys "#5B" --png board.png
    python tools/sim.py --state game.nvm         # resume, saving on every key

It builds ``boards.sim.board`` (the real neopixel and SSD1306 drivers over pin- and
bus-level fakes) and runs ``cribbage.app.App`` on it, the same code the Pico runs.
Everything shown is read back from what the strips and the OLED received.

Keys are the keypad's ``123A456B789C*0#D`` (a-d may be typed in lower case;
spaces are ignored). Without a terminal and without ``--keys`` (as in CI) it
plays a short demo hand and prints the board. Bad keys and unreadable state
files are one line on stderr and exit code 2.

The JSON object (``Sim.state``): players, tracks, target, phase, mode, sides
(letters), scores (per player or team), pegs (per player: [front hole, back
hole]), dealer (seat, from 1), dealer_name (its letter as the OLED writes it),
winner (letter or null), message, detail (the last show's breakdown), oled
(the text rows, suits as Unicode), leds (per track: [hole, [r, g, b]] of each
lit LED as the strip received it) and milliamps (the firmware's estimate).
"""

import argparse
import json
import os
import select
import sys
import time

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (os.path.join(REPO, "lib"), REPO):  # the board's search path: / and /lib
    if _path not in sys.path:
        sys.path.insert(0, _path)

from boards import layout  # noqa: E402
from boards.sim import board as sim  # noqa: E402
from boards.sim.nvm import NVM_SECTOR  # noqa: E402
from engine.game import PHASE_NAMES  # noqa: E402
from engine.play import NOBODY  # noqa: E402
from cribbage.app import App  # noqa: E402
from cribbage.keys import LEGEND  # noqa: E402
from cribbage.names import seat_name, side_name  # noqa: E402

SETTLE_MS = 2000      # after each scripted key: long enough for a peg's jump
SETTLE_STEP_MS = 250  # then on in steps while an animation is still running
SETTLE_MAX_MS = 10000
ROW = 30              # holes per row, as on a wooden board
DEMO_KEYS = "6B 4A # 5C 0A 5B 5D 5A"
SUITS = {"\x06": "\u2660", "\x03": "\u2665", "\x04": "\u2666", "\x05": "\u2663"}
_SUIT_TABLE = str.maketrans(SUITS)
KEY_NOTES = {  # what a key does, for the legends
    "A": "player A / jack / spade",
    "B": "player B / queen / heart",
    "C": "player C / king / diamond",
    "D": "menu / club",
    "*": "clear, undo, back",
    "#": "step: starter, play, show",
    "0": "0 / ten",
    "1": "1 / ace",
}


class UsageError(Exception):
    """A bad key or state file: one line on stderr, exit code 2."""


def unicode_suits(text):
    """OLED text with the font's suit glyphs as the Unicode suit symbols."""
    return text.translate(_SUIT_TABLE)


def keypad_key(char):
    """The keypad key a typed character stands for (a-d as A-D), or None."""
    if char in "abcd":
        char = char.upper()
    return char if len(char) == 1 and char in LEGEND else None


def parse_keys(text):
    """The keys of a --keys string, spaces dropped; UsageError naming bad ones."""
    keys = []
    bad = []
    for char in text:
        if char.isspace():
            continue
        key = keypad_key(char)
        if key is None:
            bad.append(char)
        else:
            keys.append(key)
    if bad:
        raise UsageError("no key %s on the keypad; the keys are %s (a-d also work)"
                         % (", ".join(repr(c) for c in bad), LEGEND))
    return "".join(keys)


def read_state(path):
    """A saved nvm image: exactly one flash sector (UsageError otherwise)."""
    try:
        with open(path, "rb") as f:
            data = f.read(NVM_SECTOR + 1)
    except OSError as err:
        raise UsageError("cannot read state file %s: %s" % (path, err.strerror or err))
    if len(data) != NVM_SECTOR:
        raise UsageError("state file %s is %s bytes; a saved board is exactly %d"
                         % (path, "over %d" % NVM_SECTOR if len(data) > NVM_SECTOR
                            else len(data), NVM_SECTOR))
    return data


def write_state(path, data):
    """Write the nvm image atomically (a temporary file renamed over the old)."""
    tmp = "%s.tmp%d" % (path, os.getpid())
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as err:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise UsageError("cannot write state file %s: %s" % (path, err.strerror or err))


# ---------------------------------------------------------------------------
# The board with the firmware on it
# ---------------------------------------------------------------------------

class Sim:
    """The sim board and the firmware app running on it."""

    def __init__(self, tracks=2, nvm=None):
        self.board = sim.build(tracks=tracks, nvm=nvm)
        self.app = App(self.board)
        # led_hole[track LED] = the hole it sits under, from the board's layout
        table = layout.hole_map(self.board.config)
        self.led_hole = [0] * len(table)
        for hole_index, led in enumerate(table):
            self.led_hole[led] = hole_index + 1

    @property
    def game(self):
        return self.app.table.game

    @property
    def tracks(self):
        return len(self.board.tracks)

    def press(self, key):
        """One key press, as the board's loop takes it."""
        self.board.press(key)
        self.app.step()

    def settle(self):
        """Let time pass until the animations are over."""
        clock = self.board.clock
        clock.advance(SETTLE_MS)
        self.app.step()
        waited = SETTLE_MS
        while self.app.pegs.busy(self.board.ticks_ms()) and waited < SETTLE_MAX_MS:
            clock.advance(SETTLE_STEP_MS)
            waited += SETTLE_STEP_MS
            self.app.step()

    def play(self, keys):
        for key in keys:
            self.press(key)
            self.settle()

    def nvm_image(self):
        nvm = self.board.nvm
        return bytes(nvm[0:len(nvm)])

    # ---- what the board shows
    def holes(self, track):
        """[(hole, (r, g, b))] of the lit LEDs of a track, as the strip received them."""
        lit = []
        for led, rgb in enumerate(self.board.strip_pixels(track)):
            if rgb != (0, 0, 0):
                lit.append((self.led_hole[led], tuple(rgb)))
        lit.sort()
        return lit

    def colours(self, track):
        """{hole: (r, g, b)} of every hole of a track (unlit ones (0, 0, 0))."""
        out = {hole: (0, 0, 0) for hole in range(1, len(self.led_hole) + 1)}
        out.update(dict(self.holes(track)))
        return out

    def peak(self):
        """The highest channel value any strip received (at least 1)."""
        best = 1
        for track in range(self.tracks):
            for rgb in self.board.strip_pixels(track):
                best = max(best, max(rgb))
        return best

    def pegs(self):
        """[front, back] hole of each side (0 = the start, off the strip)."""
        game = self.game
        target = game.config.target
        return [[min(game.scores[s], target), min(game.backs[s], target)]
                for s in range(game.sides)]

    def oled_lines(self):
        return [unicode_suits(line) for line in self.app.oled_lines()]

    def state(self):
        """Everything a script may want to check, as plain JSON values."""
        game = self.game
        table = self.app.table
        return {
            "players": game.players,
            "tracks": self.tracks,
            "target": game.config.target,
            "phase": PHASE_NAMES[game.phase],
            "mode": table.mode,
            "sides": [side_name(game, s) for s in range(game.sides)],
            "scores": list(game.scores),
            "pegs": self.pegs(),
            "dealer": game.dealer + 1,
            "dealer_name": seat_name(game, game.dealer),
            "winner": side_name(game, game.winner) if game.winner != NOBODY else None,
            "message": unicode_suits(table.message),
            "detail": [unicode_suits(line) for line in table.detail],
            "oled": self.oled_lines(),
            "leds": [[[hole, list(rgb)] for hole, rgb in self.holes(t)]
                     for t in range(self.tracks)],
            "milliamps": self.app.pegs.milliamps,
        }


def display_colour(rgb, peak, unlit=(40, 40, 40)):
    """An LED's colour brightened for a picture: ``peak`` (the brightest channel
    on the board) maps to 255 and dimmer values rise on a cube-root curve, so
    the faint marks still show; an unlit LED is dark grey."""
    if max(rgb) == 0:
        return unlit
    return tuple(int(round(255 * (min(c, peak) / peak) ** (1 / 3))) for c in rgb)


def to_json(state):
    """One JSON object, a key per line (values compact)."""
    body = ",\n".join("  %s: %s" % (json.dumps(k), json.dumps(v, ensure_ascii=False))
                      for k, v in state.items())
    return "{\n" + body + "\n}"


# ---------------------------------------------------------------------------
# The readable summary
# ---------------------------------------------------------------------------

def track_text(sim_, track):
    """A track as text rows of 30 holes: the side's letter at its front peg,
    lower case at the back peg, + for other lit holes, . for unlit ones."""
    game = sim_.game
    colours = sim_.colours(track)
    front = back = -1
    letter = "?"
    if track < game.sides:
        front, back = sim_.pegs()[track]
        letter = side_name(game, track)
    rows = []
    count = len(colours)
    for start in range(1, count + 1, ROW):
        cells = []
        for hole in range(start, min(start + ROW, count + 1)):
            if hole == front:
                ch = letter
            elif hole == back:
                ch = letter.lower()
            elif colours[hole] != (0, 0, 0):
                ch = "+"
            else:
                ch = "."
            if hole > start and (hole - 1) % 5 == 0:
                cells.append(" ")
            cells.append(ch)
        rows.append("%4d %s" % (start, "".join(cells)))
    return rows


def oled_blocks(pixels, step_x=2, step_y=1, on="\u2588", top="\u2580", bottom="\u2584"):
    """The OLED pixels as half-block text: two pixel rows a character row.
    ``step_x``/``step_y`` > 1 merge pixels (any lit one lights the merged one)."""
    height = len(pixels)
    width = len(pixels[0]) if height else 0

    def lit(y, x):
        for yy in range(y, min(y + step_y, height)):
            row = pixels[yy]
            for xx in range(x, min(x + step_x, width)):
                if row[xx]:
                    return True
        return False

    lines = []
    for y in range(0, height, 2 * step_y):
        line = []
        for x in range(0, width, step_x):
            a = lit(y, x)
            b = lit(y + step_y, x) if y + step_y < height else False
            line.append(on if a and b else top if a else bottom if b else " ")
        lines.append("".join(line))
    return lines


def summary(sim_):
    game = sim_.game
    st = sim_.state()
    out = []
    out.append("Cribbage board (simulator): %d players, game to %d, %d tracks"
               % (st["players"], st["target"], st["tracks"]))
    winner = "%s wins" % st["winner"] if st["winner"] else "no winner yet"
    out.append("Phase: %s   dealer: %s (seat %d)   %s"
               % (st["phase"], st["dealer_name"], st["dealer"], winner))
    for side, name in enumerate(st["sides"]):
        front, back = st["pegs"][side]
        out.append("  %s  %3d   front peg %d, back peg %d   (track %d)"
                   % (name, game.scores[side], front, back, side + 1))
    if st["message"]:
        out.append("Message: %s" % st["message"])
    out.append("")
    for track in range(sim_.tracks):
        name = side_name(game, track) if track < game.sides else "unused"
        out.append("Track %d (%s): letter = front peg, lower case = back peg, + = lit"
                   % (track + 1, name))
        out.extend(track_text(sim_, track))
    out.append("")
    out.append("OLED text:")
    for line in st["oled"]:
        out.append("  | %s" % line)
    out.append("OLED pixels:")
    border = "+" + "-" * 128 + "+"
    out.append("  " + border)
    for line in oled_blocks(sim_.board.oled_pixels(), step_x=1):
        out.append("  |" + line + "|")
    out.append("  " + border)
    return "\n".join(out)


# ---------------------------------------------------------------------------
# The picture
# ---------------------------------------------------------------------------

PNG_MARGIN = 24
HOLE_PITCH = 18       # px between hole centres
HOLE_RADIUS = 6
FIVE_GAP = 8          # extra space after every fifth hole
LANE_PITCH = 20       # px between the tracks of one row
ROW_GAP = 18          # px between rows of holes
LABEL_W = 44          # left of the holes: row start numbers and lane letters
OLED_SCALE = 3
OLED_ON = (150, 210, 255)   # a blue-white OLED pixel
OLED_OFF = (0, 0, 0)
BOARD_WOOD = (92, 60, 32)
KEY_SIZE = 44
KEY_PITCH = 52


def _hole_x(index_in_row):
    return PNG_MARGIN + LABEL_W + index_in_row * HOLE_PITCH + (index_in_row // 5) * FIVE_GAP


def board_geometry(tracks, count=121):
    """Sizes and positions of the picture's parts (shared with the tests)."""
    rows = (count + ROW - 1) // ROW
    row_h = tracks * LANE_PITCH + ROW_GAP
    holes_w = _hole_x(ROW - 1) + HOLE_RADIUS + PNG_MARGIN
    top = PNG_MARGIN + 28  # a title line above the holes
    holes_bottom = top + rows * row_h
    oled_x = PNG_MARGIN
    oled_y = holes_bottom + 16
    oled_w, oled_h = 128 * OLED_SCALE, 64 * OLED_SCALE
    keys_x = oled_x + oled_w + 8 + 40
    keys_y = oled_y
    keys_w = 3 * KEY_PITCH + KEY_SIZE
    width = max(holes_w, keys_x + keys_w + 16 + 190 + PNG_MARGIN)
    height = oled_y + max(oled_h, 4 * KEY_PITCH) + 24 + PNG_MARGIN
    return {
        "width": width, "height": height, "top": top, "row_h": row_h,
        "oled": (oled_x, oled_y), "keys": (keys_x, keys_y), "count": count,
    }


def hole_centre(track, hole, tracks, count=121):
    """The pixel at the centre of ``hole`` (1..count) of ``track`` in the picture."""
    geo = board_geometry(tracks, count)
    row, along = divmod(hole - 1, ROW)
    x = _hole_x(along)
    y = geo["top"] + row * geo["row_h"] + track * LANE_PITCH + LANE_PITCH // 2
    return x, y


def _font(image_font, size):
    try:
        return image_font.load_default(size=size)
    except (TypeError, ValueError, OSError, ImportError):  # Pillow without FreeType
        return image_font.load_default()


def board_image(sim_):
    """A Pillow image of the board: tracks, pegs, OLED and keypad."""
    from PIL import Image, ImageDraw, ImageFont

    tracks = sim_.tracks
    count = len(sim_.led_hole)
    geo = board_geometry(tracks, count)
    img = Image.new("RGB", (geo["width"], geo["height"]), (24, 24, 28))
    draw = ImageDraw.Draw(img)
    font = _font(ImageFont, 13)
    big = _font(ImageFont, 18)
    game = sim_.game

    # the wooden board
    wood_bottom = geo["top"] + ((count + ROW - 1) // ROW) * geo["row_h"]
    draw.rounded_rectangle((PNG_MARGIN // 2, PNG_MARGIN // 2, geo["width"] - PNG_MARGIN // 2,
                            wood_bottom), radius=12, fill=BOARD_WOOD)
    names = ", ".join("%s %d" % (side_name(game, s), game.scores[s]) for s in range(game.sides))
    title = "%s   dealer %s   %s" % (names, seat_name(game, game.dealer), PHASE_NAMES[game.phase])
    if game.winner != NOBODY:
        title += "   %s wins" % side_name(game, game.winner)
    draw.text((PNG_MARGIN, PNG_MARGIN - 2), title, fill=(255, 240, 220), font=big)

    peak = sim_.peak()
    pegs = sim_.pegs()
    for track in range(tracks):
        colours = sim_.colours(track)
        letter = side_name(game, track) if track < game.sides else "-"
        for hole in range(1, count + 1):
            x, y = hole_centre(track, hole, tracks, count)
            if (hole - 1) % ROW == 0:
                draw.text((PNG_MARGIN, y), letter, fill=(255, 240, 220), font=font, anchor="lm")
                if track == 0:
                    draw.text((PNG_MARGIN + LABEL_W - 10, y - 8), str(hole),
                              fill=(220, 200, 170), font=font, anchor="rs")
            r = HOLE_RADIUS
            draw.ellipse((x - r, y - r, x + r, y + r), fill=display_colour(colours[hole], peak),
                         outline=(40, 26, 14))
        if track < game.sides:
            front, back = pegs[track]
            for hole, width, ring in ((back, 1, (200, 200, 200)), (front, 2, (255, 255, 255))):
                if hole:
                    x, y = hole_centre(track, hole, tracks, count)
                    r = HOLE_RADIUS + 3
                    draw.ellipse((x - r, y - r, x + r, y + r), outline=ring, width=width)

    # the OLED, pixel for pixel from the panel's RAM
    ox, oy = geo["oled"]
    s = OLED_SCALE
    draw.rectangle((ox - 4, oy - 4, ox + 128 * s + 3, oy + 64 * s + 3), fill=(10, 10, 10),
                   outline=(90, 90, 90))
    draw.rectangle((ox, oy, ox + 128 * s - 1, oy + 64 * s - 1), fill=OLED_OFF)
    for y, row in enumerate(sim_.board.oled_pixels()):
        for x, bit in enumerate(row):
            if bit:
                draw.rectangle((ox + x * s, oy + y * s, ox + x * s + s - 1, oy + y * s + s - 1),
                               fill=OLED_ON)
    draw.text((ox, oy + 64 * s + 8), "OLED 128x64, pixel for pixel", fill=(160, 160, 160),
              font=font)

    # the keypad
    kx, ky = geo["keys"]
    for i, key in enumerate(LEGEND):
        row, col = divmod(i, 4)
        x = kx + col * KEY_PITCH
        y = ky + row * KEY_PITCH
        face = (70, 70, 80) if key.isdigit() else (120, 40, 40) if key in "ABCD" else (60, 60, 110)
        draw.rounded_rectangle((x, y, x + KEY_SIZE, y + KEY_SIZE), radius=6, fill=face,
                               outline=(200, 200, 200))
        draw.text((x + KEY_SIZE // 2, y + KEY_SIZE // 2), key, fill=(255, 255, 255),
                  font=big, anchor="mm")
    note_x = kx + 4 * KEY_PITCH + 4
    for i, key in enumerate("ABCD*#"):
        draw.text((note_x, ky + 4 + i * 22), "%s  %s" % (key, KEY_NOTES[key]),
                  fill=(200, 200, 200), font=font)
    draw.text((note_x, ky + 4 + 6 * 22), "0 = ten, 1 = ace", fill=(200, 200, 200), font=font)
    return img


# ---------------------------------------------------------------------------
# The terminal
# ---------------------------------------------------------------------------

TERM_LABEL = 9  # "A    1 " before the holes of a row


def term_hole_column(hole):
    """The 0-based screen column of a hole in the interactive track rows."""
    along = (hole - 1) % ROW
    return TERM_LABEL + along * 2 + along // 5


def _fg(rgb):
    return "\x1b[38;2;%d;%d;%dm" % tuple(rgb)


RESET = "\x1b[0m"


def term_tracks(sim_, gaps=True):
    """The tracks in 24-bit colour: one line per track, per row of 30 holes."""
    game = sim_.game
    peak = sim_.peak()
    count = len(sim_.led_hole)
    colours = [sim_.colours(t) for t in range(sim_.tracks)]
    lines = []
    for start in range(1, count + 1, ROW):
        for track in range(sim_.tracks):
            letter = side_name(game, track) if track < game.sides else "-"
            cells = [("%-3s %4d " % (letter, start)).ljust(TERM_LABEL)]
            for hole in range(start, min(start + ROW, count + 1)):
                if hole > start and (hole - 1) % 5 == 0:
                    cells.append(" ")
                rgb = colours[track][hole]
                if rgb == (0, 0, 0):
                    cells.append(_fg((90, 90, 90)) + "\u00b7 ")
                else:
                    cells.append(_fg(display_colour(rgb, peak)) + "\u25cf ")
            lines.append("".join(cells) + RESET)
        if gaps:
            lines.append("")
    return lines


def term_panel(sim_, note, with_oled):
    game = sim_.game
    st = sim_.state()
    lines = []
    for side, name in enumerate(st["sides"]):
        front, back = st["pegs"][side]
        lines.append("%s %3d  (pegs %d/%d)" % (name, game.scores[side], front, back))
    lines.append("dealer %s, %s%s" % (st["dealer_name"], st["phase"],
                                      ", %s wins!" % st["winner"] if st["winner"] else ""))
    lines.append(note)
    lines.append("")
    lines += ["keypad    laptop keys:",
              "1 2 3 A   0-9, a-d or A-D, * #",
              "4 5 6 B   q or Ctrl-C quits",
              "7 8 9 C",
              "* 0 # D",
              ""]
    for key in "ABCD*#":
        lines.append("%s  %s" % (key, KEY_NOTES[key]))
    if with_oled:
        lines.append("")
        lines.append("OLED text:")
        lines.extend(st["oled"])
    return lines


PANEL_W = 30


def clip(line, width):
    """``line`` cut to ``width`` visible characters (escape sequences kept whole)."""
    out = []
    seen = 0
    i = 0
    while i < len(line):
        if line[i] == "\x1b":
            j = i + 1
            while j < len(line) and not line[j].isalpha():
                j += 1
            out.append(line[i:j + 1])
            i = j + 1
            continue
        if seen >= width:
            break
        out.append(line[i])
        seen += 1
        i += 1
    return "".join(out) + (RESET if "\x1b" in line else "")


def term_screen(sim_, size, note=""):
    """The whole interactive screen as lines (with colour escapes), fitted to
    ``size`` (columns, rows): the OLED at full size, halved, or as its text."""
    columns, rows = size
    header = ["Cribbage board simulator: the firmware on the sim board", ""]
    tracks = term_tracks(sim_)
    top = header + tracks
    if rows < len(top) + 18:
        top = term_tracks(sim_, gaps=False)
    room = rows - len(top) - 1
    wide = columns >= 128 + 2 + 2 + PANEL_W
    if room >= 34:
        art = oled_blocks(sim_.board.oled_pixels(), step_x=1 if wide else 2)
    elif room >= 18:
        art = oled_blocks(sim_.board.oled_pixels(), step_x=1 if wide else 2, step_y=2)
    else:
        art = None
    if art is not None:
        width = len(art[0])
        body = ["\x1b[38;2;%d;%d;%dm\x1b[48;2;0;0;0m%s%s" % (OLED_ON + (line, RESET))
                for line in art]
    else:
        width = 21
        body = [line.ljust(width)[:width] for line in sim_.oled_lines()]
    box = ["\u250c" + "\u2500" * width + "\u2510"]
    box += ["\u2502" + line + "\u2502" for line in body]
    box += ["\u2514" + "\u2500" * width + "\u2518"]
    panel = term_panel(sim_, note, art is not None)
    lines = list(top)
    if columns >= width + 2 + 2 + PANEL_W:
        for i in range(max(len(box), len(panel))):
            left = box[i] if i < len(box) else " " * (width + 2)
            right = panel[i] if i < len(panel) else ""
            lines.append(left + "  " + right)
    else:
        lines.extend(box)
        lines.extend(panel)
    return [clip(line, columns) for line in lines[:max(1, rows - 1)]]


def interactive(sim_, save_path):
    import termios
    import tty

    fd = sys.stdin.fileno()
    out = sys.stdout
    saved = termios.tcgetattr(fd)
    note = "state file: %s" % save_path if save_path else "no state file (--state FILE)"
    last_frame = None
    try:
        tty.setraw(fd)
        out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        out.flush()
        clock = sim_.board.clock
        then = time.monotonic()
        spare = 0.0
        size = None
        while True:
            now = time.monotonic()
            spare += (now - then) * 1000.0
            then = now
            if spare >= 1:
                clock.advance(int(spare))
                spare -= int(spare)
            ready, _, _ = select.select([fd], [], [], 0.03)
            if ready:
                typed = os.read(fd, 64).decode("utf-8", "replace")
                for char in typed:
                    if char in ("q", "Q", "\x03", "\x04"):
                        return
                    key = keypad_key(char)
                    if key is None:
                        note = "no key %r: the keys are %s" % (char, LEGEND)
                        continue
                    sim_.press(key)
                    if save_path:
                        write_state(save_path, sim_.nvm_image())
                        note = "state saved to %s" % save_path
            sim_.app.step()
            try:
                new_size = os.get_terminal_size(out.fileno())
            except OSError:
                new_size = os.terminal_size((80, 24))
            frame = (sim_.board.oled_frame(),
                     tuple(sim_.board.strip_bytes(t) for t in range(sim_.tracks)),
                     note, tuple(new_size))
            if frame != last_frame:
                if new_size != size:
                    out.write("\x1b[2J")
                    size = new_size
                lines = term_screen(sim_, tuple(new_size), note)
                out.write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J")
                out.flush()
                last_frame = frame
    except KeyboardInterrupt:
        return
    finally:
        out.write(RESET + "\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        game = sim_.game
        scores = ", ".join("%s %d" % (side_name(game, s), game.scores[s])
                           for s in range(game.sides))
        print("Left the board at %s%s." % (
            scores, "; saved to %s" % save_path if save_path else ""))


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="tools/sim.py",
        description="Run the board's firmware on the simulated board. In a terminal "
                    "(no --keys) it is played with the laptop's keys; with --keys it "
                    "presses those and prints the board; without a terminal it plays "
                    "a short demo hand.")
    p.add_argument("--keys", help="keypad keys to press, e.g. \"12A 5B #5B\" "
                   "(spaces ignored, a-d as A-D)")
    p.add_argument("--json", action="store_true",
                   help="print the board as one JSON object instead of a summary")
    p.add_argument("--state", metavar="FILE",
                   help="start from this saved nvm image (4096 bytes); interactive "
                        "play saves back to it on every key (a missing file is created)")
    p.add_argument("--save", metavar="FILE", help="write the nvm image here at the end")
    p.add_argument("--png", metavar="FILE", help="draw the board into this PNG file")
    p.add_argument("--tracks", type=int, choices=(2, 3), default=2,
                   help="LED tracks on the board (default 2)")
    return p.parse_args(argv)


def run(args):
    interactive_mode = args.keys is None and sys.stdin.isatty() and sys.stdout.isatty()
    keys = parse_keys(args.keys) if args.keys is not None else None
    nvm = None
    if args.state:
        if interactive_mode and not os.path.exists(args.state):
            nvm = None  # first run: the file is made on the first key
        else:
            nvm = read_state(args.state)
    sim_ = Sim(tracks=args.tracks, nvm=nvm)
    if interactive_mode:
        interactive(sim_, args.state or args.save)
        if args.save and args.state and args.save != args.state:
            write_state(args.save, sim_.nvm_image())
        if args.png:
            board_image(sim_).save(args.png)
        return 0
    demo = keys is None
    if demo:
        keys = parse_keys(DEMO_KEYS)
    sim_.play(keys)
    if args.save:
        write_state(args.save, sim_.nvm_image())
    if args.png:
        try:
            board_image(sim_).save(args.png)
        except OSError as err:
            raise UsageError("cannot write %s: %s" % (args.png, err))
    if args.json:
        print(to_json(sim_.state()))
    else:
        if demo:
            print("No terminal: a demo hand, keys %s" % DEMO_KEYS)
            print()
        print(summary(sim_))
    return 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except UsageError as err:
        sys.stderr.write("tools/sim.py: %s\n" % err)
        return 2
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
