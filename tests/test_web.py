"""The board's web page in a real headless Chromium: the firmware on MicroPython WebAssembly.

The site is built by tools/web.py into a temporary folder and served on
localhost; Debian's chromium is driven by Playwright (the pinned Python package,
pointed at the installed browser: nothing is downloaded). Everything is played
by clicking the page's keys or typing, and checked against tools/sim.py run on
the same keys: the OLED's text, every lit hole's colour, the OLED's pixels, the
rings round the pegs. The page's clock is held (?held-clock) and moved by the
tests as the simulator moves its own, so nothing depends on the machine's speed.
First paint and key-to-OLED times are measured and printed (pytest -s), not
asserted. Without chromium (or without `npm ci` in web/) the tests are skipped
with the reason; CRIBBAGE_REQUIRE_BROWSER=1 (set by .ci/run) fails them instead.
CRIBBAGE_WEB_SCREENSHOT=docs/web.png writes the README's picture
(`make web-screenshot`).
"""

import json
import os
import statistics
import subprocess
import sys
import threading

import pytest

from test_web_build import readme_hand
from tools import web
from tools.simulator.session import Session, no_key
from web_page import (CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, REPO, TOOL, Page,
                      assert_pegs_ringed, assert_tracks_painted, board_of, simulate,
                      unavailable)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if not CHROMIUM:
        unavailable("Chromium is not installed: the web page's tests run in Debian's "
                    "chromium (apt-get install chromium; .ci/run installs it)")
    try:
        web.npm_folder()
    except web.UsageError as err:
        unavailable(str(err))
    out = tmp_path_factory.mktemp("site")
    web.build(out)
    server = web.make_server(out, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d/" % server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(site):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          chromium_sandbox=False, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser):
    """A fresh profile: nothing in localStorage, nothing cached."""
    ctx = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    yield ctx
    ctx.close()


def test_the_readme_hand_by_clicking_is_the_simulators(context, site):
    page = Page(context, site)
    times = page.page.evaluate("""() => ({
        firstFrame: cribbageBoard.stats.firstFrame,
        contentful: (performance.getEntriesByName('first-contentful-paint')[0]
                     || {}).startTime})""")
    print("\nfirst paint of the page %.0f ms; the firmware's first OLED frame %.0f ms "
          "after navigation (target 2000 ms)" % (times["contentful"], times["firstFrame"]))
    assert page.oled()[:3] == ["0  0", "A+0*      B+0       ", "A deals: # starter"]
    rows = readme_hand()
    assert "".join(rows) == "#CD6A9A9D7DCBBB4C#8B###5B5CAD0C"  # the README's table, read
    keyed = ""
    checkpoints = (1, 5, 8, 10, len(rows) - 1)  # the starter, 31, the go, B's show, the crib
    for i, keys in enumerate(rows):
        page.keys(keys)
        keyed += keys
        if i in checkpoints:
            sim = simulate(keyed)
            assert page.state() == board_of(sim), keyed
            assert_pegs_ringed(page, sim["pegs"])
    assert page.oled()[:3] == ["25  7", "A+15      B+4*      ", "B deals: # starter"]

    # The canvas holds the panel's RAM, which is the simulator's at the same moment
    sim = Session().keys(keyed)
    ram = sim.board.oled_frame()
    assert bytes(page.page.evaluate("cribbageBoard.oledRam()")) == ram
    canvas = page.page.evaluate("""() => {
        const c = document.getElementById('oled');
        return Array.from(c.getContext('2d').getImageData(0, 0, 128, 64).data);
    }""")
    on = tuple(json.loads(page.page.locator("#board-facts").text_content())["oledOn"])
    for y in range(64):
        for x in range(128):
            lit = (ram[(y >> 3) * 128 + x] >> (y & 7)) & 1
            i = 4 * (y * 128 + x)
            assert tuple(canvas[i:i + 3]) == (on if lit else (0, 0, 0)), (x, y)

    # Each hole is painted in its LED's colour, brightened as the simulator's picture does
    assert_tracks_painted(page)

    keys = page.page.evaluate("cribbageBoard.stats.keys")
    assert len(keys) == len(keyed)
    keys = [k for k in keys if k["oled"]]  # the keys that changed the OLED
    drawn = [k["drawn"] for k in keys]
    shown = [k["shown"] for k in keys]
    print("key press to OLED redrawn: median %.1f ms, max %.1f ms; to the next frame on "
          "screen: median %.1f ms, max %.1f ms (%d keys; target 50 ms)"
          % (statistics.median(drawn), max(drawn), statistics.median(shown), max(shown),
             len(keys)))
    shot = os.environ.get("CRIBBAGE_WEB_SCREENSHOT")
    if shot:
        page.page.screenshot(path=str(REPO / shot) if not os.path.isabs(shot) else shot,
                             full_page=True)
    assert page.errors == []


def test_a_reload_resumes_and_the_download_carries_on_in_the_simulator(context, site, tmp_path):
    page = Page(context, site)
    page.keys("12A 5B # 5C 0A 5B")
    before = page.state()
    assert before == board_of(simulate("12A5B#5C0A5B"))
    with page.page.expect_download() as wait:
        page.page.click("#download")
    saved = tmp_path / "board.nvm"
    wait.value.save_as(saved)
    data = saved.read_bytes()
    assert len(data) == 4096 and data == page.flash()
    assert page.stored_flash() == data.hex()  # localStorage holds the flash as it is

    page.open(reload=True)  # a power cut: the board restarts from its flash
    resumed = page.state()
    # the scores, the last pegs, whose turn and the pegs (a restart leaves card entry)
    assert resumed["oled"][:3] == before["oled"][:3] and resumed["leds"] == before["leds"]
    # tools/sim.py restarted from the downloaded file shows the very same board
    assert resumed == board_of(simulate("", "--state", str(saved)))
    page.keys("5D")  # and the game goes on where it was: B pegs a pair
    assert page.state() == board_of(simulate("5D", "--state", str(saved)))
    assert page.errors == []


def test_the_statistics_download_is_the_simulators_json(context, site, tmp_path):
    page = Page(context, site)
    keys = "29A 29A 29A 29A 5B 5A"  # A wins 121-5: a game, typed points, a double skunk
    page.keys(keys)
    with page.page.expect_download() as wait:
        page.page.click("#download-stats")
    saved = tmp_path / "stats.json"
    wait.value.save_as(saved)
    assert wait.value.suggested_filename == "cribbage-stats.json"
    got = json.loads(saved.read_text())
    assert got == simulate(keys.replace(" ", ""))["stats"]
    assert got["games"] == 1 and got["sides"][0]["typed_points"] == 121
    assert got["sides"][0]["wins"] == got["sides"][0]["double_skunks"] == 1
    assert page.errors == []


def test_a_state_saved_by_the_simulator_loads(context, site, tmp_path):
    saved = tmp_path / "game.nvm"
    subprocess.run([sys.executable, TOOL, "--keys", "12A 29B", "--save", str(saved)],
                   cwd=REPO, check=True, capture_output=True, timeout=120)
    page = Page(context, site)
    with page.page.expect_navigation():  # the board restarts from the loaded flash
        page.page.set_input_files("#load", str(saved))
    page.page.wait_for_function("window.cribbageBoard && cribbageBoard.ready()", timeout=30000)
    assert page.oled()[0] == "12  29"
    assert page.page.locator("#notice").text_content() == \
        "Loaded game.nvm: the board restarted from it."
    assert page.state() == board_of(simulate("", "--state", str(saved)))
    assert page.stored_flash() == saved.read_bytes().hex()


BAD_STATES = [
    ("short.nvm", b"\xff" * 100, "it is 100 bytes; a saved board is exactly 4096"),
    ("big.nvm", b"\xff" * 4097, "it is 4097 bytes; a saved board is exactly 4096"),
    ("noise.nvm", bytes((i * 7 + 3) % 256 for i in range(4096)),
     "it is not a saved board: neither erased flash nor a game the board can read"),
]


def test_a_bad_state_file_gets_a_clear_message_and_changes_nothing(context, site, tmp_path):
    page = Page(context, site)
    page.keys("7A")
    before, flash = page.state(), page.stored_flash()
    problem = page.page.locator("#problem")
    for name, content, reason in BAD_STATES:
        bad = tmp_path / name
        bad.write_bytes(content)
        sim = subprocess.run([sys.executable, TOOL, "--keys", "", "--state", str(bad)],
                             cwd=REPO, capture_output=True, text=True, timeout=120)
        assert sim.returncode == 2, name  # the simulator refuses it too
        page.page.evaluate("document.getElementById('problem').hidden = true")
        page.page.set_input_files("#load", str(bad))
        problem.wait_for(state="visible")
        assert problem.text_content() == \
            "Cannot load %s: %s. The game on the board is unchanged." % (name, reason)
        assert problem.get_attribute("role") == "alert"
        assert page.state() == before and page.stored_flash() == flash, name
    page.open(reload=True)
    assert page.oled()[0] == "7  0"


def test_erasing_the_flash_asks_first_then_starts_a_fresh_board(context, site):
    page = Page(context, site)
    page.keys("7A")
    asked = []
    page.page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.page.click("#erase")
    assert asked == ["Erase the board's flash? The game on it is lost (download it first "
                     "to keep it)."]
    assert page.oled()[0] == "7  0"  # declined: nothing changed
    page.page.once("dialog", lambda dialog: dialog.accept())
    with page.page.expect_navigation():
        page.page.click("#erase")
    page.page.wait_for_function("window.cribbageBoard && cribbageBoard.ready()", timeout=30000)
    assert page.state() == board_of(simulate(""))
    assert page.page.locator("#notice").text_content() == "The flash was erased: a fresh board."


def test_a_flash_in_localstorage_that_is_no_image_is_kept_aside(context, site):
    page = Page(context, site)
    page.page.evaluate("localStorage.setItem('cribbage-board/nvm', 'not a flash image')")
    page.open(reload=True)
    assert page.page.locator("#problem").text_content() == (
        "The flash kept in this browser was not a 4096-byte image, so the board starts fresh; "
        "the old text is kept in localStorage as cribbage-board/nvm-unreadable.")
    assert page.page.evaluate("localStorage.getItem('cribbage-board/nvm-unreadable')") == \
        "not a flash image"
    assert page.state() == board_of(simulate(""))


def test_the_laptop_keys_and_the_keypad_from_the_keyboard(context, site):
    page = Page(context, site)
    note = page.page.locator("#key-note")
    page.page.keyboard.type("12a")  # a-d as A-D, as in the terminal simulator
    page.page.keyboard.type("5b")
    page.page.focus('#keypad button[data-key="3"]')
    page.page.keyboard.press("Enter")  # a focused key is a real button
    page.page.focus('#keypad button[data-key="B"]')
    page.page.keyboard.press("Space")
    page.settle()
    before = page.state()
    assert before == board_of(simulate("12A5B3B"))
    assert page.oled()[0] == "12  8"
    assert note.is_hidden()
    page.page.keyboard.type("x")  # not a key: named as the terminal names it, nothing else
    assert note.is_visible() and note.get_attribute("role") == "status"
    assert note.text_content() == no_key("x") == "no key 'x': the keys are 123A456B789C*0#D"
    page.page.keyboard.type("'")
    assert note.text_content() == no_key("'")
    assert page.state() == before
    page.page.keyboard.type("*#")  # undo: B's 3 comes off; a key clears the note
    assert note.is_hidden()
    page.settle()
    assert page.state() == board_of(simulate("12A5B3B*#"))
    assert page.oled()[0] == "12  5"


def test_accessible_keys_and_the_oled_text_in_a_live_region(context, site):
    page = Page(context, site)
    buttons = page.page.locator("#keypad button")
    assert buttons.count() == 16
    labels = [buttons.nth(i).get_attribute("aria-label") for i in range(16)]
    assert labels[3] == "A: player A / jack / spade"
    assert labels[14] == "#: step: starter, play, show"
    assert [buttons.nth(i).text_content() for i in range(16)] == list("123A456B789C*0#D")
    assert page.page.get_by_role("button", name="D: menu / club").count() == 1
    live = page.page.locator("#oled-text")
    assert live.get_attribute("aria-live") == "polite"
    page.keys("D")
    assert live.text_content().split("\n") == simulate("D")["oled"]
    # read out, not shown: the canvas is the one OLED on screen
    box = live.bounding_box()
    assert box["width"] <= 1 and box["height"] <= 1, box
    assert page.page.evaluate("getComputedStyle(document.getElementById('oled-text')).clip") \
        == "rect(0px, 0px, 0px, 0px)"


def in_view(page, selector):
    """The element's box, asserted to lie wholly inside the viewport as it is scrolled."""
    box = page.page.locator(selector).bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)
    return box


