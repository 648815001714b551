"""cribbage.screen: the OLED, drawn a text row (one 8-pixel page) at a time.

The SSD1306's buffer is page-organised: a byte is 8 pixels of one column, so a
5x8 glyph is 5 column bytes and a text row is exactly one page; a character's
cell (its 5 columns and a blank one) is copied in as bytes. The big score
digits are made once from the font, doubled. Only what changed goes over I2C
(22.5 us a byte at 400 kHz): the cells that differ from the row drawn before,
or the changed side's digits, each page as one window of columns, through
the board's panel: its size (``display.width``, ``display.pages``), the window
onto its picture it hands out (``display.window``) and ``display.send``. The
rows of a face that may come next can be made ahead (``ahead``): drawing one is
then a copy of its cells and the send.
"""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    from micropython import const

# The screen model's layout (what cribbage.view makes): rows of text, one a page.
PAGES = const(8)
COLUMNS = const(21)  # cells on a row (126 columns of a 128-column panel)
_CELL = const(6)      # a character: 5 glyph columns and a blank one
_UNKNOWN = const(63)  # "?": a code the font does not have
_ZERO = const(48)     # "0": the big digits are the font's


# A 4-bit column half doubled to 8 bits (each pixel twice as tall), by value.
_STRETCH = b"\x00\x03\x0c\x0f\x30\x33\x3c\x3f\xc0\xc3\xcc\xcf\xf0\xf3\xfc\xff"


_BLANK = b" " * COLUMNS


def _row_bytes(text):
    """A text row as the bytes of its COLUMNS cells: cut, or filled with spaces."""
    b = text.encode()
    n = len(b)
    return b if n == COLUMNS else b[:COLUMNS] if n > COLUMNS else b + _BLANK[n:]


def _changed(text, prev):
    """(first, last): the cells first..last-1 of ``text`` differ from ``prev``'s."""
    first = 0
    while text[first] == prev[first]:
        first += 1
    last = COLUMNS
    while text[last - 1] == prev[last - 1]:
        last -= 1
    return first, last


