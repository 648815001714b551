"""tools/devreport: the targets of issue 21 said PASS or MISS, and parts of bench_device's report.

``target_lines(figures)`` prints one line a target: what, the figure, the
target, PASS or MISS. ``figures`` holds the estimates by key (None: not run);
the comparisons are here and nowhere else.
"""

from tools import devmodel as m

# (key, what, unit, "<=" or ">=", target)
TARGETS = (
    ("hand_p95", "%s: press -> OLED done, p95, the scan in", "ms", "<=",
     m.TARGET_P95_MS),
    ("hand_p50", "%s: press -> OLED done, median, the scan in", "ms", "<=",
     m.TARGET_P50_MS),
    ("game_p95", "whole game: press -> OLED done, p95, the scan in", "ms", "<=",
     m.TARGET_P95_MS),
    ("game_p50", "whole game: press -> OLED done, median, the scan in", "ms", "<=",
     m.TARGET_P50_MS),
    ("boot_s", "reset -> the resumed game's first frame", "s", "<=", m.TARGET_BOOT_S),
    ("heap_kb", "heap free after the boot, on the device", "KB", ">=",
     m.TARGET_FREE_SHARE * m.HEAP_BYTES / 1024),
    ("gc_keys", "keys with a garbage collection inside", "keys", "<=", 0),
    ("frames_s", "animation frames a second, the slowest frame", "/s", ">=",
     1000 / m.TARGET_FRAME_MS),
)
_FORMATS = {"ms": "%.1f", "s": "%.2f", "KB": "%.1f", "keys": "%d", "/s": "%.0f"}


def verdict(ok):
    return "PASS" if ok else "MISS"


def meets(value, op, target):
    return value <= target if op == "<=" else value >= target


def target_lines(figures, hand="README hand"):
    """Lines: each target of TARGETS with its figure from ``figures`` {key: value}."""
    out = []
    for key, what, unit, op, target in TARGETS:
        what = what.replace("%s", hand)
        fmt = _FORMATS[unit]
        value = figures.get(key)
        goal = "%s %s %s" % (op, fmt % target, unit)
        if value is None:
            out.append("  %-54s %11s  %-12s %s" % (what, "not run", goal, "----"))
        else:
            out.append("  %-54s %11s  %-12s %s" % (what, fmt % value + " " + unit, goal,
                                                    verdict(meets(value, op, target))))
    return out


def ms3(values, fmt="%6.1f"):
    """p50 p95 max of ``values``."""
    return " ".join(fmt % v for v in (m.percentile(values, 0.5), m.percentile(values, 0.95),
                                      max(values) if values else float("nan")))


def print_memory(report):
    """The heap after the boot, a key's garbage, the collections and the call depth."""
    print("\nmemory (the Pico's 163 KB heap; the stand-ins' own objects left out)")
    for name, boot in sorted(report.boots.items(), reverse=True):
        live = boot.live
        free = m.HEAP_BYTES - live
        device = m.free_on_device(live)
        print("  heap after the boot, .%-3s: %.1f KB live, %.1f KB free here, %.1f KB on the"
              " device (%.0f%%; target >= %.0f%%): %s"
              % (name, live / 1024, free / 1024, device / 1024, 100 * device / m.HEAP_BYTES,
                 100 * m.TARGET_FREE_SHARE,
                 verdict(device >= m.TARGET_FREE_SHARE * m.HEAP_BYTES)))
    for name, boot in sorted(report.boots.items(), reverse=True):
        print("  and between keys, once the first idle passes have loaded card entry and made"
              " the answers ahead, .%-3s: %.1f KB free on the device"
              % (name, m.free_on_device(boot.settled) / 1024))
    print("    (on the device: the figure here less %.0f KB, issue 21's 68.3 KB measured against"
          " 75 KB estimated;" % (m.HEAP_DEVICE_LESS / 1024))
    print("    before that: %.0f KB live measured where this benchmark said %.1f KB, as .py)"
          % (m.DEVICE_LIVE_KB_THEN, m.BENCH_LIVE_KB_THEN))
    boot = report.boots.get("mpy") or report.boots["py"]
    print("    of which %.1f KB are qstr pool tables for the boot's %d new names (the pools"
          " double as they fill," % (boot.qstr_tables / 1024, boot.qstr_names))
    print("    so where they start, after the names before ours, moves this by a pool)")
    keys = [e.step.blocks for e in report.keys]
    steps = report.estimates
    frames = [e.step.blocks for e in steps if e.step.label.startswith("frame:")]
    idle = [e.step.blocks for e in steps if e.step.label.startswith("idle:")]
    print("  allocated a key: p50 %.0f, mean %.0f, max %.0f bytes; a frame: p50 %.0f, max %.0f;"
          " an idle pass: max %.0f"
          % (m.percentile(keys, 0.5), sum(keys) / len(keys), max(keys),
             m.percentile(frames, 0.5) if frames else 0, max(frames or [0]), max(idle or [0])))
    hit = [e for e in report.keys if e.collections]
    every = len(report.keys) / len(hit) if hit else float("inf")
    idle = sum(e.collections for e in steps if e.step.label.startswith("idle:"))
    print("  collections: %d in all, %d of them in idle passes (the app's, after each key"
          " once its answers are made ahead)," % (sum(e.collections for e in steps), idle))
    print("    inside %d of %d keys (%s; target none)" % (
        len(hit), len(report.keys), "1 in %.0f" % every if hit else "none"))
    deepest = max(report.played.steps, key=lambda s: (s.frames, s.pystack))
    print("  deepest call chain: %d frames, ~%d bytes of the %d-byte pystack (target <= %d"
          " frames): %s" % (deepest.frames, deepest.pystack, m.PYSTACK_BYTES, m.TARGET_FRAMES,
                            verdict(deepest.frames <= m.TARGET_FRAMES)))
    print("    key %s ('%s', %s): %s" % (deepest.label[4:], deepest.key, deepest.part,
                                        " > ".join(deepest.chain)))


def print_table(report):
    """The summary: keys to OLED done, boots, comet frames, with and without cache misses."""
    pegs = [e for e in report.keys if report.cp(e).moved]
    still = [e for e in report.keys if not report.cp(e).moved]
    comet = report.frames("comet")
    print("\nsummary (press to OLED done, the keypad scan not included)")
    print("  | | without flash-cache misses (uncorrected) | with them, corrected |")

    def cells(rows, fn, oled=True):
        return " | ".join(fn([e.oled_ms(x) if oled else e.ms(x) for e in rows]) if rows
                          else "none" for x in (False, True))

    def key(values):
        return "%.0f / %.0f ms" % (m.percentile(values, 0.5), max(values))

    def frame(values):
        p50 = m.percentile(values, 0.5)
        return "%.0f ms (%.0f/s)" % (p50, 1000 / p50)

    print("  | keys that move a peg (median / max) | %s |" % cells(pegs, key))
    print("  | keys that move no peg | %s |" % cells(still, key))
    for name in ("py", "mpy"):
        b = report.boots.get(name)
        boot = " | ".join("%.2f s" % b.total_s(x) for x in (False, True)) if b else \
            "not estimated | not estimated"
        print("  | reset -> the game's first full frame, .%s | %s |" % (name, boot))
    print("  | a win comet frame (frames/s) | %s |" % cells(comet, frame, oled=False))
