"""neopixel_write stand-in: keeps what each data pin would send (MicroPython test runs).

``frames[pin_name]`` is the last frame in wire order, ``writes[pin_name]`` how many.
"""

frames = {}
writes = {}


def neopixel_write(digitalinout, buf):
    name = digitalinout.pin.name
    frames[name] = bytes(buf)
    writes[name] = writes.get(name, 0) + 1
