"""README is the front door: under 40,000 bytes, with a link to every page of docs/;
and every relative link in README.md and docs/*.md leads to a file that exists, and
for a #part to a heading of that file."""

import os
import re

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = sorted("docs/" + f for f in os.listdir(os.path.join(REPO, "docs")) if f.endswith(".md"))
PAGES = ["README.md"] + DOCS
README_LIMIT = 40_000  # bytes: what it is, quick start, play, build, deploy, where things are

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCED = re.compile(r"^```.*?^```", re.M | re.S)
INLINE = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6} (.+)$", re.M)


def read(page):
    with open(os.path.join(REPO, page), encoding="utf-8") as f:
        return f.read()


def prose(text):
    """The text less its code, where a [...](...) is no link nor a # a heading."""
    return INLINE.sub("", FENCED.sub("", text))


def links(text):
    return LINK.findall(prose(text))


def slug(heading):
    """The anchor GitHub makes of a heading: lower case, punctuation dropped, - for spaces."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(text):
    out, seen = set(), {}
    for heading in HEADING.findall(prose(text)):
        name = slug(heading)
        n = seen.get(name, 0)
        seen[name] = n + 1
        out.add(name if n == 0 else "%s-%d" % (name, n))
    return out


def broken(page, text=None):
    """[(link, why)] for each link of ``page`` that leads nowhere."""
    out = []
    for target in links(read(page) if text is None else text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not files of ours
            continue
        path, _, anchor = target.partition("#")
        file = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.isfile(os.path.join(REPO, file)):
            out.append((target, "no file %s" % file))
        elif anchor and anchor not in anchors(read(file)):
            out.append((target, "no heading for #%s in %s" % (anchor, file)))
    return out


def test_readme_is_under_40_kb():
    size = os.path.getsize(os.path.join(REPO, "README.md"))
    assert size < README_LIMIT, "README.md is %d bytes: move detail to docs/" % size


def test_readme_links_every_page_of_docs():
    linked = {os.path.normpath(target.partition("#")[0]) for target in links(read("README.md"))}
    assert len(DOCS) >= 10 and set(DOCS) <= linked, set(DOCS) - linked


@pytest.mark.parametrize("page", PAGES)
def test_every_link_leads_to_a_file_and_heading_there(page):
    assert links(read(page)), page  # each page links somewhere (docs/ back to README)
    assert broken(page) == [], page


def test_the_checks_catch_a_broken_link():
    assert slug("Flashing CircuitPython and deploying") == "flashing-circuitpython-and-deploying"
    assert slug("Speed, and `memory`!") == "speed-and-memory"
    assert anchors("# A b\n```\n# not a heading\n```\n## C\n## C\n") == {"a-b", "c", "c-1"}
    assert links("[a](x.md) `[b](y.md)` ![c](d.png)\n```\n[e](f.md)\n```\n") == ["x.md", "d.png"]
    text = ("[a](nowhere.md) [b](../README.md#no-such-part) [c](engine.md) "
            "[d](../README.md#quick-start) [e](#the-files-from-the-bottom-up) [f](https://x.org)")
    assert broken("docs/engine.md", text) == [
        ("nowhere.md", "no file docs/nowhere.md"),
        ("../README.md#no-such-part", "no heading for #no-such-part in README.md")]
