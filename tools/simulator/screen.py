"""tools.simulator.screen: the interactive screen, laid out to fit the terminal's size.

The tracks in 24-bit colour (a glyph for each part of a hole as well), the
OLED drawn from its display RAM in half blocks, and a panel with the scores
and the keys. The OLED is drawn at full size (128 columns, 32 rows of half
blocks) whenever the terminal can hold it with the tracks (160x50 can), else
as its text lines: shrunk, its 5x8 font cannot be read. The key legend is
never cut.
"""

import textwrap

from cribbage.names import side_name
from tools.simulator.marks import (DARK, GLYPH_LEGEND, GLYPHS, OLED_ON, display_colour,
                                   hole_parts)
from tools.simulator.session import ROW
from tools.simulator.text import KEY_NOTES, board_state, oled_blocks, oled_text

TITLE = "Cribbage board simulator: the firmware on the sim board"
TERM_LABEL = 9        # "A      1 " before the holes of a row
UNLIT_FG = (60, 60, 60)  # an unlit hole's dot: darker than marks.LIT_FLOOR, the dimmest lit one
RESET = "\x1b[0m"
PANEL_W = 28          # the narrow panel beside a full-size OLED at 160 columns
WIDE_PANEL_W = 52     # room for the keypad beside what its keys do
OLED_TEXT_W = 21      # characters on an OLED row
LAPTOP_KEYS = "laptop keys: 0-9, a-d or A-D, * #; q or Ctrl-C quits"

PIXELS, TEXT = "pixels", "text"  # how the OLED is drawn: full size, or its text rows


def _fg(rgb):
    return "\x1b[38;2;%d;%d;%dm" % tuple(rgb)


def _last_row_folded(count):
    """A last row of one hole (hole 121, the game hole) goes at the end of the row before."""
    return count > ROW and count % ROW == 1


def term_hole_column(hole, count=121):
    """The 0-based screen column of a hole in the interactive track rows."""
    along = (hole - 1) % ROW
    if _last_row_folded(count) and hole == count:
        along = ROW  # after the row's last hole, past one more gap
        return TERM_LABEL + along * 2 + along // 5 + 1
    return TERM_LABEL + along * 2 + along // 5


def term_row_starts(count):
    """The first hole of each screen row of a track."""
    starts = list(range(1, count + 1, ROW))
    if _last_row_folded(count):
        starts.pop()
    return starts


def term_tracks(session, gaps=True):
    """The tracks: one line per track, per row of 30 holes (the game hole folded
    onto the last row), each hole its glyph in the colour its LED received."""
    game = session.game
    peak = session.peak()
    count = session.holes_per_track
    colours = [session.colours(t) for t in range(session.tracks)]
    parts = [hole_parts(session, t) for t in range(session.tracks)]
    starts = term_row_starts(count)
    lines = []
    for n, start in enumerate(starts):
        last = n == len(starts) - 1
        stop = count if last else start + ROW - 1
        for track in range(session.tracks):
            letter = side_name(track) if track < game.sides else "-"
            line = ("%-3s %4d " % (letter, start))
            for hole in range(start, stop + 1):
                line += " " * (term_hole_column(hole, count) - _visible(line))
                rgb = colours[track][hole]
                part = parts[track][hole]
                fg = UNLIT_FG if part == DARK else display_colour(rgb, peak)
                line += _fg(fg) + GLYPHS[part] + " "
            lines.append(line + RESET)
        if gaps and not last:
            lines.append("")
    return lines


def _visible(line):
    """Characters of ``line`` that take a column (escape sequences take none)."""
    seen = 0
    i = 0
    while i < len(line):
        if line[i] == "\x1b":
            i += 1
            while i < len(line) and not line[i].isalpha():
                i += 1
        else:
            seen += 1
        i += 1
    return seen


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


def oled_box(session, form):
    """The OLED in a box, as lines: its pixels in half blocks, or its text rows."""
    if form == PIXELS:
        art = oled_blocks(session.board.oled_pixels())
        width = len(art[0])
        body = [_fg(OLED_ON) + "\x1b[48;2;0;0;0m" + line + RESET for line in art]
    else:
        width = OLED_TEXT_W
        body = [(line + " " * width)[:width] for line in oled_text(session)]
    box = ["\u250c" + "\u2500" * width + "\u2510"]
    box += ["\u2502" + line + "\u2502" for line in body]
    box += ["\u2514" + "\u2500" * width + "\u2518"]
    return box, width + 2