def test_a_phone_shows_the_pegs_the_oled_and_the_keys_at_once(browser, site):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                              has_touch=True)
    try:
        page = Page(ctx, site)
        assert page.page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        for i in range(16):
            box = page.page.locator("#keypad button").nth(i).bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, i  # a finger's size
        oled = in_view(page, "#oled")
        assert oled["width"] >= 300
        keyed = ""
        for key in "9B5A#":  # taps: the page never scrolls, the pegs never leave the screen
            page.page.tap('#keypad button[data-key="%s"]' % key)
            page.settle()
            keyed += key
            assert page.page.evaluate("window.scrollY") == 0
            for selector in ("#tracks", "#oled", "#keypad"):
                in_view(page, selector)
        sim = simulate(keyed)
        assert page.state() == board_of(sim)
        assert_tracks_painted(page)
        assert_pegs_ringed(page, sim["pegs"])

        with page.page.expect_navigation():  # three tracks are taller: they fit too
            page.page.check("input[name=tracks][value='3']")
        page.page.wait_for_function("window.cribbageBoard && cribbageBoard.ready()",
                                    timeout=30000)
        page.page.evaluate("window.scrollTo(0, 0)")
        for selector in ("#tracks", "#oled", "#keypad"):
            in_view(page, selector)
        assert len(page.holes()) == 3
    finally:
        ctx.close()


