"""A line that is only a date is the page's metadata; a date in a table cell is data."""

from __future__ import annotations

import pytest

from corpusbot import extract
from corpusbot.extraction.default import datelines
from tests.extraction.test_default_mode import article, page


def dated_post() -> str:
    """A post with its day on a line of its own under the headline and a price history."""
    rows = "".join(f"<tr><td>{day}</td><td>{price}</td></tr>"
                   for day, price in (("14.11.2025", "4.20"), ("21.11.2025", "4.35")))
    return page(
        "<article><h1>Bridge to open in spring</h1><div class='entry'>"
        "<p>Friday, November 14, 2025</p>"
        f"{article(3)}<table><tr><th>Day</th><th>Toll</th></tr>{rows}</table>{article(2, 3)}"
        "</div></article>"
    )


def test_a_date_on_a_line_of_its_own_stays_out():
    text = extract(dated_post()).text
    assert "November 14, 2025" not in text
    assert "0. The council said" in text


def test_dates_in_a_table_are_kept():
    text = extract(dated_post()).text
    assert "14.11.2025" in text and "21.11.2025" in text


@pytest.mark.parametrize("line", [
    "Friday, November 14, 2025", "Dec 19, 2025", "14. November 2025",
    "14 de noviembre de 2025", "2025-11-14", "14.11.2025", "2025年11月14日",
    "March 29, 2025 10:30 am",
])
def test_date_shapes_of_several_languages_are_date_lines(line):
    assert datelines.DATE_LINE.match(line)


@pytest.mark.parametrize("line", [
    "Updated Mar 8, 2026", "Acer Nitro 16 (2023)", "Windows 10 2021", "Jun 2",
    "The bridge opened on November 14, 2025.",
])
def test_a_label_or_a_sentence_around_a_date_is_no_date_line(line):
    assert not datelines.DATE_LINE.match(line)


def bylined_post(bylines: int) -> str:
    """A post with a byline under the headline, or a page of entries, each with its own."""
    entries = "".join(
        f"<div class='entry'><h2>Story {n}</h2><p>By Ann Lee | Apr {n + 1}, 2025 | Roads</p>"
        f"{article(1, n)}</div>" for n in range(bylines))
    return page(f"<main><h1>Bridge to open in spring</h1>{entries}</main>")


def test_an_articles_byline_with_its_date_stays_out():
    text = extract(bylined_post(1)).text
    assert "By Ann Lee" not in text
    assert "0. The council said" in text


def test_the_bylines_of_a_list_of_entries_are_kept():
    assert extract(bylined_post(4)).text.count("By Ann Lee") == 4


@pytest.mark.parametrize(("line", "byline"), [
    ("On Behalf of Tunstall PLLC | Apr 21, 2017 | Products Liability", True),
    ("March 15, 2022 · 3 min read · By ASU Online", True),
    ("Home | About | Contact", False),
    ("The bridge opened on November 14, 2025 | a long sentence of more than six words here", False),
])
def test_bylines_are_short_parts_around_a_date(line, byline):
    from corpusbot.extraction.core import read_page
    block = next(b for b in read_page(page(f"<p>{line}</p>")).page.blocks if b.text == line)
    assert datelines.is_byline(block) is byline
