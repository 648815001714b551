"""boards.sim.dev: keypad, clock and watchdog, faked for the simulator (never deployed).

Plain Python that runs on CPython and on MicroPython alike, so boards/sim/board.py
and the MicroPython stand-ins (tools/mpstubs) share them: a keypad event queue
filled by the test, a clock that moves only when told, a watchdog that counts
its feeds.
"""

from boards import TICKS_PERIOD


class FakeClock:
    """``supervisor.ticks_ms`` that moves only when a test says so."""

    def __init__(self, start_ms=0):
        self.now = start_ms

    def advance(self, ms):
        self.now += ms

    def ticks_ms(self):
        return self.now % TICKS_PERIOD


class Event:
    """Shaped like ``keypad.Event``."""

    def __init__(self, key_number=0, pressed=True, timestamp=0):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = timestamp

    @property
    def released(self):
        return not self.pressed

    def __eq__(self, other):
        if not isinstance(other, Event):
            return False
        return self.key_number == other.key_number and self.pressed == other.pressed

    def __hash__(self):
        return hash((self.key_number, self.pressed))

    def __repr__(self):
        return "<Event: key_number %d %s>" % (
            self.key_number, "pressed" if self.pressed else "released")


class FakeEventQueue:
    """Shaped like ``keypad.EventQueue``: bounded; a full queue drops and flags."""

    def __init__(self, max_events=64):
        self._events = []
        self.max_events = max_events
        self.overflowed = False

    def record(self, key_number, pressed, timestamp):
        if len(self._events) >= self.max_events:
            self.overflowed = True
        else:
            self._events.append(Event(key_number, pressed, timestamp))

    def get(self):
        return self._events.pop(0) if self._events else None

    def get_into(self, event):
        if not self._events:
            return False
        got = self._events.pop(0)
        event.key_number, event.pressed, event.timestamp = (
            got.key_number, got.pressed, got.timestamp)
        return True

    def clear(self):
        self._events = []
        self.overflowed = False

    def __len__(self):
        return len(self._events)

    def __bool__(self):
        return bool(self._events)


class FakeKeyMatrix:
    """Takes ``keypad.KeyMatrix``'s arguments; keys are pressed by the test."""

    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.02,
                 max_events=64, clock=None):
        self.row_pins = tuple(row_pins)
        self.column_pins = tuple(column_pins)
        self.key_count = len(self.row_pins) * len(self.column_pins)
        self.events = FakeEventQueue(max_events)
        self._clock = clock or FakeClock()

    def press(self, key_number):
        self.events.record(key_number, True, self._clock.ticks_ms())

    def release(self, key_number):
        self.events.record(key_number, False, self._clock.ticks_ms())

    def deinit(self):
        pass


class FakeWatchdog:
    """``microcontroller.watchdog``: counts feeds."""

    def __init__(self):
        self.timeout = 0.0
        self.mode = None
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class WatchDogMode:
    RAISE = "WatchDogMode.RAISE"
    RESET = "WatchDogMode.RESET"


def press_keys(matrix, chars, legend):
    """Press and release, on ``matrix``, each key named in ``chars`` (spaces ignored).

    ``legend[key_number]`` is the character on each key. Unknown characters
    raise ValueError naming them all, before any key is pressed.
    """
    unknown = [c for c in chars if c != " " and c not in legend]
    if unknown:
        raise ValueError(
            "no key %s on the keypad; the keys are %s"
            % (", ".join(repr(c) for c in unknown), legend)
        )
    for char in chars:
        if char != " ":
            number = legend.index(char)
            matrix.press(number)
            matrix.release(number)