class Screen:
    def __init__(self, display, font_path):
        if display.pages < PAGES or display.width < _CELL * COLUMNS:
            raise ValueError("a %dx%d panel cannot show %d rows of %d characters"
                             % (display.width, 8 * display.pages, PAGES, COLUMNS))
        self.display = display
        self.width = display.width
        self.ram = display.window(0, PAGES - 1)  # the picture, page 0 column 0 at [0]
        with open(font_path, "rb") as f:
            data = f.read()
        w = data[0]
        font = data[2:]
        # Every character's cell, ASCII (the rest print as "?"), in one buffer:
        # 768 bytes, where a bytes object a cell would hold several times that.
        cells = bytearray(_CELL * 128)
        for c in range(128):
            cells[_CELL * c:_CELL * c + w] = font[c * w:c * w + w]
        self.cells = memoryview(cells)
        # The big digits, doubled each way, in one buffer too: digit d's top page
        # then its bottom page, n = 2 * w columns each, from 2 * n * d.
        n = self.big_width = 2 * w
        big = bytearray(2 * n * 10)
        for d in range(10):
            cols = font[(_ZERO + d) * w:(_ZERO + d) * w + w]
            at = 2 * n * d
            for c in cols:
                big[at] = big[at + 1] = _STRETCH[c & 15]
                big[at + n] = big[at + n + 1] = _STRETCH[c >> 4]
                at += 2
        self.big = memoryview(big)
        self.rows = [None] * PAGES   # the row keys on the panel; None: unknown
        self.texts = [None] * PAGES  # a text row's bytes as drawn
        # (page, row): (the text it was made against, its bytes, first, last, the
        # cells first..last-1), text rows made ahead (``ahead``) for the next draw
        self.made = {}

    def draw(self, rows):
        """rows: 8 page keys, ('text', s), ('scores', (n, ...)) and ('bottom',)
        for the digits' lower page. Draws and sends what changed; returns how
        many pages it sent."""
        if self.rows[0] is None:
            return self._draw_all(rows)
        sent = 0
        made = self.made
        for page in range(PAGES):
            row = rows[page]
            old = self.rows[page]
            if row == old:
                continue
            kind = row[0]
            if kind == "text":
                ahead = made.get((page, row)) if made else None
                if ahead is not None and ahead[0] is self.texts[page]:
                    sent += self._put(page, ahead)
                else:
                    sent += self._text(page, row[1], old)
            elif kind == "scores":
                sent += self._scores(page, row[1], old)
        self.rows = list(rows)
        if made:
            self.made = {}  # made against the picture gone
        return sent

    def ahead(self, rows):
        """Make now the text rows of ``rows`` (a face that may come next) that
        differ from the panel's, so that drawing them is a copy and a send."""
        if self.rows[0] is None:
            return
        made = self.made
        try:
            for page in range(PAGES):
                row, old = rows[page], self.rows[page]
                if row == old or row[0] != "text" or old[0] != "text" or (page, row) in made:
                    continue
                prev, text = self.texts[page], _row_bytes(row[1])
                if text != prev:
                    first, last = _changed(text, prev)
                    cells = bytearray(_CELL * (last - first))
                    self._cells(cells, 0, text, first, last)
                    made[(page, row)] = (prev, text, first, last, cells)
        except MemoryError:  # short of heap: drawn when it comes
            self.made = {}

    def _put(self, page, ahead):
        _prev, text, first, last, cells = ahead
        at = page * self.width + _CELL * first
        self.ram[at:at + len(cells)] = cells
        self.texts[page] = text
        self._send(page, page, _CELL * first, _CELL * last - 1)
        return 1

    def _draw_all(self, rows):
        self.ram[:] = bytes(self.width * PAGES)
        for page in range(PAGES):
            row = rows[page]
            if row[0] == "text":
                text = self.texts[page] = _row_bytes(row[1])
                self._cells(self.ram, page * self.width, text, 0, COLUMNS)
            elif row[0] == "scores":
                self._digits(page, row[1], 0, len(row[1]))
        self._send(0, PAGES - 1, 0, self.width - 1)
        self.rows = list(rows)
        return PAGES

    def _cells(self, buf, at, text, first, last):
        """Cells first..last-1 of a text row (``text``: its _row_bytes) into
        ``buf``, cell ``first`` at ``at``."""
        cells = self.cells
        w, unknown = _CELL, _UNKNOWN  # locals: a global is looked up by name
        for i in range(first, last):
            c = text[i]
            o = w * (c if c < 128 else unknown)
            buf[at:at + w] = cells[o:o + w]
            at += w

    def _text(self, page, text, old):
        text = _row_bytes(text)
        prev = self.texts[page] if old is not None and old[0] == "text" else None
        if prev is None:  # the page held something else: all of it again
            width = self.width
            start = page * width
            self.ram[start + _CELL * COLUMNS:start + width] = bytes(width - _CELL * COLUMNS)
            self._cells(self.ram, start, text, 0, COLUMNS)
            self.texts[page] = text
            self._send(page, page, 0, width - 1)
            return 1
        if text == prev:  # the same cells (a row differing only in spaces past its text)
            return 0
        first, last = _changed(text, prev)
        self._cells(self.ram, page * self.width + _CELL * first, text, first, last)
        self.texts[page] = text
        self._send(page, page, _CELL * first, _CELL * last - 1)
        return 1

    def _digits(self, page, scores, first, last):
        """Sides first..last-1's big numbers into pages ``page`` and ``page + 1``."""
        buf, row = self.ram, self.width
        big, n = self.big, self.big_width
        width = row // len(scores)
        for side in range(first, last):
            x0 = side * width
            for p in (page, page + 1):
                start = p * row + x0
                buf[start:start + width] = bytes(width)
            x = x0
            for ch in b"%d" % scores[side]:  # bytes: no string made
                if x + n > x0 + width:
                    break
                o = 2 * n * (ch - _ZERO)
                at = page * row + x
                buf[at:at + n] = big[o:o + n]
                at += row
                buf[at:at + n] = big[o + n:o + 2 * n]
                x += n + 2

    def _scores(self, page, scores, old):
        if old is None or old[0] != "scores" or len(old[1]) != len(scores):
            row = self.width
            self.ram[page * row:(page + 2) * row] = bytes(2 * row)
            self._digits(page, scores, 0, len(scores))
            self._send(page, page + 1, 0, row - 1)
            return 2
        first = 0
        while scores[first] == old[1][first]:
            first += 1
        last = len(scores)
        while scores[last - 1] == old[1][last - 1]:
            last -= 1
        self._digits(page, scores, first, last)
        width = self.width // len(scores)
        step = self.big_width + 2  # a digit and the gap after it
        for side in range(first, last):
            new, was = b"%d" % scores[side], b"%d" % old[1][side]
            if new == was:
                continue  # a side between two that changed
            i = 0  # the digits from the first that differs go, as far as the longer number
            while i < len(new) and i < len(was) and new[i] == was[i]:
                i += 1
            x0 = side * width
            col1 = min(x0 + step * max(len(new), len(was)) - 2, x0 + width) - 1
            for p in (page, page + 1):
                self._send(p, p, x0 + step * i, col1)
        return 2

    def _send(self, first, last, col0, col1):
        self.display.send(first, last, col0, col1)

    def lines(self):
        """The text on the display now, row by row (for the simulator)."""
        out = []  # type: list
        for row in self.rows:
            if row is None or row[0] == "bottom":
                continue
            if row[0] == "text":
                out.append(row[1])
            elif row[0] == "scores":
                out.append("  ".join([str(s) for s in row[1]]))
        return out
