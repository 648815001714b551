"""adafruit_pixelbuf stand-in: the C module CircuitPython builds in, for Adafruit's neopixel.py
(MicroPython test runs).

The PyPI package's pure-Python PixelBuf makes a tuple and floats for every pixel
it is given, garbage the C module never makes: here, as in C, a frame's ints go
into the bytes in place, and the colours as set are kept apart (a second
buffer) only once the brightness is below full. Only what neopixel.NeoPixel and the board use: RGB
pixel orders, 3 bytes an LED, brightness as C keeps it (256 steps: a channel
goes out as v * int(brightness * 256) >> 8), slices and single pixels of ints
or (r, g, b), fill and show.
"""


class PixelBuf:
    def __init__(self, size, *, byteorder="BGR", brightness=1.0, auto_write=False,
                 header=None, trailer=None):
        if len(byteorder) != 3 or sorted(byteorder) != ["B", "G", "R"]:
            raise ValueError("this stand-in takes RGB orders only, not %r" % byteorder)
        self._pixels = size
        self._order = (byteorder.index("R"), byteorder.index("G"), byteorder.index("B"))
        self._byteorder = byteorder
        self._buf = bytearray(3 * size)  # as they go out, brightness applied
        self._raw = self._buf  # the colours as set: the same bytes at full brightness
        self._scaled = 256
        self._brightness = 1.0
        self.auto_write = auto_write
        self.brightness = brightness

    @property
    def bpp(self):
        return 3

    @property
    def byteorder(self):
        return self._byteorder

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        value = min(max(value, 0.0), 1.0)
        self._brightness = value
        self._scaled = int(value * 256)
        if self._scaled < 256 and self._raw is self._buf:
            self._raw = bytearray(self._buf)
        raw, buf, scaled = self._raw, self._buf, self._scaled
        for i in range(len(buf)):
            buf[i] = raw[i] * scaled >> 8
        if self.auto_write:
            self.show()

    def __len__(self):
        return self._pixels

    def _set(self, index, value):
        if isinstance(value, int):
            r, g, b = value >> 16 & 255, value >> 8 & 255, value & 255
        else:
            r, g, b = value
        at = 3 * index
        o = self._order  # one name at a time: a 4-name unpacking makes a tuple each pixel
        raw = self._raw
        buf = self._buf
        scaled = self._scaled
        raw[at + o[0]] = r
        raw[at + o[1]] = g
        raw[at + o[2]] = b
        buf[at + o[0]] = r * scaled >> 8
        buf[at + o[1]] = g * scaled >> 8
        buf[at + o[2]] = b * scaled >> 8

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop, step = index.indices(self._pixels)
            j = 0
            for i in range(start, stop, step):
                self._set(i, value[j])
                j += 1
        else:
            self._set(index + self._pixels if index < 0 else index, value)
        if self.auto_write:
            self.show()

    def __getitem__(self, index):
        at = 3 * index
        o, raw = self._order, self._raw
        return (raw[at + o[0]], raw[at + o[1]], raw[at + o[2]])

    def fill(self, color):
        for i in range(self._pixels):
            self._set(i, color)
        if self.auto_write:
            self.show()

    def show(self):
        return self._transmit(self._buf)
