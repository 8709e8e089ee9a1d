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
