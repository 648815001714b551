"""cribbage.screen: the OLED, drawn a text row (one 8-pixel page) at a time.

Rows are page-aligned so a glyph column is one byte of the SSD1306 buffer;
the big score digits are made once from the font, doubled, and copied in.
Only pages whose content changed are sent over I2C (~3 ms a page at 400 kHz).
"""

WIDTH = 128
PAGES = 8
COLUMNS = 21  # 6-pixel cells
_SET_COL_ADDR = 0x21
_SET_PAGE_ADDR = 0x22


def pad(text, width):
    """``text`` cut or filled with spaces to ``width`` characters."""
    return text + " " * (width - len(text)) if len(text) < width else text[:width]


def wrap(text, width=COLUMNS):
    """Lines of at most `width` characters, broken at spaces where possible."""
    lines = []
    line = ""
    for word in text.split(" "):
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _stretch(bits):
    """A 4-bit column half doubled to 8 bits: each pixel twice as tall."""
    out = 0
    for i in range(4):
        if bits & (1 << i):
            out |= 3 << (2 * i)
    return out


class Screen:
    def __init__(self, display, font_path):
        self.display = display
        with open(font_path, "rb") as f:
            data = f.read()
        self.glyph_w = data[0]
        self.font = memoryview(data)[2:]
        self.big = {}
        for ch in "0123456789":
            cols = self._glyph(ch)
            top = bytearray()
            bottom = bytearray()
            for c in cols:
                for _ in range(2):
                    top.append(_stretch(c & 15))
                    bottom.append(_stretch(c >> 4))
            self.big[ch] = (bytes(top), bytes(bottom))
        self.rows = [None] * PAGES
        # Control byte 0x00 (commands follow), then the column and page window.
        self.cmd = bytearray((0x00, _SET_COL_ADDR, 0, WIDTH - 1, _SET_PAGE_ADDR, 0, 0))

    def _glyph(self, ch):
        i = ord(ch) * self.glyph_w
        if i + self.glyph_w > len(self.font):
            i = ord("?") * self.glyph_w
        return self.font[i:i + self.glyph_w]

    def _buf(self):
        return self.display.buffer  # [0] is the driver's control byte

    def text(self, page, x, s):
        buf = self._buf()
        base = 1 + page * WIDTH
        w = self.glyph_w
        for ch in s:
            if x + w > WIDTH:
                break
            g = self._glyph(ch)
            buf[base + x:base + x + w] = g
            x += w + 1

    def big_number(self, x, value):
        buf = self._buf()
        for ch in str(value):
            top, bottom = self.big[ch]
            n = len(top)
            if x + n > WIDTH:
                break
            buf[1 + x:1 + x + n] = top
            buf[1 + WIDTH + x:1 + WIDTH + x + n] = bottom
            x += n + 2

    def clear_page(self, page):
        buf = self._buf()
        start = 1 + page * WIDTH
        buf[start:start + WIDTH] = bytes(WIDTH)

    def draw(self, rows):
        """rows: 8 page keys; a key is ('text', s) / ('scores', ...) drawn by
        draw_row. Sends only the pages that changed; returns how many."""
        changed = []
        for page in range(PAGES):
            if rows[page] != self.rows[page]:
                changed.append(page)
            elif page and rows[page - 1] != self.rows[page - 1] and rows[page - 1][0] == "scores":
                changed.append(page)  # the big digits' lower half lives on the next page
        for page in changed:
            if page > 0 and rows[page] == ("bottom",):
                continue
            self.draw_row(page, rows[page])
        if not changed:
            return 0
        if len(changed) == PAGES:
            self.display.show()
        else:
            first = changed[0]
            for i in range(1, len(changed) + 1):
                if i == len(changed) or changed[i] != changed[i - 1] + 1:
                    self._send(first, changed[i - 1])  # one window per run of pages
                    if i < len(changed):
                        first = changed[i]
        self.rows = list(rows)
        return len(changed)

    def draw_row(self, page, row):
        self.clear_page(page)
        kind = row[0]
        if kind == "text":
            self.text(page, 0, row[1])
        elif kind == "scores":
            self.clear_page(page + 1)
            width = WIDTH // len(row[1])
            for i, score in enumerate(row[1]):
                self.big_number(i * width, score)

    def _send(self, first, last):
        """Pages first..last in two I2C writes: the window, then the data."""
        d = self.display
        cmd = self.cmd
        cmd[5] = first
        cmd[6] = last
        buf = d.buffer
        start = first * WIDTH  # the byte before the data: lend it the data control byte
        kept = buf[start]
        buf[start] = 0x40
        with d.i2c_device:
            d.i2c_device.write(cmd)
        with d.i2c_device:
            d.i2c_device.write(buf, start=start, end=1 + (last + 1) * WIDTH)
        buf[start] = kept

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
