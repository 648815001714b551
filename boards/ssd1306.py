"""boards.ssd1306: the 128x64 SSD1306 OLED on I2C, started and written a window at a time.

The board keeps the panel's picture in its buffer (a control byte, then 8
pages of 128 column bytes: a byte is 8 pixels of one column, the low bit on
top) and hands out windows onto it that start at a page's column 0 with no
control byte in sight (``window``), as Adafruit's adafruit_ssd1306 wraps its
buffer as ``memoryview(buffer)[1:]``; ``send`` sends the part that changed.
The start-up commands are the ones Adafruit's adafruit_ssd1306 sends for a
128x64 panel on its own charge pump, and a picture lands in the panel's RAM as
that driver's show() puts it (tests/test_oled_reference.py holds it to both);
the driver itself (and adafruit_framebuf under it) is not used: why is in
docs/internals.md ("Why our own OLED writer").
"""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    from micropython import const

# The panel's size: defined here only; the display object carries it (width, pages).
WIDTH = const(128)
PAGES = const(8)  # of 8 pixel rows: 64 rows
_DATA = const(0x40)  # control byte: display data follows
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)

# Control byte 0x00 (commands follow), then: display on, as Adafruit's poweron() sends
# first (it shows nothing: the charge pump is off from reset, or the panel is already on
# after a restart); display off; horizontal addressing; start line 0; column 127 on SEG0;
# multiplex 64; COM scan from COM63; no offset; alternative COM pins; clock 0x80;
# precharge 0xF1; VCOMH 0.83 Vcc; contrast 255; display follows RAM; not inverted;
# internal IREF; charge pump on; display on.
INIT = bytes((0x00, 0xAF, 0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 0x3F, 0xC8, 0xD3, 0x00, 0xDA,
              0x12, 0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0xAD, 0x30,
              0x8D, 0x14, 0xAF))


class SSD1306:
    """The panel at ``device`` (an adafruit_bus_device I2CDevice, C on the board)."""

    def __init__(self, device):
        self.device = device
        self.width = WIDTH
        self.pages = PAGES
        self._buffer = bytearray(1 + WIDTH * PAGES)
        self._buffer[0] = _DATA
        # The window command: columns [2]..[3], pages [5]..[6].
        self.cmd = bytearray((0x00, _SET_COL_ADDR, 0, WIDTH - 1, _SET_PAGE_ADDR, 0, PAGES - 1))
        with device:
            device.write(INIT)
        self.send(0, PAGES - 1, 0, WIDTH - 1)  # a blank picture, as the driver leaves it

    def window(self, first, last):
        """Pages first..last of the picture, one memoryview: [0] is column 0 of
        page ``first``, a page is ``width`` bytes on."""
        return memoryview(self._buffer)[1 + first * WIDTH:1 + (last + 1) * WIDTH]

    def send(self, first, last, col0, col1):
        """Pages first..last, columns col0..col1 of ``buffer``, in two I2C writes
        (the window, then the data): one page, or whole pages, so that the data
        lies together in the buffer."""
        cmd = self.cmd
        cmd[2] = col0
        cmd[3] = col1
        cmd[5] = first
        cmd[6] = last
        buf = self._buffer
        start = first * WIDTH + col0  # the byte before the data: lent the data control byte
        kept = buf[start]
        buf[start] = _DATA
        device = self.device
        with device:
            device.write(cmd)
        with device:
            device.write(buf, start=start, end=1 + last * WIDTH + col1 + 1)
        buf[start] = kept
