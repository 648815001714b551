"""cribbage.flashlog: records in one flash sector that outlive power cuts and flipped bits.

It knows nothing of cribbage: a record is a kind (0..6) and a payload. The
RP2040's nvm programs bytes in place only when all of them read 0xFF; any
other write erases the 4096-byte sector (~45 ms; ~100,000 erases wear it out)
and programs it all again. So records are appended into erased bytes, and only
compact() erases. A record goes where the last ends, or at the next 256-byte
page if it does not fit in this one (a page is programmed at once). The format,
and reading it back, are cribbage.flashread's. docs/store.md
tells the whole of it.
"""

from cribbage.flashread import ERASED, HEADER_SIZE, PAGE, LogReader, bits, pack


class FlashLog(LogReader):
    """The log in ``nvm`` (``microcontroller.nvm``, or a fake with its slices);
    its state and reading are LogReader's, appending and compacting here."""

    def free_bytes(self):
        """The most record bytes one append can take now."""
        self._fresh()
        pos = self._next
        if self._limit <= pos:
            return 0
        if not pos % PAGE:
            return self._limit - pos
        p = pos + PAGE - pos % PAGE  # the next page
        return max(min(self._offset if pos < PAGE else p, self._limit) - pos, self._limit - p)

    def append(self, items):
        """Program [(kind, payload)] after the log in one write; False (nothing
        written) if they do not fit. ``written`` tells how many are in."""
        self.written = 0
        self._fresh()
        blob = self._blob(items, self._count)
        n = len(blob)
        p = self._next
        edge = self._offset if p < PAGE else p + PAGE - p % PAGE
        if p % PAGE and p + n > edge:
            p += PAGE - p % PAGE  # not in this page: at the next
        if p + n > self._limit:
            return False
        start = p
        if self.found == 0:  # the first write to an erased sector
            head = bytearray(self._head(self.generation))
            head.extend(ERASED[:p - HEADER_SIZE] if p < PAGE else ERASED[HEADER_SIZE:])
            blob, start = head + blob, 0
        try:
            self.nvm[start:p + n] = blob
        except Exception:
            self._dirty, self.written = True, -1  # read again before the next write
            raise
        self.written = len(items)
        self.bytes_written += n + (HEADER_SIZE if self.found == 0 else 0)
        self.found, self._next, self._end = 2, p + n, p + n
        self._count = (self._count + len(items)) & 31
        self._put(p, p + n)
        return True

    def compact(self, items):
        """Erase the sector and write a log of [(kind, payload)], generation + 1."""
        self.written = 0
        self._fresh()
        g = (self.generation + 1) & 0xFFFF
        blob = self._blob(items, 0)
        n = len(blob)
        p = HEADER_SIZE if HEADER_SIZE + n <= self._offset else PAGE
        if p + n > self.size:
            raise ValueError("%d bytes of records do not fit the sector" % n)
        if self.found == 2:
            self._put(HEADER_SIZE, self._next)  # so that an erase cut short shows
        # Every byte not erased must be in the write: an erasing write keeps the rest.
        stop = self.size if self.found == 1 else max(p + n, self._end, min(PAGE, self.size))
        image = bytearray(stop)
        for a in range(0, stop, PAGE):
            k = min(PAGE, stop - a)
            image[a:a + k] = ERASED if k == PAGE else ERASED[:k]
        image[0:HEADER_SIZE] = self._head(g)
        image[p:p + n] = blob
        marks = 0
        for k in range(1, (p + n - 1) // PAGE + 1):
            image[self._offset + k - 1] = 0
            marks |= 1 << k
        erase = self._end or self.marks or self.found == 1
        try:
            self.nvm[0:stop] = image
        except Exception:
            self._dirty, self.written = True, -1
            raise
        self.written = len(items)
        self.erases += 1 if erase else 0
        self.bytes_written += HEADER_SIZE + n + bits(marks)
        self.generation, self.found, self._limit, self.marks = g, 2, self.size, marks
        self._next, self._count, self._end = p + n, len(items) & 31, p + n

    def _blob(self, items, seq):
        blob = bytearray()
        for i in range(len(items)):
            blob.extend(pack(items[i][0], items[i][1], seq + i))
        return blob

    def _head(self, generation):
        return self.header + bytes(((generation >> 8) & 0xFF, generation & 0xFF))

    def _fresh(self):
        if self._dirty:
            for _ in self.read():
                pass

    def _put(self, start, stop):
        # Mark the pages from start's to stop's (page 0 aside), in erased mark bytes.
        k, last = max(start // PAGE, 1), (stop - 1) // PAGE
        while k <= last and self.marks >> k & 1:
            k += 1
        at, n = self._offset + k - 1, last - k + 1
        if k > last or ERASED[:n] != self.nvm[at:at + n]:
            return  # all marked, or a mark byte with a flipped bit: leave it
        self.nvm[at:at + n] = bytes(n)
        self.bytes_written += n
        while k <= last:
            self.marks, k = self.marks | 1 << k, k + 1
