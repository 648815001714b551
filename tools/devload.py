"""tools/devload: what loading a saved game costs the firmware, read and replay apart.

``run_load(image)`` puts ``image`` (the nvm sector's bytes) in the board's flash
and meters, under MicroPython 1.27 with the stand-ins for C left out
(tools/devmeter.py), the steps ``cribbage.store.Store.load`` takes: its one read
of the log (``Store._records``), the last ``BASE`` decoded, then each record
after it replayed through the rules (``Store._replay``), one a step. Between
steps the garbage is collected, as the Pico's own collections (one each ~60 KB
allocated) keep its heap: a replay of a whole game run as one step here, where
this build collects only between steps, would walk a heap far fuller than a
Pico's ever is, and cost more than on the board.
"""

from collections import namedtuple

from tools import devmeter, devrun
from tools import devmodel as m

Load = namedtuple("Load", ("read", "base", "replay", "records", "blocks"))

_GUEST = """
import meter
import metercal
import microcontroller
from meter import begin, end


def steps():
    yield from metercal.calibrate("cal:")
    yield
    from cribbage.store import BASE, Store
    store = Store(microcontroller.nvm)
    begin()
    base, kept = store._records()[:2]  # as Store._load reads them
    end("read")
    yield
    begin()
    game = store._checked(BASE, base) if base is not None else None
    end("base")
    yield
    for i in range(len(kept)):
        begin()
        if game is not None:
            store._replay(game, kept[i][0], kept[i][1])
        end("record:%d" % i)
        yield
    yield from metercal.calibrate("recal:")
"""


def run_load(image):
    """A ``Load``: fuel of the read, of the BASE decoded and of the replay (our
    code only), how many records were replayed, and the heap they allocated."""
    import binascii
    meter = devmeter.Meter()
    result = devrun._run_micropython(_GUEST, host=meter, heapsize_kb=devrun.heapsize_kb(),
                                     more={"nvm.hex": binascii.hexlify(image).decode()})
    if not result.ok:
        raise RuntimeError("the load failed under MicroPython:\n%s" % result.error)
    steps = {s.label: s for s in meter.steps()}
    records = [s for label, s in steps.items() if label.startswith("record:")]
    return Load(steps["read"].fuel, steps["base"].fuel, sum(s.fuel for s in records),
                len(records), sum(s.blocks for s in steps.values()))


def report(boot, image, short, full):
    """Lines: the boot on ``image`` estimated from ``boot`` (a tools.devmodel.Boot on
    the flash ``short`` is the load of) and the two loads measured here."""
    fuel = (full.read + full.base + full.replay) - (short.read + short.base + short.replay)
    collections = (full.blocks - short.blocks) / (m.HEAP_BYTES - boot.live)  # a Pico's heap

    def total(xip):
        return boot.total_s(xip) + (fuel / 1e6 * m.rate(xip) + collections * m.GC_MS) / 1000
    verdict = "PASS" if total(True) <= m.TARGET_BOOT_S else "MISS"
    return ["  .mpy on a full flash log instead (%d bytes; %d records replayed): %.2f s, %.2f s"
            " without the misses: %s" % (len(image.rstrip(b"\xff")), full.records, total(True),
                                         total(False), verdict),
            "    its load metered apart: the read %.1f M fuel, the replay %.1f M, the garbage"
            " collected between records as a Pico's own collections would"
            % (full.read / 1e6, full.replay / 1e6)]
