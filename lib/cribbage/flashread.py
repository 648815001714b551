"""cribbage.flashread: the flash log's records, and reading them back (cribbage.flashlog writes).

    header  magic (3 bytes), VERSION, generation (2 bytes; +1 a compaction)
    record  length n (1 byte, or 0x80|n>>7 and n&0x7F), tag, payload, check
    tag     seq (the records counted from 0 after the header, mod 32) << 3 | kind
    check   CRC-8 (poly 0x07) of the rest, 0x00 for 0xFF: an unprogrammed one fails
    marks   the first page's last 15 bytes: 0x00 once page 1..15 holds records

Reading checks each record's seq; reads one flipped bit right where a sound
record follows; goes on past a record it cannot read; tells a write cut short
(the last, or its check erased and its seq taken over by the next write) from a
record lost; and says ``old`` when the marks show the log once reached further.
"""

VERSION = 2  # of this layout; a sector in any other is not read
HEADER_SIZE = 6
PAGE = 256
BASE, EVENT, UNDONE, NEXT_GAME, SETTINGS = 1, 2, 3, 4, 5  # cribbage.store's kinds: never renumbered
UNREADABLE = 7  # the kind read() yields for a record it cannot read; never written
ERASED = b"\xff" * 256  # a page as it reads erased


# CRC-8 of each byte value, polynomial x^8 + x^2 + x + 1 (0x07), written out:
# working it out at import cost the board's boot about 50 ms (tests/test_store.py
# works it out again and compares).
_CRC_TABLE = (
    b"\x00\x07\x0e\x09\x1c\x1b\x12\x15\x38\x3f\x36\x31\x24\x23\x2a\x2d"
    b"\x70\x77\x7e\x79\x6c\x6b\x62\x65\x48\x4f\x46\x41\x54\x53\x5a\x5d"
    b"\xe0\xe7\xee\xe9\xfc\xfb\xf2\xf5\xd8\xdf\xd6\xd1\xc4\xc3\xca\xcd"
    b"\x90\x97\x9e\x99\x8c\x8b\x82\x85\xa8\xaf\xa6\xa1\xb4\xb3\xba\xbd"
    b"\xc7\xc0\xc9\xce\xdb\xdc\xd5\xd2\xff\xf8\xf1\xf6\xe3\xe4\xed\xea"
    b"\xb7\xb0\xb9\xbe\xab\xac\xa5\xa2\x8f\x88\x81\x86\x93\x94\x9d\x9a"
    b"\x27\x20\x29\x2e\x3b\x3c\x35\x32\x1f\x18\x11\x16\x03\x04\x0d\x0a"
    b"\x57\x50\x59\x5e\x4b\x4c\x45\x42\x6f\x68\x61\x66\x73\x74\x7d\x7a"
    b"\x89\x8e\x87\x80\x95\x92\x9b\x9c\xb1\xb6\xbf\xb8\xad\xaa\xa3\xa4"
    b"\xf9\xfe\xf7\xf0\xe5\xe2\xeb\xec\xc1\xc6\xcf\xc8\xdd\xda\xd3\xd4"
    b"\x69\x6e\x67\x60\x75\x72\x7b\x7c\x51\x56\x5f\x58\x4d\x4a\x43\x44"
    b"\x19\x1e\x17\x10\x05\x02\x0b\x0c\x21\x26\x2f\x28\x3d\x3a\x33\x34"
    b"\x4e\x49\x40\x47\x52\x55\x5c\x5b\x76\x71\x78\x7f\x6a\x6d\x64\x63"
    b"\x3e\x39\x30\x37\x22\x25\x2c\x2b\x06\x01\x08\x0f\x1a\x1d\x14\x13"
    b"\xae\xa9\xa0\xa7\xb2\xb5\xbc\xbb\x96\x91\x98\x9f\x8a\x8d\x84\x83"
    b"\xde\xd9\xd0\xd7\xc2\xc5\xcc\xcb\xe6\xe1\xe8\xef\xfa\xfd\xf4\xf3"
)


def check_byte(data, start, stop):
    """The check of data[start:stop]: CRC-8, never 0xFF (never programmed)."""
    c = 0
    t = _CRC_TABLE  # a local: faster in the loop on MicroPython
    for i in range(start, stop):
        c = t[c ^ data[i]]
    return 0 if c == 0xFF else c


def bits(b):
    """How many bits of b are 1."""
    n = 0
    while b:
        n, b = n + (b & 1), b >> 1
    return n


def pack(kind, payload, index):
    """The record of seq `index` as a bytearray."""
    if not 0 <= kind < UNREADABLE:
        raise ValueError("kind %d: 0..%d" % (kind, UNREADABLE - 1))
    n = len(payload)
    rec = bytearray((n,)) if n < 0x80 else bytearray((0x80 | n >> 7, n & 0x7F))
    rec.append((index & 31) << 3 | kind)
    rec.extend(payload)
    rec.append(check_byte(rec, 0, len(rec)))
    return rec


