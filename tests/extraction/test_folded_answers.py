"""A FAQ's answers, hidden until the reader clicks the question, are the page's text."""

from __future__ import annotations

import lxml.html

from corpusbot import extract
from corpusbot.html.blocks import segment
from tests.extraction.test_default_mode import page

DESCRIPTION = (
    "<p>This forty litre trekking backpack carries a week of gear on long trails, with a "
    "frame that spreads the load over the hips and straps that do not rub on the shoulders."
    "</p><p>The fabric is a ripstop nylon that sheds rain, and the zips are sealed, so the "
    "gear inside stays dry in a storm as well as on a wet bus roof.</p>"
)
FAQ = (("Is there a warranty included?", "Yes, every backpack has a two-year warranty that "
         "covers the seams, the zips and the frame."),
       ("Will I get a tracking number?", "A tracking number is sent to your email within a "
        "day of shipping."),
       ("Can I return it?", "Within thirty days, at no cost, if it has not been used outdoors."))


def product() -> str:
    items = "".join(
        f"<div class='qa'><div class='q'>{question}</div>"
        f"<div class='a' style='display: none'>{answer}</div></div>"
        for question, answer in FAQ
    )
    return page(f"<main><h1>Trail 40</h1>{DESCRIPTION}"
                f"<h2>Questions and answers</h2>{items}</main>", title="Trail 40")


def test_answers_folded_under_their_questions_are_kept():
    text = extract(product()).text
    assert "ripstop nylon" in text
    assert all(answer in text for _, answer in FAQ)


def test_hidden_text_after_a_statement_or_a_long_text_ending_in_a_question_stays_hidden():
    long_text = "Why walk when you can ride? " * 12
    html = page("<div><p>Free delivery on orders over 50 euros.</p>"
                "<p style='display:none'>Hidden after a statement</p>"
                f"<p>{long_text}</p><p style='display:none'>Hidden after a long text</p></div>")
    texts = [b.text for b in segment(lxml.html.fromstring(html))]
    assert "Free delivery on orders over 50 euros." in texts
    assert not any(t.startswith("Hidden") for t in texts)


def test_a_question_folding_its_answer_shows_it():
    html = page("<div><h3>Can I return it?</h3><p hidden>Within 30 days, at no cost.</p></div>")
    assert "Within 30 days, at no cost." in [b.text for b in segment(lxml.html.fromstring(html))]


def test_a_question_in_chinese_or_arabic_folds_its_answer_too():
    # the question marks of continuation's questions-and-answers runs: one rule for both
    for question, answer in (("可以退货吗\uff1f", "三十天内可以免费退货。"),
                             ("هل يمكنني إرجاعه؟", "نعم، خلال ثلاثين يوما.")):
        html = page(f"<div><h3>{question}</h3><p hidden>{answer}</p></div>")
        assert answer in [b.text for b in segment(lxml.html.fromstring(html))]
