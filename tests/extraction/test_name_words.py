"""A name word that ends a longer word of the name does not name the element's role."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_containers import verdicts
from tests.extraction.test_default_mode import page

BOOKS = [("The Hunger Games", "Suzanne Collins", "4.35", "9,993,676"),
         ("Pride and Prejudice", "Jane Austen", "4.30", "4,851,925"),
         ("To Kill a Mockingbird", "Harper Lee", "4.26", "6,937,951"),
         ("The Book Thief", "Markus Zusak", "4.39", "2,741,088"),
         ("Animal Farm", "George Orwell", "3.99", "4,180,340")]


def book_row(number: int, title: str, author: str, average: str, count: str) -> str:
    """One row of a voted book list, shaped like Listopia's."""
    return (f"<tr><td class='number'>{number}</td><td><a class='bookTitle' href='/b/{number}'>"
            f"<span>{title}</span></a><br><span class='by'>by</span> <a class='authorName' "
            f"href='/a/{number}'><span>{author}</span></a><br><div><span class='greyText "
            f"smallText uitext'><span class='minirating'>{average} avg rating — {count} "
            f"ratings</span></span></div></td></tr>")


def test_a_listings_minirating_line_is_kept():
    rows = "".join(book_row(n, *book) for n, book in enumerate(BOOKS, 1))
    html = page("<h1>Best Books Ever</h1><p>The best books ever, as voted on by the general "
                "community of readers, each with its average rating and the number of ratings."
                f"</p><table class='tableList'>{rows}</table>", title="Best Books Ever")
    text = extract(html).text
    assert "Suzanne Collins" in text
    assert "4.35 avg rating — 9,993,676 ratings" in text


def test_rating_names_the_role_only_where_a_word_begins():
    body = ("<div class='star-rating'><p>rated</p></div>"
            "<div class='operating-hours'><p>open</p></div>")
    assert verdicts(body) == {"rated": True, "open": False}
