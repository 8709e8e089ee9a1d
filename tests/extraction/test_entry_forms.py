"""Forms a reader types into are no main text, unless the form wraps the page."""

from __future__ import annotations

import pytest

from corpusbot import extract
from corpusbot.extraction.default.containers import ContainerNames
from corpusbot.html import dom
from corpusbot.html.blocks import segment
from tests.extraction.test_default_mode import article, page

# A quote-request form as form builders write it under an article: no class or id
# names it, its labels and hints are text.
QUOTE_FORM = (
    "<div class='gform_wrapper'><form method='post' action='/quote'>"
    "<div class='gform_heading'><p>Fill out the form to get a copy of our ebook.</p></div>"
    "<ul><li><label>First Name*</label><input type='text' name='first'></li>"
    "<li><label>Number of Employees*</label><select name='size'><option>1-10</option>"
    "</select></li>"
    "<li><label>Lead Source</label><input type='hidden' name='source'>"
    "<div>This field is hidden when viewing the form</div></li>"
    "<li><div>This field is for validation purposes and should be left unchanged.</div>"
    "<input type='text' name='honeypot'></li></ul>"
    "<input type='submit' value='Submit'></form></div>"
)


def readable(body: str) -> dict[str, bool]:
    """Each block's text and whether the containers step calls it boilerplate."""
    root = dom.parse_html(f"<html><body>{body}</body></html>")
    elements = dom.head_elements(root)
    dom.strip_invisible(root, elements.buttons, elements.forms)
    names = ContainerNames()
    return {b.text: names.is_boilerplate(b.element) for b in segment(root) if b.text}


def test_an_unnamed_quote_form_under_an_article_is_left_out():
    text = extract(page("<article><h1>Bridge to open in spring</h1>" + article(4)
                        + "</article>" + QUOTE_FORM)).text
    assert "0. The council said" in text and "3. The council said" in text
    for line in ("Fill out the form", "First Name", "Number of Employees",
                 "hidden when viewing", "validation purposes"):
        assert line not in text


@pytest.mark.parametrize("control", [
    "<input name='q'>", "<input type='email' name='e'>", "<textarea name='t'></textarea>",
    "<select name='s'><option>one</option></select>",
])
def test_a_form_with_a_field_to_fill_is_boilerplate(control: str):
    body = f"{article(1)}<form><p>Sign up for our letters.</p>{control}</form>"
    verdicts = readable(body)
    assert verdicts.pop("Sign up for our letters.") and not any(verdicts.values())


def test_a_form_of_choices_alone_stays_text():
    # a calculator's versions, each explained beside its radio button
    body = (article(1) + "<form action='/calc'>"
            "<p>Quick analysis, four questions, about five minutes.</p>"
            "<input type='radio' name='v' value='quick'><p>Detailed analysis, fifteen "
            "questions.</p><input type='radio' name='v' value='full'>"
            "<input type='checkbox' name='save'><input type='submit' value='Start'></form>")
    assert not any(readable(body).values())


@pytest.mark.parametrize("inside", ["<h1>Bridge to open in spring</h1>", "<main></main>",
                                    "<article></article>"])
def test_a_form_holding_the_headline_or_a_landmark_wraps_the_page(inside: str):
    body = f"<form id='aspnetForm'><input name='search'>{inside}<p>Story.</p></form>"
    assert not any(readable(body).values())


def test_a_form_holding_most_of_the_text_wraps_the_page():
    # ASP.NET web forms: one <form> around the whole page, a search box in its header
    body = ("<form id='form1' action='./story.aspx'><div class='head'><input name='q'></div>"
            + article(4) + "</form><p>Imprint.</p>")
    assert not any(readable(body).values())
    text = extract(page(body)).text
    assert "0. The council said" in text and "3. The council said" in text