class LogReader:
    """The log's state, and reading it from the flash (cribbage.flashlog.FlashLog
    adds the writing)."""

    def __init__(self, nvm, header):
        self.nvm = nvm
        self.header = bytes(header) + bytes((VERSION,))  # the log's first 4 bytes
        self.size = len(nvm)
        self._offset = PAGE - self.size // PAGE + 1 if self.size > PAGE else PAGE  # the marks
        self.erases = 0         # compactions that erased the sector
        self.bytes_written = 0  # header, record and mark bytes (not the erased fill)
        self.generation = self.found = 0  # found: 0 an erased sector, 1 not a log, 2 a log
        self.cut = False   # the last write was cut short
        self.old = False   # the log reads shorter than it once was
        self.changed = 0   # records read through a flipped bit (more flipped would misread)
        self.written = 0   # records of the last append or compact in the flash; -1: not known
        self.marks = 0     # bit k: page k is marked
        self._dirty = True        # read() to learn what follows
        self._next = HEADER_SIZE  # where the next record goes
        self._count = 0  # its seq
        self._limit = 0  # appends stay below
        self._end = 0    # after the last byte not erased (the marks aside)

    # --- reading ---------------------------------------------------------
    def read(self, ok=None):
        """Yield (kind, payload) of each record, oldest first; (UNREADABLE, the kind
        its tag claims, or UNREADABLE) for one that cannot be read. ``ok(kind, payload)`` may
        judge a record read through a flipped bit. Then ``found``, ``cut`` and
        ``old`` say what the sector held, and appends go on after the log."""
        self._dirty = True
        size = self.size
        data = self.nvm[0:size]  # a copy of the sector: a flipped bit is tried in it
        view = memoryview(data)
        self.found, self.cut, self.old, self.changed = 0, False, False, 0
        self.marks, self._end, lost = 0, 0, False  # lost: a record could not be read
        for k in range(size // PAGE - 1, -1, -1):
            pos = k * PAGE
            stop = self._offset if k == 0 else pos + PAGE
            # Bytes first: MicroPython compares them with a memoryview, copying nothing.
            if (ERASED if stop - pos == PAGE else ERASED[:stop - pos]) != view[pos:stop]:
                while data[stop - 1] == 0xFF:
                    stop -= 1
                self._end = stop
                break
        pos = e = flipped = 0
        # One flipped bit in the magic or the version is read through.
        for i in range(4 if self._end else 0):
            flipped += bits(data[i] ^ self.header[i])
        if self._end:
            self.found = 1 if flipped > 1 else 2
        if self.found == 2:
            self.generation, pos = (data[4] << 8) | data[5], HEADER_SIZE
            for k in range(1, size // PAGE):
                if bits(data[self._offset + k - 1]) <= 4:
                    self.marks |= 1 << k
        ahead = 0  # where the record at pos ends, if found sound as the last one's successor
        while self.found == 2:
            p = self._step(data, pos)
            if p < 0 and self._end > pos:  # bytes follow that the chain does not reach
                p, k = self._scan(data, pos, e)
                ahead, self.old = 0, p < 0
            else:
                k = e
            while k > e:  # the records before p: lost
                yield UNREADABLE, UNREADABLE
                e, lost = e + 1, True
            if p < 0:
                break
            stop = ahead if ahead > 1 else self._checked(data, p, e)
            ahead = self._follow(data, stop, e + 1) if stop else 0
            if not ahead:  # a check can pass by chance
                stop = self._rebuild(data, p, e, ok, self._unchecked(data, p)) or stop
            if stop:
                at = p + (2 if data[p] & 0x80 else 1)
                yield data[at] & 7, bytes(view[at + 1:stop - 1])
                pos, e = stop, e + 1
                continue
            # Unreadable: the next record should start after its declared length.
            ahead, stop = 0, self._slice(data, p)
            s = self._step(data, stop) if stop else -2
            if s == -1:  # the last: a write cut short, torn as it may be, is never read
                self.cut, pos = True, stop
                lost = lost or not self._torn(data, p, e)  # bits left in it: compact
                break
            if s >= 0 and self._checked(data, s, e + 1):
                yield UNREADABLE, data[min(p + 1 + (data[p] >> 7), size - 1)] & 7
                e, lost = e + 1, True
            elif not self._torn(data, p, e):  # (else cut short, its seq taken over)
                # A record with its check programmed was written whole: never taken
                # for a cut short, whatever reads as a record at its declared end.
                stop, k = self._scan(data, p, e)  # does the log go on further?
                if stop < 0:
                    self.old, pos, self._end = True, p, size
                    break
                while k > e:
                    yield UNREADABLE, UNREADABLE
                    e, lost = e + 1, True
            pos = stop
        self._next, self._count = max(pos, HEADER_SIZE), e & 31
        if self.marks >> ((self._next - 1) // PAGE + 1):
            self.old = True  # an erase cut short left this page but not a later one
        # Damage read through or not read is judged once: the next write compacts.
        ok = self.found != 1 and not self.old and self._end <= self._next
        self._limit = size if ok and not lost and not self.changed else 0
        self._dirty = False

    def _step(self, data, pos):
        """Where the record after position pos starts, or -1: the log ends at pos."""
        if pos % PAGE and (self._offset <= pos < PAGE or pos < self.size and data[pos] == 0xFF):
            # A write that does not fit in this page goes at the next, leaving the rest erased.
            edge = self._offset if pos < PAGE else pos + PAGE - pos % PAGE
            if pos >= edge or ERASED[:edge - pos] == bytes(data[pos:edge]):
                pos += PAGE - pos % PAGE
        return -1 if pos >= self.size or data[pos] == 0xFF else pos

    def _scan(self, data, pos, e):
        # (where, seq) of the first sound record within a page after pos, with seq
        # e to e+2 and what follows it sound: where the log goes on; else (-1, 0).
        for q in range(pos + 1, min(self._end, pos + PAGE)):
            for k in range(e, e + 3):
                stop = self._checked(data, q, k)
                if stop and self._follow(data, stop, k + 1):
                    return q, k
        return -1, 0

    def _slice(self, data, p):
        """Where the record at p ends by its length field, or 0."""
        n = data[p]
        at = p + 1
        if n & 0x80:
            lo = data[at] if at < self.size else 0xFF
            if lo == 0xFF:
                return p + 2  # cut after the first byte of a long length
            if lo & 0x80:
                return 0
            n = ((n & 0x7F) << 7) | lo
            at += 1
        stop = at + n + 2
        return stop if stop <= (self._offset if p < self._offset else self.size) else 0

    def _checked(self, data, p, e):
        """Where the record at p ends if it is sound and has seq e, else 0."""
        stop = self._slice(data, p)
        at = p + (2 if data[p] & 0x80 else 1)
        if data[p] == 0xFF or stop < at + 2:
            return 0
        t = data[at]  # the tag
        if t & 7 == UNREADABLE or t >> 3 != e & 31:
            return 0
        return stop if data[stop - 1] == check_byte(data, p, stop - 1) else 0

    def _unchecked(self, data, p):
        # Whether the record at p may be a write cut short: its last byte (by its
        # length) reads erased. (The next save takes over the seq of such a write
        # only: one with its check programmed makes the next save compact.)
        stop = self._slice(data, p)
        return stop > 0 and data[stop - 1] == 0xFF

    def _rebuild(self, data, p, e, ok, torn=0):
        """Read the record at p through one flipped bit (set right in data): its end, or 0.

        A flipped bit in the length field moves the end: each is tried. Elsewhere
        CRC-8 is linear, so only a bit whose flip gives the stored check can be it:
        one within 127 bits, ok() judging when the record is longer. A reading
        counts only where a sound record follows; a check that reads erased
        (``torn``) is never taken for a flipped one."""
        w = 2 if data[p] & 0x80 else 1
        tries = list(range(p * 8, min(p + w, self.size) * 8))  # as byte * 8 + bit
        stop = self._slice(data, p)
        if stop and not torn:
            t = _CRC_TABLE
            c = 0  # the CRC as read
            for i in range(p, stop - 1):
                c = t[c ^ data[i]]
            want = data[stop - 1]
            s = bytearray(8)  # a flipped bit k's change to the CRC, from the last byte back
            for k in range(8):
                s[k] = t[1 << k]
                if (0 if c == 0xFF else c) == want ^ (1 << k):
                    tries.append((stop - 1) * 8 + k)  # the check byte itself
            for i in range(stop - 2, p + w - 1, -1):
                for k in range(8):
                    if c ^ s[k] == want or want == 0 and c ^ s[k] == 0xFF:
                        tries.append(i * 8 + k)
                    s[k] = t[s[k]]
        found = -1
        for i in tries:
            data[i >> 3] ^= 1 << (i & 7)
            stop = self._checked(data, p, e)
            # Only a sound record after it vouches: a torn write leaves bits 1 too.
            if stop and self._follow(data, stop, e + 1) > 1:
                at = p + (2 if data[p] & 0x80 else 1)
                if ok is None or ok(data[at] & 7, bytes(data[at + 1:stop - 1])):
                    found = i if found == -1 else -2  # two readings: neither
            data[i >> 3] ^= 1 << (i & 7)
        if found < 0:
            return 0
        data[found >> 3] ^= 1 << (found & 7)
        self.changed += 1
        return self._checked(data, p, e)

    def _follow(self, data, pos, e):
        # What follows a record: the next, sound (where it ends), or the end of
        # the log or a write cut short there (1); else 0.
        s = self._step(data, pos)
        if s < 0:
            return 1
        return self._checked(data, s, e) or (1 if self._torn(data, s, e) else 0)

    def _torn(self, data, p, e):
        # A write cut short: erased from within to its declared end (its check
        # too), its tag, if programmed, says seq e, and nothing follows, or the
        # log goes on after it with that seq (the next write took it over).
        stop = self._slice(data, p)
        at = p + (2 if data[p] & 0x80 else 1)
        t = data[at] if at < stop else 0xFF
        if (not stop or data[stop - 1] != 0xFF
                or t != 0xFF and (t >> 3 != e & 31 or t & 7 == UNREADABLE)):
            return False
        if self._end <= stop:
            return True
        s = self._step(data, stop)
        return s >= 0 and self._checked(data, s, e) > 0

    # --- writing ---------------------------------------------------------