def _score_lines(session):
    game = session.game
    st = board_state(session)
    lines = []
    for side, name in enumerate(st["sides"]):
        front, back = st["pegs"][side]
        lines.append("%s %3d  (pegs %d/%d%s)" % (name, game.scores[side], front, back,
                                               ", no track" if side >= session.tracks else ""))
    lines.append("%s deals, %s%s" % (st["dealer_name"], st["phase"],
                                     ", %s wins!" % st["winner"] if st["winner"] else ""))
    return lines


def _key_lines(width):
    """The keypad and what its keys do: side by side if ``width`` allows, else stacked."""
    notes = ["%s  %s" % (key, KEY_NOTES[key]) for key in "ABCD*#"]
    pad = ["1 2 3 A", "4 5 6 B", "7 8 9 C", "* 0 # D", "", ""]
    if width >= WIDE_PANEL_W:
        lines = ["%-7s  %s" % (pad[i], notes[i]) for i in range(6)]
        return [line.rstrip() for line in lines] + [LAPTOP_KEYS]
    return (["keypad   laptop keys:",
             "1 2 3 A  0-9, a-d or A-D",
             "4 5 6 B  * and #",
             "7 8 9 C  q or Ctrl-C quits",
             "* 0 # D", ""] + notes)


def _glyph_lines(width):
    """What each glyph on the tracks means, in as few lines of ``width`` as it takes."""
    lines = [""]
    for item in GLYPH_LEGEND:
        if lines[-1] and len(lines[-1]) + 2 + len(item) > width:
            lines.append("")
        lines[-1] += ("  " if lines[-1] else "") + item
    return lines


def panel(session, width, room, with_oled_text):
    """The panel's lines in at most ``room`` rows, or None if the keys do not fit.

    The key legend and the glyphs come first; then the scores, then the OLED's
    text (when the OLED is drawn as pixels), then blank lines between them.
    """
    sections = {"keys": _key_lines(width), "glyphs": _glyph_lines(width),
                "scores": _score_lines(session)}
    if with_oled_text:
        sections["oled"] = ["OLED text:"] + oled_text(session)
    order = ("scores", "glyphs", "keys", "oled")
    chosen = []
    for name in ("keys", "glyphs", "scores", "oled"):
        if name in sections:
            size = sum(len(sections[n]) for n in chosen) + len(sections[name])
            if size <= room:
                chosen.append(name)
            elif name in ("keys", "glyphs"):
                return None
    shown = [n for n in order if n in chosen]
    blanks = room - sum(len(sections[n]) for n in shown) >= len(shown) - 1
    lines = []
    for n in shown:
        if lines and blanks:
            lines.append("")
        lines.extend(sections[n])
    return lines


def _notes(session, note, columns):
    lines = []
    for text in [note] + session.warnings():
        if text:
            lines.extend(textwrap.wrap(text, max(20, columns), break_on_hyphens=False) or [""])
    return lines


def term_screen(session, size, note=""):
    """The whole interactive screen as lines (with colour escapes), fitted to
    ``size`` (columns, rows)."""
    columns, rows = size
    tracks = term_tracks(session, gaps=False)
    notes = _notes(session, note, columns)
    left = rows - len(tracks) - len(notes)
    body = None
    for form in (PIXELS, TEXT):
        box, box_w = oled_box(session, form)
        if box_w > columns or len(box) > left:
            continue
        pixels = form == PIXELS
        beside = columns - box_w - 2
        if beside >= PANEL_W:
            side = panel(session, beside, left, pixels)
            if side is not None:
                body = _beside(box, box_w, side)
                break
        else:
            below = panel(session, columns, left - len(box), pixels)
            if below is not None:
                body = box + below
                break
    if body is None:  # too small for anything whole: the text OLED and what fits
        box, box_w = oled_box(session, TEXT)
        body = box + _key_lines(columns)
    spare = rows - len(tracks) - len(notes) - len(body)
    top = []
    gapped = term_tracks(session, gaps=True)
    if spare >= len(gapped) - len(tracks):
        spare -= len(gapped) - len(tracks)
        tracks = gapped
    if spare >= 2:
        top = [TITLE, ""]
    lines = top + tracks + body + notes
    return [clip(line, columns) for line in lines[:max(1, rows)]]


def _beside(box, box_w, side):
    lines = []
    for i in range(max(len(box), len(side))):
        left = box[i] if i < len(box) else " " * box_w
        right = side[i] if i < len(side) else ""
        lines.append(left + "  " + right)
    return lines
