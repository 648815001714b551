"""README's examples, and docs/simulator.md's, are what the board and the tools really
give: the simulator's JSON, the pictures (remade with the commands given), the
advice's page."""

import json
import os
import re

from PIL import Image, ImageChops

from sim_helpers import REPO, run_main

with open(os.path.join(REPO, "README.md"), encoding="utf-8") as _f:
    README = _f.read()
with open(os.path.join(REPO, "docs", "simulator.md"), encoding="utf-8") as _f:
    SIMULATOR = _f.read()  # the JSON example and the command of docs/board.png


def _block_after(line, text=README):
    """The text of the code block that starts with ``line`` (the line left out)."""
    start = text.index(line + "\n") + len(line) + 1
    return text[start:text.index("```", start)]


def test_the_simulators_json_example_is_what_it_prints(capsys):
    command = '$ .venv/bin/python tools/sim.py --keys "12A 5B # 5C 0A 5B" --json'
    code, out, err = run_main(capsys, "--keys", "12A 5B # 5C 0A 5B", "--json")
    assert code == 0, err
    assert json.loads(_block_after(command, SIMULATOR)) == json.loads(out)


def test_the_pictures_are_made_by_the_commands_given(tmp_path, capsys):
    for name, text in (("board.png", SIMULATOR), ("skunk.png", README)):
        found = re.search(r'tools/sim\.py --keys "([^"]*)" --png docs/%s' % re.escape(name),
                          text)
        assert found, name
        made = str(tmp_path / name)
        code, _, err = run_main(capsys, "--keys", found.group(1), "--png", made)
        assert code == 0, err
        ours = Image.open(made).convert("RGB")
        shipped = Image.open(os.path.join(REPO, "docs", name)).convert("RGB")
        assert ours.size == shipped.size and ImageChops.difference(ours, shipped).getbbox() \
            is None, name


def test_the_advice_page_is_what_the_board_shows():
    from firmware import Table
    from cribbage.names import SUIT_GLYPHS  # the font's suits, as the OLED's rows hold them
    from cribbage.pages import ABOUT  # and its "about" sign
    shown = _block_after("```\nA your crib 1-3/15").splitlines()
    t = Table().keys("D 7 A 5B 5C AA 6D 4C CB")
    glyphs = str.maketrans("\u2660\u2665\u2666\u2663\u2248", "".join(SUIT_GLYPHS) + ABOUT)
    assert ["A your crib 1-3/15"] + [row.translate(glyphs) for row in shown] == t.oled()


def test_the_reading_the_boards_rows_are_the_skunk_pictures():
    from firmware import Table
    t = Table().keys("D17# 29A 29A 29A 21A 6B 3B 29A")
    rows = t.oled()
    for row, cell in ((1, "`121  9`"), (3, "`A wins double skunk!`"), (4, "`match to A! #new`"),
                      (5, "`A+29 pegged`")):
        text = cell.strip("`")
        assert rows[row - 1].split() == text.split(), (row, rows)
        assert "| %d |" % row in README or "| %d and on |" % row in README
        assert "| " + cell in README, cell  # the picture's column says the same
    assert rows[1].startswith("A+29*") and rows[1].endswith("4-0") and "B+3" in rows[1]
