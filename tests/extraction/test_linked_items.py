"""An article's list whose items each name a link and say what it is stays with it."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_default_mode import post

PARAGRAPH = ("An electrician carries a few tools to every job, and the right ones save an hour "
             "at each socket and keep the hands away from the live wires behind the wall plate.")
TOOLS = (("Fluke 117 digital multimeter", "reads voltage"),
         ("Klein NCVT-2 voltage tester pen", "beeps near live wires"),
         ("Knipex 09 02 lineman's pliers", "insulated"),
         ("Wago 221 lever connectors", "join wires"))
RELATED = ("Ten tools for a plumber", "How to wire a garage", "The best drills of the year",
           "A guide to fuse boxes")


def guide(items: str) -> str:
    return post("Tools for electricians", PARAGRAPH, f"<ul>{items}</ul>", count=4,
                after=PARAGRAPH.replace("An ", "Every "))


def test_items_with_text_beside_their_links_are_kept():
    items = "".join(f"<li><a href='/t/{n}'>{name}</a>: {what}</li>" for n, (name, what) in
                    enumerate(TOOLS))
    text = extract(guide(items)).text
    assert "keep the hands away" in text
    assert "Fluke 117 digital multimeter: reads voltage" in text
    assert "Wago 221" in text


def test_items_that_are_only_links_are_not():
    items = "".join(f"<li><a href='/r/{n}'>{title}</a></li>" for n, title in enumerate(RELATED))
    text = extract(guide(items)).text
    assert "keep the hands away" in text
    assert "How to wire a garage" not in text
