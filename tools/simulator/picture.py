"""tools.simulator.picture: a PNG of the board: tracks, pegs, the OLED pixel for pixel, keypad.

The holes are lit in the strips' colours (brightened by ``marks.display_colour``),
the OLED is copied from the panel's display RAM. Pillow is imported only to draw.
"""

import os

from engine.game import PHASE_NAMES
from engine.play import NOBODY
from boards import KEY_LEGEND as LEGEND
from cribbage.names import seat_name, side_name
from tools.simulator.marks import BACK, FRONT, OLED_ON, RINGS, display_colour
from tools.simulator.session import ROW, UsageError
from tools.simulator.text import KEY_NOTES

PNG_MARGIN = 24
HOLE_PITCH = 18       # px between hole centres
HOLE_RADIUS = 6
FIVE_GAP = 8          # extra space after every fifth hole
LANE_PITCH = 20       # px between the tracks of one row
ROW_GAP = 18          # px between rows of holes
LABEL_W = 44          # left of the holes: row start numbers and lane letters
OLED_SCALE = 3
OLED_OFF = (0, 0, 0)
BOARD_WOOD = (92, 60, 32)
KEY_SIZE = 44
KEY_PITCH = 52


def check_png_path(path):
    """Refuse, before anything is done, a --png name Pillow could not write as a PNG."""
    if not path.lower().endswith(".png"):
        raise UsageError("--png %s: the picture is a PNG; give a file name ending in .png"
                         % path)
    if os.path.isdir(path):
        raise UsageError("cannot write %s: it is a directory" % path)
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UsageError("cannot write %s: no folder %s" % (path, folder))


def save_png(session, path):
    try:
        board_image(session).save(path, format="PNG")
    except (OSError, ValueError) as err:
        raise UsageError("cannot write %s: %s" % (path, getattr(err, "strerror", None) or err))


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


def board_image(session):
    """A Pillow image of the board: tracks, pegs, OLED and keypad."""
    from PIL import Image, ImageDraw, ImageFont

    tracks = session.tracks
    count = session.holes_per_track
    geo = board_geometry(tracks, count)
    img = Image.new("RGB", (geo["width"], geo["height"]), (24, 24, 28))
    draw = ImageDraw.Draw(img)
    font = _font(ImageFont, 13)
    big = _font(ImageFont, 18)
    game = session.game

    # the wooden board
    wood_bottom = geo["top"] + ((count + ROW - 1) // ROW) * geo["row_h"]
    draw.rounded_rectangle((PNG_MARGIN // 2, PNG_MARGIN // 2, geo["width"] - PNG_MARGIN // 2,
                            wood_bottom), radius=12, fill=BOARD_WOOD)
    names = ", ".join("%s %d" % (side_name(s), game.scores[s]) for s in range(game.sides))
    title = "%s   dealer %s   %s" % (names, seat_name(game, game.dealer), PHASE_NAMES[game.phase])
    if game.winner != NOBODY:
        title += "   %s wins" % side_name(game.winner)
    missing = session.trackless()
    if missing:
        title += "   (%s: no track)" % ", ".join(missing)
    draw.text((PNG_MARGIN, PNG_MARGIN - 2), title, fill=(255, 240, 220), font=big)

    peak = session.peak()
    pegs = session.pegs()
    for track in range(tracks):
        colours = session.colours(track)
        letter = side_name(track) if track < game.sides else "-"
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
            for hole, part in ((back, BACK), (front, FRONT)):
                ring, width = RINGS[part]
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
    for y, row in enumerate(session.board.oled_pixels()):
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
