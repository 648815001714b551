"""tools/devmeter: the host side of tools/mpstubs/meter.py: the firmware's fuel and heap by step.

``Meter`` is the ``host`` callback of ``tools.mprun.run_micropython``. For each
step the guest brackets with ``meter.begin()`` / ``meter.end(label)`` it keeps
the fuel of the whole step, the fuel spent inside the stand-ins for
CircuitPython's C modules (between each outermost "in" and "o" call), how many
calls of each shape crossed into them, and the heap figures and hardware
counters the guest sends with ``end``.

The meter costs fuel itself: the two host calls and the wrapper around every
stand-in call, and the begin/end pair. ``calibration_code()`` is guest code
that measures exactly that on a dummy, one step per call shape (the fuel of a
shape's wrapper is the same on any object: the wasm build is deterministic,
and only the allocator's walks depend on the heap, so the run calibrates
before and after), and what a call of the same shape into a real C function
costs the interpreter (that much stays counted, as the board pays it too).
``Meter.steps()`` then gives, per step::

    ours  = fuel of the step - fuel inside the stand-ins - begin/end
            - calls x (wrapper's fuel - a C call's fuel), shape by shape

and the same up to the step's last write to the OLED (``oled``: our fuel when
that write began, with the counters as it ended): the guest marks each one
from inside the bus's stand-in ("m"), and ours up to it is the fuel from the
step's begin to the write's "in", less what was inside stand-ins before it
and the meter's cost of the calls so far.
"""

from collections import namedtuple

CALIBRATION_CALLS = 32
CALIBRATION = "cal:"         # the calibration before the run: the one used
RECALIBRATION = "recal:"     # the same at the end, to show the meter costs the same
CALIBRATIONS = (CALIBRATION, RECALIBRATION)

# Call shapes the wrapper tags: positional arguments (self counted) x keywords.
CALL_TAGS = tuple("c%dk%d" % (n, k) for n in range(7) for k in range(7))
SPECIAL_TAGS = ("gi", "si", "ln", "bo", "en", "ex", "pg", "ps")

Step = namedtuple("Step", (
    "label",
    "fuel",         # the firmware's own fuel: stand-ins and the meter taken off
    "standin_fuel", # fuel inside the stand-ins (C on the board)
    "calls",        # calls into stand-ins
    "blocks",       # heap the firmware allocated in the step, bytes in GC blocks
    "counters",     # the hardware counters sent with end(), cumulative
    "broken",       # an exception left a stand-in unclosed: the split is not known
    "spread",       # fuel: half the change of the meter's cost from before to after the run
    "oled",         # (our fuel, counters) at the step's last OLED write; None: it wrote none
), defaults=(None,))


def _arguments(n, k):
    return ", ".join(["0"] * n + ["k%d=0" % i for i in range(k)])


def calibration_code(calls=CALIBRATION_CALLS):
    """Guest code: ``calibrate()`` yields after each calibration step."""
    lines = [
        "import gc",
        "from meter import begin, end, wrap, wrap_class",
        "",
        "def _none(*args, **kwargs):",
        "    return None",
        "",
        "class Dummy:",
        "    def m(self, *args, **kwargs):",
        "        return None",
        "    def __getitem__(self, i):",
        "        return 0",
        "    def __setitem__(self, i, v):",
        "        pass",
        "    def __len__(self):",
        "        return 1",
        "    def __bool__(self):",
        "        return True",
        "    def __enter__(self):",
        "        return self",
        "    def __exit__(self, *exc):",
        "        return False",
        "    @property",
        "    def p(self):",
        "        return 0",
        "    @p.setter",
        "    def p(self, v):",
        "        pass",
        "",
        "class Plain:",
        "    x = 0",
        "",
        "wrap_class(Dummy)",
        "f = wrap(_none)",
        "",
    ]
    bodies = {"none": None, "empty": "pass"}
    for n in range(7):
        for k in range(7):
            if n == 0:
                bodies["c0k%d" % k] = "f(%s)" % _arguments(0, k)
            else:
                bodies["c%dk%d" % (n, k)] = "d.m(%s)" % _arguments(n - 1, k)
    bodies.update({"gi": "d[0]", "si": "d[0] = 0", "ln": "len(d)", "bo": "not d",
                   "with": "with d:\n            pass", "pg": "d.p", "ps": "d.p = 0"})
    # What the same shapes cost into C: the board's interpreter pays this.
    natives = {"nat_f0": ("gc.isenabled()", "None"), "nat_m1": ("d.isdigit()", "'a'"),
               "nat_m2": ("d.count('a')", "'a'"), "nat_m3": ("d.find('a', 0)", "'a'"),
               "nat_m4": ("d.find('a', 0, 1)", "'a'"), "nat_gi": ("d[0]", "bytearray(1)"),
               "nat_si": ("d[0] = 0", "bytearray(1)"), "nat_ln": ("len(d)", "bytearray(1)"),
               "nat_bo": ("not d", "bytearray(1)"), "nat_pg": ("d.x", "Plain()"),
               "nat_ps": ("d.x = 0", "Plain()")}
    table = []
    for name, body in bodies.items():
        fn = "_cal_" + name
        if body is None:
            lines += ["def %s(d, n):" % fn, "    return None", ""]
        else:
            lines += ["def %s(d, n):" % fn, "    for _ in range(n):", "        " + body, ""]
        table.append("    ('%s', %s, Dummy())," % (name, fn))
    for label, (body, obj) in natives.items():
        fn = "_" + label
        lines += ["def %s(d, n):" % fn, "    for _ in range(n):", "        " + body, ""]
        table.append("    ('%s', %s, %s)," % (label, fn, obj))
    lines += ["STEPS = ("] + table + [")", "", "", "def calibrate(prefix):",
                                      "    for label, fn, obj in STEPS:",
                                      "        label = prefix + label",
                                      "        begin()",
                                      "        fn(obj, %d)" % calls,
                                      "        end(label)",
                                      "        yield", ""]
    return "\n".join(lines)


