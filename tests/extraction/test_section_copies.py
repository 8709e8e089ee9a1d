"""A section the page writes twice (one copy per screen size) is kept once."""

from __future__ import annotations

from corpusbot import extract
from corpusbot.extraction.core import read_page
from corpusbot.extraction.default import repeats
from tests.extraction.test_default_mode import page

DESCRIPTION = (
    "<p>Make each cup of tea feel special with a wheel thrown stoneware mug, matte outside "
    "and glazed inside.</p><p>Handmade in our studio.</p><p>Size: about 9 x 13 x 7 cm.</p>"
    "<p>Suitable for dishwashers and microwave ovens; avoid rapid heating and cooling.</p>"
)


def product(description: str) -> str:
    """A shop's product page: the description once for wide screens, once for phones."""
    return page(
        "<main><div class='product'><h1>Speckled mug</h1><div class='price'>$60.00</div>"
        f"<div class='description hidden-down-md'>{description}</div>"
        f"<div class='description hidden-up-md'>{description}</div></div></main>",
        title="Speckled mug",
    )


def test_a_description_written_for_wide_screens_and_again_for_phones_is_kept_once():
    text = extract(product(DESCRIPTION)).text
    assert text.count("wheel thrown stoneware mug") == 1
    assert text.count("Handmade in our studio") == 1
    assert "Suitable for dishwashers" in text


def test_lines_repeated_in_each_tab_beside_other_text_are_kept_each_time():
    # A documentation page's tabs repeat two lines beside a step and code that differ:
    # the repeated run's element (the tab) is no twin of the first tab, so it is no copy.
    note = ("<p>Keep your credentials out of the code of the app.</p>"
            "<p>Read them from the environment when you deploy the app to production.</p>")
    tabs = "".join(
        f"<div class='tab'><h3>{lang}</h3><p>Create a file called send.{ext} in the project "
        f"folder and paste in the following code, which uses the {lang} library.</p>{note}"
        f"<pre>client = {lang}.Client(key)</pre></div>"
        for lang, ext in (("Python", "py"), ("Ruby", "rb"), ("Java", "java"))
    )
    text = extract(page(f"<main><h1>Send a message</h1>{tabs}</main>")).text
    assert text.count("Keep your credentials out of the code") == 3


def test_only_runs_in_twin_elements_are_copies():
    html = product(DESCRIPTION)
    kept = read_page(html).page.blocks
    copy = [b for b in kept if "hidden-up-md" in (b.element.getparent().get("class") or "")]
    first = [b for b in kept if "hidden-down-md" in (b.element.getparent().get("class") or "")]
    assert len(copy) == len(first) == 4
    assert repeats.without_copies([*first, *copy]) == first
    assert repeats.without_copies([*first, *copy[:1]]) == [*first, *copy[:1]]
