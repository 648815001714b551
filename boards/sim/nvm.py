"""boards.sim.nvm: microcontroller.nvm of an RP2040, faked with erases and power cuts.

Plain Python for CPython and MicroPython (the simulator and tools/mpstubs).
Laptop only: never deployed.
"""

from boards import raspberry_pi_pico as _pico

# The flash geometry is the board config's (the RP2350's is the RP2040's).
NVM_SECTOR = _pico.NVM_BYTES
FLASH_PAGE = _pico.FLASH_PAGE


def interrupted_erases(pages=NVM_SECTOR // FLASH_PAGE, randoms=8, seed=1):
    """[(name, pages left old)]: what a cut during a sector erase may leave.

    "all erased" (the erase had finished), a prefix or a suffix of the pages
    still holding their old bytes (each length), and `randoms` random subsets.
    A cut while the new bytes are programmed after a whole erase is
    ``cut_after(n)`` with n > 0.
    """
    models = [("all erased", ())]
    for k in range(1, pages):
        models.append(("first %d pages old" % k, tuple(range(k))))
        models.append(("last %d pages old" % k, tuple(range(pages - k, pages))))
    state = seed
    for i in range(randoms):
        kept = []
        while not 0 < len(kept) < pages:
            kept = []
            for page in range(pages):
                # A fixed LCG: the same pages everywhere.
                state = (state * 1103515245 + 12345) & 0x7FFFFFFF
                if state >> 30:
                    kept.append(page)
        models.append(("random pages old #%d" % (i + 1), tuple(kept)))
    return models


class PowerCut(Exception):
    """The simulated power failed in the middle of an nvm write."""


class SimNVM:
    """``microcontroller.nvm`` on the RP2040: one 4 KB flash sector.

    As CircuitPython's ports/raspberrypi/common-hal/nvm/ByteArray.c does it: an
    assignment whose target bytes all read 0xFF is programmed in place; any
    other erases the whole sector to 0xFF and programs all of it back with the
    new bytes in. ``cut_after(n)`` lets the next writes program n more bytes and
    then fails the power (``PowerCut``); a cut during an erase (n = 0 at an
    erasing write) leaves the sector all 0xFF, but for the 256-byte pages named
    in ``old_pages``, which keep their old bytes (see interrupted_erases). A cut
    in the middle of a page program may leave some of the bits it was clearing
    still 1: ``left`` gives, byte by byte, the bits left 1 in the bytes after
    the n programmed (0 bits: that byte programmed whole). Power is back for
    writes after the cut, as after a restart.
    """

    def __init__(self, data=None, size=NVM_SECTOR):
        self._flash = bytearray(b"\xff" * size)
        if data is not None:
            if len(data) > size:
                raise ValueError("%d bytes do not fit in a %d-byte sector" % (len(data), size))
            self._flash[: len(data)] = data
        self.erases = 0
        self.bytes_programmed = 0
        self.pages_programmed = 0  # 256-byte flash pages touched by programs
        self.writes = 0
        self._budget = None
        self._old_pages = ()
        self._left = b""

    def cut_after(self, program_ops, old_pages=(), left=b""):
        """Fail the power after ``program_ops`` more byte programs (None: never);
        an erase cut short keeps ``old_pages`` as they were; the bytes after
        the last programmed whole keep ``left``'s bits 1 (a page program torn)."""
        self._budget = program_ops
        self._old_pages = tuple(old_pages)
        self._left = bytes(left)

    def snapshot(self):
        return bytes(self._flash)

    def __len__(self):
        return len(self._flash)

    def __bool__(self):
        return len(self._flash) != 0

    def _slice(self, index):
        start, stop, step = index.indices(len(self._flash))
        if step != 1:
            raise NotImplementedError("only slices with step=1 (aka None) are supported")
        return start, max(start, stop)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop = self._slice(index)
            return self._flash[start:stop]  # a new bytearray, as CircuitPython's
        return self._flash[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop = self._slice(index)
            if not isinstance(value, (bytes, bytearray, memoryview)):
                raise NotImplementedError("array/bytes required on right side")
            data = bytes(value)
            if len(data) != stop - start:
                raise ValueError("Slice and value different lengths.")
        else:
            start = range(len(self._flash))[index]
            if not 0 <= value <= 0xFF:
                raise ValueError("Bytes must be between 0 and 255.")
            data = bytes((value,))
        self._set_bytes(start, data)

    def _set_bytes(self, start, data):
        self.writes += 1
        stop = start + len(data)
        if self._flash[start:stop] == b"\xff" * len(data):
            self._program(start, data)
        else:
            image = bytearray(self._flash)
            image[start:stop] = data
            self._erase()
            self._program(0, image)

    def _erase(self):
        self.erases += 1
        if self._budget is not None and self._budget <= 0:
            old = bytes(self._flash)
            self._flash[:] = b"\xff" * len(self._flash)
            for page in self._old_pages:
                at = page * FLASH_PAGE
                self._flash[at:at + FLASH_PAGE] = old[at:at + FLASH_PAGE]
            self._budget = None
            raise PowerCut("power cut while erasing the nvm sector")
        self._flash[:] = b"\xff" * len(self._flash)

    def _program(self, start, data):
        count = len(data)
        if self._budget is not None and self._budget < count:
            done = self._budget
            self._flash[start:start + done] = data[:done]
            for i, bits in enumerate(self._left[:count - done]):  # half programmed
                self._flash[start + done + i] = data[done + i] | bits
            self.bytes_programmed += done
            self._budget = None
            raise PowerCut("power cut after %d of %d bytes programmed" % (done, count))
        self._flash[start:start + count] = data
        self.bytes_programmed += count
        if count:
            self.pages_programmed += (start + count - 1) // FLASH_PAGE - start // FLASH_PAGE + 1
        if self._budget is not None:
            self._budget -= count