class Meter:
    """The host callback: raw windows first, ``steps()`` once the run is over."""

    def __init__(self):
        # (label, total, inside, calls, blocks, bytes, inside_bytes, counters, broken, oled)
        self.raw = []
        self._oled = None  # (fuel before the meter's costs, calls so far, counters)
        self._open = False
        self._begin = self._entered = 0
        self._inside = 0
        self._total = None
        self._calls = {}
        self._in = self._broken = False
        self._costs = None

    def __call__(self, name, text, fuel):
        if name == "b":
            self._open, self._begin, self._inside, self._calls = True, fuel, 0, {}
            self._in = self._broken = False
            self._oled = None
        elif not self._open:
            return  # a stand-in called outside a step (the harness pressing keys)
        elif name == "o":
            self._inside += self._entered - fuel
            self._in = False
        elif name == "m":  # an OLED write ends, inside its stand-in's window
            self._oled = (self._begin - self._entered - self._inside, dict(self._calls),
                          tuple(int(p) for p in text.split()))
        elif name == "e":
            self._total = self._begin - fuel
        elif name == "r":
            parts = text.split()
            label = parts[0]
            blocks, spent, inside_bytes = int(parts[1]), int(parts[2]), int(parts[3])
            counters = tuple(int(p) for p in parts[4:])
            self.raw.append((label, self._total, self._inside, self._calls, blocks, spent,
                             inside_bytes, counters, self._broken or self._in, self._oled))
            self._open = False
        else:
            self._broken = self._broken or self._in
            self._in = True
            self._entered = fuel
            self._calls[name] = self._calls.get(name, 0) + 1

    def costs(self, prefix=CALIBRATION, calls=CALIBRATION_CALLS):
        """What the meter adds: ``calls`` {tag: (fuel, bytes)} per call beyond a C
        call, ``step`` (fuel, bytes) of a begin/end pair; from the steps ``prefix``."""
        if prefix == CALIBRATION and self._costs is not None:
            return self._costs
        cal = {r[0][len(prefix):]: r for r in self.raw if r[0].startswith(prefix)}
        if "none" not in cal:
            raise RuntimeError("the run made no calibration steps")
        none, empty = cal["none"], cal["empty"]
        per_call = {}
        for tag in CALL_TAGS + ("gi", "si", "ln", "bo", "pg", "ps", "with"):
            r = cal[tag]
            per_call[tag] = ((r[1] - r[2] - empty[1]) / calls, (r[5] - r[6] - empty[5]) / calls)
        native = {label[4:]: (cal[label][1] - empty[1]) / calls for label in cal
                  if label.startswith("nat_")}
        each = (native["m4"] - native["m3"])  # one more argument into C
        out = {}
        for tag in CALL_TAGS:
            n, k = int(tag[1]), int(tag[3])
            if n == 0:
                c_call = native["f0"] + k * each
            else:
                m = min(n, 4)
                c_call = native["m%d" % m] + (n - m + k) * each
            out[tag] = (per_call[tag][0] - c_call, per_call[tag][1])
        for tag in ("gi", "si", "ln", "bo", "pg", "ps"):
            out[tag] = (per_call[tag][0] - native[tag], per_call[tag][1])
        # A `with` is two stand-in calls (__enter__, __exit__): half each.
        with_fuel = per_call["with"][0] - native["m1"] - native["m4"]
        out["en"] = out["ex"] = (with_fuel / 2, per_call["with"][1] / 2)
        costs = {"calls": out, "step": (none[1], none[5]), "native": native, "wrapper": per_call}
        if prefix == CALIBRATION:
            self._costs = costs
        return costs

    def steps(self):
        """The measured steps (calibration left out), the meter's cost taken off.

        The meter's cost is the mean of its calibrations before and after the run
        (an allocation's cost grows as the heap fills): ``spread`` is how far a
        step's figure would move with either one alone."""
        before = self.costs()
        after = self.costs(RECALIBRATION) if any(
            r[0].startswith(RECALIBRATION) for r in self.raw) else before
        step_fuel = (before["step"][0] + after["step"][0]) / 2
        step_bytes = before["step"][1]

        def cost(calls):
            return sum(n * (before["calls"][tag][0] + after["calls"][tag][0]) / 2
                       for tag, n in calls.items())

        out = []
        for (label, total, inside, calls, blocks, spent, inside_bytes, counters, broken,
             oled) in self.raw:
            if label.startswith(CALIBRATIONS):
                continue
            fuel = total - inside - step_fuel - cost(calls)
            spread = abs(after["step"][0] - before["step"][0]) / 2
            ours_bytes = spent - inside_bytes - step_bytes
            for tag, n in calls.items():
                spread += n * abs(after["calls"][tag][0] - before["calls"][tag][0]) / 2
                ours_bytes -= n * before["calls"][tag][1]
            if oled is not None:  # the begin/end pair taken off whole, as from the step
                oled = (min(fuel, max(0.0, oled[0] - step_fuel - cost(oled[1]))), oled[2])
            # Blocks are what the heap loses; the split between the firmware and the
            # stand-ins is taken in proportion to the bytes each asked for.
            share = max(0.0, ours_bytes) / spent if spent > 0 else 0.0
            out.append(Step(label, max(0.0, fuel), inside, sum(calls.values()),
                            blocks * min(1.0, share), counters, broken, spread, oled))
        return out
