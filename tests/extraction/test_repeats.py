"""Text a page gives twice for layouts never seen at once is kept once; the lines its own
structure repeats stay."""

from __future__ import annotations

from corpusbot import extract
from corpusbot.extraction.core import first_occurrences

STORY = [
    "The council voted on Tuesday to rebuild the old bridge over the river before the winter "
    "floods, after a year of debate about the cost of the work and who should pay for it.",
    "Engineers said the new bridge would carry twice the traffic of the old one, and that the "
    "work could start in March if the money from the regional fund arrived on time.",
    "Residents who had campaigned for a footpath welcomed the decision but asked the council "
    "to keep the old stone arches, which many of them see as part of the town's history.",
]


def page(body: str) -> bytes:
    return f"<html><head><title>Bridge</title></head><body>{body}</body></html>".encode()


def test_an_article_given_again_for_another_layout_is_kept_once() -> None:
    paragraphs = "".join(f"<p>{p}</p>" for p in STORY)
    html = page(f"<div class='desktop'><h1>Bridge</h1>{paragraphs}</div>"
                f"<div class='mobile'>{paragraphs}</div>")
    text = extract(html).text
    assert all(text.count(p) == 1 for p in STORY), text


def test_lines_the_page_repeats_by_design_stay() -> None:
    question = ("What is the one dish you would cook for a guest who has never eaten the food "
                "of your region before?")
    plan = ["Eat 60 to 90 minutes before your workout",
            "Drink within 30 minutes after your workout"]
    paragraphs = (question, "Fish soup.", *plan, question, "Plum dumplings.", *plan,
                  question, "Lentil stew.")
    assert first_occurrences(paragraphs) == paragraphs


def test_a_copied_stretch_goes_but_what_follows_it_stays() -> None:
    paragraphs = (*STORY, "Related: the ferry timetable", *STORY[:2], "A new last line.")
    assert first_occurrences(paragraphs) == (*STORY, "Related: the ferry timetable",
                                             "A new last line.")
