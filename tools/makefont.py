"""makefont: write font5x8.bin, the OLED font, from the glyph table below.

The file is adafruit_framebuf's BitmapFont format: one byte of width (5), one
of height (8), then 256 glyphs of 5 bytes each, one byte per column from left
to right, least significant bit = top row.

The glyphs are plain 5x7 dot-matrix shapes drawn for this project: capitals and
digits use rows 0-6, lower-case descenders use row 7. The card suits sit at
their CP437 code points, so the app prints ``chr(3)`` for a heart:
0x03 heart, 0x04 diamond, 0x05 club, 0x06 spade; 0x7F (DEL, which prints nothing)
is "≈", for a figure that is not exact. Codes without a glyph are blank.

    python tools/makefont.py [output]      # default: font5x8.bin in the repo
"""

import os
import sys

WIDTH = 5
HEIGHT = 8
GLYPHS = 256
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(REPO, "font5x8.bin")

# Bands of glyphs drawn side by side. A band starts with a line ": c c c ...":
# each token names one glyph (a character, SP for space, or 0xNN for a code
# point); then 8 rows follow, one 5-dot cell per token, '#' lit and '.' dark.
TABLE = r"""
: 0x03  0x04  0x05  0x06
.#.#. ..#.. .###. ..#..
##### .###. .###. .###.
##### .###. #.#.# #####
##### ##### ##### #####
.###. .###. #.#.# #.#.#
..#.. .###. ..#.. ..#..
..... ..#.. .###. .###.
..... ..... ..... .....

: SP ! " # $ % & '
..... ..#.. .#.#. .#.#. ..#.. ##... .##.. ..#..
..... ..#.. .#.#. .#.#. .#### ##..# #..#. ..#..
..... ..#.. ..... ##### #.#.. ...#. #.#.. .#...
..... ..#.. ..... .#.#. .###. ..#.. .#... .....
..... ..#.. ..... ##### ..#.# .#... #.#.# .....
..... ..... ..... .#.#. ####. #..## #..#. .....
..... ..#.. ..... .#.#. ..#.. ...## .##.# .....
..... ..... ..... ..... ..... ..... ..... .....

: ( ) * + , - . /
...#. .#... ..... ..... ..... ..... ..... .....
..#.. ..#.. ..#.. ..#.. ..... ..... ..... ....#
.#... ...#. #.#.# ..#.. ..... ..... ..... ...#.
.#... ...#. .###. ##### ..... ##### ..... ..#..
.#... ...#. #.#.# ..#.. ..... ..... ..... .#...
..#.. ..#.. ..#.. ..#.. .##.. ..... .##.. #....
...#. .#... ..... ..... ..#.. ..... .##.. .....
..... ..... ..... ..... .#... ..... ..... .....

: 0 1 2 3 4 5 6 7
.###. ..#.. .###. ##### ...#. ##### ..##. #####
#...# .##.. #...# ...#. ..##. #.... .#... ....#
#..## ..#.. ....# ..#.. .#.#. ####. #.... ...#.
#.#.# ..#.. ...#. ...#. #..#. ....# ####. ..#..
##..# ..#.. ..#.. ....# ##### ....# #...# .#...
#...# ..#.. .#... #...# ...#. #...# #...# .#...
.###. .###. ##### .###. ...#. .###. .###. .#...
..... ..... ..... ..... ..... ..... ..... .....

: 8 9 : ; < = > ?
.###. .###. ..... ..... ...#. ..... .#... .###.
#...# #...# .##.. .##.. ..#.. ..... ..#.. #...#
#...# #...# .##.. .##.. .#... ##### ...#. ....#
.###. .#### ..... ..... #.... ..... ....# ...#.
#...# ....# .##.. .##.. .#... ##### ...#. ..#..
#...# ...#. .##.. ..#.. ..#.. ..... ..#.. .....
.###. .##.. ..... .#... ...#. ..... .#... ..#..
..... ..... ..... ..... ..... ..... ..... .....

: @ A B C D E F G
.###. .###. ####. .###. ###.. ##### ##### .###.
#...# #...# #...# #...# #..#. #.... #.... #...#
....# #...# #...# #.... #...# #.... #.... #....
.##.# ##### ####. #.... #...# ####. ####. #.###
#.#.# #...# #...# #.... #...# #.... #.... #...#
#.#.# #...# #...# #...# #..#. #.... #.... #...#
.###. #...# ####. .###. ###.. ##### #.... .####
..... ..... ..... ..... ..... ..... ..... .....

: H I J K L M N O
#...# .###. ..### #...# #.... #...# #...# .###.
#...# ..#.. ...#. #..#. #.... ##.## #...# #...#
#...# ..#.. ...#. #.#.. #.... #.#.# ##..# #...#
##### ..#.. ...#. ##... #.... #.#.# #.#.# #...#
#...# ..#.. ...#. #.#.. #.... #...# #..## #...#
#...# ..#.. #..#. #..#. #.... #...# #...# #...#
#...# .###. .##.. #...# ##### #...# #...# .###.
..... ..... ..... ..... ..... ..... ..... .....

: P Q R S T U V W
####. .###. ####. .#### ##### #...# #...# #...#
#...# #...# #...# #.... ..#.. #...# #...# #...#
#...# #...# #...# #.... ..#.. #...# #...# #...#
####. #...# ####. .###. ..#.. #...# #...# #.#.#
#.... #.#.# #.#.. ....# ..#.. #...# #...# #.#.#
#.... #..#. #..#. ....# ..#.. #...# .#.#. #.#.#
#.... .##.# #...# ####. ..#.. .###. ..#.. .#.#.
..... ..... ..... ..... ..... ..... ..... .....

: X Y Z [ \ ] ^ _
#...# #...# ##### .###. ..... .###. ..#.. .....
#...# #...# ....# .#... #.... ...#. .#.#. .....
.#.#. #...# ...#. .#... .#... ...#. #...# .....
..#.. .#.#. ..#.. .#... ..#.. ...#. ..... .....
.#.#. ..#.. .#... .#... ...#. ...#. ..... .....
#...# ..#.. #.... .#... ....# ...#. ..... .....
#...# ..#.. ##### .###. ..... .###. ..... #####
..... ..... ..... ..... ..... ..... ..... .....

: ` a b c d e f g
.#... ..... #.... ..... ....# ..... ..##. .....
..#.. ..... #.... ..... ....# ..... .#..# .....
...#. .###. #.##. .###. .##.# .###. .#... .####
..... ....# ##..# #.... #..## #...# ###.. #...#
..... .#### #...# #.... #...# ##### .#... #...#
..... #...# #...# #...# #...# #.... .#... .####
..... .#### ####. .###. .#### .###. .#... ....#
..... ..... ..... ..... ..... ..... ..... .###.

: h i j k l m n o
#.... ..#.. ...#. #.... .##.. ..... ..... .....
#.... ..... ..... #.... ..#.. ..... ..... .....
#.##. .##.. ..##. #..#. ..#.. ##.#. #.##. .###.
##..# ..#.. ...#. #.#.. ..#.. #.#.# ##..# #...#
#...# ..#.. ...#. ##... ..#.. #.#.# #...# #...#
#...# ..#.. ...#. #.#.. ..#.. #.#.# #...# #...#
#...# .###. #..#. #..#. .###. #.#.# #...# .###.
..... ..... .##.. ..... ..... ..... ..... .....

: p q r s t u v w
..... ..... ..... ..... .#... ..... ..... .....
..... ..... ..... ..... .#... ..... ..... .....
####. .#### #.##. .#### ###.. #...# #...# #...#
#...# #...# ##..# #.... .#... #...# #...# #...#
#...# #...# #.... .###. .#... #...# #...# #.#.#
####. .#### #.... ....# .#..# #..## .#.#. #.#.#
#.... ....# #.... ####. ..##. .##.# ..#.. .#.#.
#.... ....# ..... ..... ..... ..... ..... .....

: x y z { | } ~ 0x7F
..... ..... ..... ...## ..#.. ##... ..... .....
..... ..... ..... ..#.. ..#.. ..#.. ..... .##.#
#...# #...# ##### ..#.. ..#.. ..#.. .#... #..#.
.#.#. #...# ...#. .#... ..#.. ...#. #.#.# .....
..#.. #...# ..#.. ..#.. ..#.. ..#.. ...#. .##.#
.#.#. .#### .#... ..#.. ..#.. ..#.. ..... #..#.
#...# ....# ##### ...## ..#.. ##... ..... .....
..... .###. ..... ..... ..... ..... ..... .....
"""


