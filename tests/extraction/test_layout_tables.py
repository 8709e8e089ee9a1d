"""A table that lays out the page (a menu's cell beside the article's) is no list whose
kept item gives the others (``lists.lays_out``); a table of data still is."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from corpusbot import extract
from corpusbot.extraction.default.lists import lays_out

SENTENCE = ("The committee met on Monday to discuss the new budget for the city's parks, and "
            "agreed to fund two more gardeners for the summer season ahead.")
MENU = ("<a href='/'>Home</a> | <a href='/about'>About us</a> | <a href='/news'>News</a> | "
        "<a href='/contact'>Contact</a>")


def old_page(table_attributes: str = "") -> str:
    """A page of 2003: the menu in the left cell, the story in the right one."""
    return (f"<html><body><table {table_attributes}><tr><td width=150>{MENU}</td><td>"
            f"<font face=arial><b>Parks budget</b><br>{SENTENCE}<br><br>{SENTENCE} {SENTENCE}"
            "</font></td></tr></table></body></html>")


@pytest.mark.parametrize("attributes", ["", "role='presentation' border=0"])
def test_the_menu_cell_of_a_layout_table_stays_out(attributes):
    text = extract(old_page(attributes)).text
    assert SENTENCE in text
    assert "About us" not in text


@pytest.mark.parametrize(("table", "layout"), [
    ("<table><tr><td>menu</td><td>story</td></tr></table>", True),
    ("<table role='presentation'><tr><td>a</td></tr><tr><td>b</td></tr></table>", True),
    ("<table><tr><td><table><tr><td>a</td></tr></table></td></tr><tr><td>b</td></tr></table>",
     True),
    ("<table><tr><th>Model</th><th>Weight</th></tr></table>", False),
    ("<table><tr><td>Model</td><td>Weight</td></tr><tr><td>Tempest</td><td>1 kg</td></tr>"
     "</table>", False),
])
def test_a_table_lays_out_the_page_unless_it_holds_data(table, layout):
    root = lxml_html.fromstring(f"<html><body>{table}</body></html>")
    assert lays_out(next(root.iter("table"))) is layout