def test_three_tracks(context, site):
    page = Page(context, site)
    with page.page.expect_navigation():  # the board restarts with three strips
        page.page.check("input[name=tracks][value='3']")
    page.page.wait_for_function("window.cribbageBoard && cribbageBoard.ready()", timeout=30000)
    assert len(page.holes()) == 3
    page.keys("D11#")  # a new game of 3 players
    page.keys("5C 7B")
    assert page.state() == board_of(simulate("D11#5C7B", "--tracks", "3"))
    assert_tracks_painted(page)


def test_a_peg_jumps_at_the_firmwares_timing(context, site):
    page = Page(context, site, held=False)  # the page's real clock, frame by frame
    page.click("20")
    page.page.wait_for_function("cribbageBoard.sinceKey() > 100")
    # Click A, then read the strips at every frame for 0.8 s, with the board's clock.
    samples = page.page.evaluate("""() => new Promise((done) => {
        const seen = [];
        document.querySelector('#keypad button[data-key="A"]').click();
        const key = cribbageBoard.lastKeyAt();
        const look = () => {
            const at = cribbageBoard.stats.lastTick - key;
            seen.push([at, cribbageBoard.litHoles()[0]]);
            if (at < 800) requestAnimationFrame(look); else done(seen);
        };
        look();
    })""")
    sim = Session(until_still=False)
    sim.press("2")
    sim.press("0")
    sim.press("A")  # at the simulated clock's 0
    clock = sim.board.clock
    start = clock.now
    fronts = []
    for at, lit in samples:
        clock.now = start + at
        sim.app.step()
        assert [[hole, list(rgb)] for hole, rgb in sim.holes(0)] == lit, at
        fronts.append(max(hole for hole, rgb in lit if rgb[0] == max(r[0] for _, r in lit)))
    # the peg ran up the holes over the firmware's 500 ms (20 holes at 25 ms, capped)
    moving = [f for (at, _), f in zip(samples, fronts) if at < 500]
    assert len(set(moving)) >= 8 and fronts == sorted(fronts) and fronts[-1] == 20
    print("\na 20-hole jump seen in %d frames, %d holes on the way"
          % (len(samples), len(set(moving))))