def _code(token):
    if token == "SP":
        return 0x20
    if token.startswith("0x") and len(token) > 2:
        return int(token, 16)
    if len(token) != 1:
        raise ValueError("glyph name %r is not one character, SP or 0xNN" % token)
    return ord(token)


def parse_table(table=TABLE):
    """{code point: 8 rows of 5 '#'/'.'} from the drawn table."""
    glyphs = {}
    lines = [line for line in table.splitlines() if line.strip()]
    i = 0
    while i < len(lines):
        header = lines[i]
        if not header.startswith(":"):
            raise ValueError("expected a ': ...' band header, got %r" % header)
        codes = [_code(token) for token in header[1:].split()]
        rows = [line.split() for line in lines[i + 1:i + 1 + HEIGHT]]
        for number, row in enumerate(rows):
            if len(row) != len(codes) or any(len(cell) != WIDTH for cell in row):
                raise ValueError("band %r row %d is not %d cells of %d dots"
                                 % (header, number, len(codes), WIDTH))
        for column, code in enumerate(codes):
            if code in glyphs:
                raise ValueError("glyph 0x%02X is drawn twice" % code)
            glyphs[code] = [row[column] for row in rows]
        i += 1 + HEIGHT
    return glyphs


def glyph_columns(rows):
    """5 column bytes, LSB = top row, from 8 rows of '#'/'.'."""
    columns = bytearray(WIDTH)
    for y, row in enumerate(rows):
        for x, dot in enumerate(row):
            if dot == "#":
                columns[x] |= 1 << y
            elif dot != ".":
                raise ValueError("dot %r is neither '#' nor '.'" % dot)
    return bytes(columns)


def build_font():
    """The bytes of font5x8.bin."""
    glyphs = parse_table()
    out = bytearray((WIDTH, HEIGHT))
    for code in range(GLYPHS):
        rows = glyphs.get(code)
        out += glyph_columns(rows) if rows else bytes(WIDTH)
    return bytes(out)


def main(argv):
    output = argv[1] if len(argv) > 1 else DEFAULT_OUTPUT
    data = build_font()
    with open(output, "wb") as font:
        font.write(data)
    print("wrote %s (%d bytes)" % (output, len(data)))


if __name__ == "__main__":
    main(sys.argv)
