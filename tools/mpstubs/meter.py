"""meter: the stand-ins for CircuitPython's C modules account their own fuel (benchmark runs).

On the board busio, digitalio, keypad, microcontroller, neopixel_write,
supervisor, watchdog, os.getenv, time, adafruit_pixelbuf and adafruit_bus_device
are C (the last two are built into CircuitPython for the Pico); here
they are Python, and the fake panel
and flash they drive too. Importing this module wraps every function of them.
The outermost call into a stand-in calls the host twice: ``host.call(tag)``
as it enters (the tag names its shape: ``c3k1`` is 3 positional arguments,
self counted, and 1 keyword; ``gi`` / ``si`` an index read / write, ``ln``
len(), ``en`` / ``ex`` a ``with``, ``pg`` / ``ps`` a property) and
``host.call("o")`` as it returns; the host reads wasmtime's fuel at each, so
the fuel in between is the stand-in's. Bytes it allocates are summed in
``inside_bytes`` (``micropython.mem_current``, which a frame freed on return
does not move). Calls from one stand-in into another are not counted again.

A write to the OLED (the bus's one device) also calls ``host.call("m", counters)``
as it returns, inside the stand-in's window (so its fuel and bytes are the
stand-in's): the host keeps the last one of a step, where the key's answer is
on the panel (tools/devmeter.py).

``begin()`` and ``end(label)`` bracket one measured step; ``end`` sends
the step's heap figures and the hardware counters with it. What the wrapper
itself costs is measured the same way on a dummy (tools/devmeter.py makes
those calibration steps) and taken off by the host.
"""

import gc

import host
import micropython

_call = host.call
_current = micropython.mem_current
_TAGS = tuple(tuple("c%dk%d" % (n, k) for k in range(7)) for n in range(7))
depth = 0
inside_bytes = 0
counters = None  # the run sets it: a function of the hardware counters to send with end()
_entered = 0
_alloc = 0
_start = 0

# The wrappers and begin/end keep their frames under 12 words (no try block,
# few locals, no temporaries), which this build keeps on the C stack, and
# allocate nothing but what a call's arguments need: an allocation walks the
# heap from its first hole, so its cost depends on the heap's state, and the
# meter must cost the same everywhere. An exception out of a stand-in leaves
# ``depth`` set: the host sees the next "in" without an "o" and says that step
# cannot be split.


def _enter(tag):
    global depth, _entered
    depth = 1
    _call(tag, "")
    _entered = _current()


def _leave(result):
    global depth, inside_bytes
    inside_bytes += _current() - _entered
    _call("o", "")
    depth = 0
    return result


def wrap(f, tag=None):
    """``f`` as a stand-in for C: its fuel and bytes are reported as not the firmware's."""

    def metered(*args, **kwargs):
        if depth:
            return f(*args, **kwargs)
        _enter(tag or _TAGS[len(args)][len(kwargs)])
        return _leave(f(*args, **kwargs))

    return metered


# Special methods with their fixed arguments: no tuple or dict to allocate.

def _wrap_get(f, tag):
    def metered(self, index):
        if depth:
            return f(self, index)
        _enter(tag)
        return _leave(f(self, index))
    return metered


def _wrap_set(f, tag):
    def metered(self, index, value):
        if depth:
            return f(self, index, value)
        _enter(tag)
        return _leave(f(self, index, value))
    return metered


def _wrap_self(f, tag):
    def metered(self):
        if depth:
            return f(self)
        _enter(tag)
        return _leave(f(self))
    return metered


def _wrap_exit(f, _tag):
    def metered(self, kind, value, trace):
        if depth:
            return f(self, kind, value, trace)
        _enter("ex")
        return _leave(f(self, kind, value, trace))
    return metered


_SPECIAL = {"__getitem__": (_wrap_get, "gi"), "__setitem__": (_wrap_set, "si"),
            "__len__": (_wrap_self, "ln"), "__bool__": (_wrap_self, "bo"),
            "__enter__": (_wrap_self, "en"), "__exit__": (_wrap_exit, "ex")}


def wrap_class(cls, names=None):
    """Wrap the functions and properties of ``cls`` (or only ``names``) in place."""
    for name in list(names or cls.__dict__):
        value = cls.__dict__[name]
        if type(value) is property:
            _wrap_property(cls, name, value)
        elif type(value) is type(wrap):
            maker, tag = _SPECIAL.get(name, (wrap, None))
            setattr(cls, name, maker(value, tag))


def _wrap_property(cls, name, prop):
    # MicroPython's property has no fget: keep the original under another name.
    hidden = "_metered_" + name
    setattr(cls, hidden, prop)
    setattr(cls, name, property(_wrap_self(lambda self: getattr(self, hidden), "pg"),
                                _wrap_get(lambda self, value: setattr(self, hidden, value), "ps")))


def _marked(f):
    # The I2C write's end: the counters then, sent from inside the stand-in's window.
    def writeto(*args, **kwargs):
        result = f(*args, **kwargs)
        if counters:
            _call("m", " ".join([str(c) for c in counters()]))
        return result
    return writeto


def begin():
    global depth, inside_bytes, _alloc, _start
    depth = 0
    inside_bytes = 0
    _alloc = gc.mem_alloc()
    _start = _current()
    _call("b", "")


def end(label):
    """Close the step (``label`` made before ``begin``: no allocation in the step)."""
    _call("e", "")
    _report(label)


def _report(label):
    # The step's heap blocks and bytes, the stand-ins' bytes, the hardware counters.
    spent = _current() - _start
    blocks = gc.mem_alloc() - _alloc
    figures = " ".join([str(c) for c in counters()]) if counters else ""
    _call("r", "%s %d %d %d %s" % (label, blocks, spent, inside_bytes, figures))


def _install():
    import adafruit_bus_device.i2c_device as i2c_device
    import adafruit_pixelbuf
    import busio
    import digitalio
    import keypad
    import microcontroller
    import neopixel_write
    import os
    import supervisor
    import time
    from boards.sim.dev import Event, FakeEventQueue, FakeWatchdog
    from boards.sim.nvm import SimNVM
    from boards.sim.oled import FakeI2C

    wrap_class(adafruit_pixelbuf.PixelBuf)
    wrap_class(i2c_device.I2CDevice)
    FakeI2C.writeto = _marked(FakeI2C.writeto)  # before wrap_class: the mark is inside
    wrap_class(FakeI2C)
    wrap_class(busio.I2C)
    wrap_class(digitalio.DigitalInOut)
    wrap_class(keypad.KeyMatrix)
    wrap_class(FakeEventQueue, ("get", "get_into", "clear", "__len__", "__bool__"))
    wrap_class(Event, ("released",))
    wrap_class(SimNVM, ("__len__", "__bool__", "__getitem__", "__setitem__"))
    wrap_class(FakeWatchdog, ("feed",))
    wrap_class(microcontroller.Pin)
    neopixel_write.neopixel_write = wrap(neopixel_write.neopixel_write)
    supervisor.ticks_ms = wrap(supervisor.ticks_ms)
    os.getenv = wrap(os.getenv)
    for name in ("sleep", "monotonic", "monotonic_ns", "time", "localtime", "mktime"):
        setattr(time, name, wrap(getattr(time, name)))


_install()
