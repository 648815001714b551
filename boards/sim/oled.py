"""boards.sim.oled: an SSD1306 on a fake I2C bus, for the simulator (never deployed).

Plain Python that runs on CPython and on MicroPython alike (boards/sim/board.py and
tools/mpstubs share it). ``FakeI2C`` has the methods of ``busio.I2C``;
``FakeSSD1306`` parses the control bytes and commands the real driver sends and
keeps the display RAM as the panel would.
"""

import errno

from boards import ssd1306

I2C_LOG_LENGTH = 64


class FakeSSD1306:
    """An SSD1306 as seen from I2C: parses control bytes and commands, keeps GDDRAM."""

    WIDTH = ssd1306.WIDTH  # the panel the board's driver is written for
    PAGES = ssd1306.PAGES
    # Commands and how many argument bytes follow each.
    _ARGUMENTS = {
        0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1,
        0x8D: 1, 0xA3: 2, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD6: 1, 0xD9: 1,
        0xDA: 1, 0xDB: 1,
    }
    HORIZONTAL, VERTICAL, PAGE = 0, 1, 2

    def __init__(self):
        self.ram = bytearray(self.WIDTH * self.PAGES)
        self.mode = self.PAGE  # the reset default
        self.col_start, self.col_end = 0, self.WIDTH - 1
        self.page_start, self.page_end = 0, self.PAGES - 1
        self.col = self.page = 0
        self.display_on = False
        self.inverted = False
        self.contrast = 0x7F
        self.charge_pump = False
        self.commands = 0
        self.unknown_commands = []
        self.data_bytes = 0
        self.data_writes = 0  # I2C transactions that carried display data
        self._command = None
        self._arguments = []

    def receive(self, data):
        """One I2C write addressed to the panel (the bytes after the address)."""
        carried_data = False
        i = 0
        while i < len(data):
            control = data[i]
            i += 1
            is_data = bool(control & 0x40)
            if control & 0x80:  # Co=1: one byte, then another control byte
                if i < len(data):
                    self._byte(data[i], is_data)
                    carried_data = carried_data or is_data
                    i += 1
            else:  # Co=0: the rest of the transaction is all data or all commands
                for byte in data[i:]:
                    self._byte(byte, is_data)
                carried_data = carried_data or (is_data and i < len(data))
                break
        if carried_data:
            self.data_writes += 1

    def _byte(self, byte, is_data):
        if is_data:
            self._write_ram(byte)
        elif self._command is not None:
            self._arguments.append(byte)
            if len(self._arguments) == self._ARGUMENTS[self._command]:
                self._run(self._command, self._arguments)
                self._command = None
        elif byte in self._ARGUMENTS:
            self._command = byte
            self._arguments = []
        else:
            self._run(byte, [])

    def _write_ram(self, byte):
        self.ram[self.page * self.WIDTH + self.col] = byte
        self.data_bytes += 1
        if self.mode == self.VERTICAL:
            self.page += 1
            if self.page > self.page_end:
                self.page = self.page_start
                self.col += 1
                if self.col > self.col_end:
                    self.col = self.col_start
        else:
            self.col += 1
            end = self.col_end if self.mode == self.HORIZONTAL else self.WIDTH - 1
            if self.col > end:
                self.col = self.col_start
                if self.mode == self.HORIZONTAL:
                    self.page += 1
                    if self.page > self.page_end:
                        self.page = self.page_start

    def _run(self, command, arguments):
        self.commands += 1
        if command == 0x20:
            self.mode = arguments[0] & 0x03
        elif command == 0x21:
            self.col_start, self.col_end = arguments[0] & 0x7F, arguments[1] & 0x7F
            self.col = self.col_start
        elif command == 0x22:
            self.page_start, self.page_end = arguments[0] & 0x07, arguments[1] & 0x07
            self.page = self.page_start
        elif command == 0x81:
            self.contrast = arguments[0]
        elif command == 0x8D:
            self.charge_pump = bool(arguments[0] & 0x04)
        elif command in (0xAE, 0xAF):
            self.display_on = command == 0xAF
        elif command in (0xA6, 0xA7):
            self.inverted = command == 0xA7
        elif 0xB0 <= command <= 0xB7:  # page-addressing-mode pointers
            if self.mode == self.PAGE:
                self.page = command & 0x07
        elif command <= 0x0F:
            if self.mode == self.PAGE:
                self.col = self.col_start = (self.col & 0xF0) | command
        elif command <= 0x1F:
            if self.mode == self.PAGE:
                self.col = self.col_start = ((command & 0x07) << 4) | (self.col & 0x0F)
        elif command in self._ARGUMENTS or command in (0xA0, 0xA1, 0xA4, 0xA5, 0xC0, 0xC8, 0xE3):
            pass  # remap, scan direction, timing and scrolling: no effect on RAM
        elif 0x40 <= command <= 0x7F or command in (0x2E, 0x2F):
            pass  # display start line, scroll on/off
        else:
            self.unknown_commands.append(command)

    def pixels(self):
        """64 rows of 128 0/1 values: GDDRAM as the driver's x, y see it."""
        ram = self.ram
        return [
            [(ram[(y >> 3) * self.WIDTH + x] >> (y & 7)) & 1 for x in range(self.WIDTH)]
            for y in range(self.PAGES * 8)
        ]


class FakeI2C:
    """Has the methods of ``busio.I2C``; the devices answer at their addresses."""

    def __init__(self, scl, sda, *, frequency=100_000, timeout=255, devices=None,
                 log_length=I2C_LOG_LENGTH):
        self.scl = scl
        self.sda = sda
        self.frequency = frequency
        self.devices = dict(devices or {})
        self.bytes_sent = 0  # on the wire, address bytes included
        self.transactions = 0
        self.log = []  # (address, bytes) of the recent writes, oldest first
        self.log_length = log_length
        self._locked = False
        self._deinited = False

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        if not self._locked:
            raise RuntimeError("Function requires lock")

    def _device(self, address):
        self.transactions += 1
        self.bytes_sent += 1
        device = self.devices.get(address)
        if device is None:
            raise OSError(errno.ENODEV, "No I2C device at 0x%02X" % address)
        return device

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def deinit(self):
        self._deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def scan(self):
        self._check()
        return sorted(self.devices)

    def writeto(self, address, buffer, *, start=0, end=None):
        self._check()
        data = memoryview(buffer)[start:end]
        device = self._device(address)
        self.bytes_sent += len(data)
        if self.log_length:
            self.log.append((address, bytes(data)))
            if len(self.log) > self.log_length:
                self.log.pop(0)
        device.receive(data)

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        self._check()
        self._device(address)
        end = len(buffer) if end is None else end
        for i in range(start, end):
            buffer[i] = 0

    def writeto_then_readfrom(self, address, buffer_out, buffer_in, *, out_start=0,
                              out_end=None, in_start=0, in_end=None):
        self.writeto(address, buffer_out, start=out_start, end=out_end)
        self.readfrom_into(address, buffer_in, start=in_start, end=in_end)

    def bus_ms(self):
        """Time the bus has been busy so far: 9 clocks a byte (8 bits and the ack)."""
        return self.bytes_sent * 9 * 1000.0 / self.frequency
