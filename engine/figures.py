"""engine.figures: the board's statistics by name, for what shows them (the
stats page, the simulator's JSON, the web page's download): each side's
counters and its averages.

engine.stats keeps and folds them as a flat list at every boot and action; this
is loaded only where they are shown.
"""

from engine.stats import F

# Per side, in the order engine.stats keeps (and saves) them.
FIELDS = ("wins", "skunks", "double_skunks", "skunked", "double_skunked", "matches",
          "hands", "hand_points", "cribs", "crib_points", "best_hand",
          "hands_29", "hands_28", "hands_24", "nobs", "heels", "play_points", "typed_points")


def side(stats, s):
    """Side ``s``'s counters by name, with its averages (tenths: a show's
    points per hand, per crib; None with none counted)."""
    at = 1 + s * F
    out = {}
    for i, name in enumerate(FIELDS):
        out[name] = stats[at + i]
    out["hand_average"] = _tenths(out["hand_points"], out["hands"])
    out["crib_average"] = _tenths(out["crib_points"], out["cribs"])
    return out


def _tenths(points, n):
    return None if not n else (points * 10 + n // 2) // n


def report(stats, sides):
    """The statistics as plain values for JSON: the games, then one entry a side
    (the first ``sides``), in side order; an average is points a show, to a tenth
    (None with none counted)."""
    out = []
    for s in range(sides):
        named = side(stats, s)
        for name in ("hand_average", "crib_average"):
            if named[name] is not None:
                named[name] = named[name] / 10
        out.append(named)
    return {"games": stats[0], "sides": out}
