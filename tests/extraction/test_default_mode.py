"""The default composition on hand-built pages: what it keeps and what it cuts."""

from __future__ import annotations

from corpusbot import extract

PARAGRAPH = (
    "The council said on Monday that the new bridge over the river would open in the "
    "spring, after two years of work and a long debate about its cost to the town. "
    "Residents who live near the site have asked for the works to stop at night, and "
    "the council has agreed to look at their request before the next phase begins."
)


def article(paragraphs: int, start: int = 0) -> str:
    return "".join(f"<p>{start + i}. {PARAGRAPH}</p>" for i in range(paragraphs))


def page(body: str, title: str = "Bridge to open in spring") -> str:
    return (
        f"<html lang='en'><head><title>{title} | The Town Paper</title></head>"
        f"<body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>{body}</body></html>"
    )


def post(headline: str, paragraph: str, inserted: str, count: int = 3,
         after: str | None = None) -> str:
    """A blog post: ``headline``, ``count`` numbered copies of ``paragraph``, ``inserted``,
    then the copies again (of ``after`` when given)."""
    def numbered(text: str) -> str:
        return "".join(f"<p>{n}. {text}</p>" for n in range(1, count + 1))

    return page(
        f"<div class='wrap'><h1>{headline}</h1><div class='entry'>{numbered(paragraph)}"
        f"{inserted}{numbered(after or paragraph)}</div></div>",
        title=headline,
    )


def test_keeps_the_article_and_cuts_comments_and_teasers():
    html = page(
        "<div class='main'><h1>Bridge to open in spring</h1>"
        f"<div class='story'>{article(4)}</div></div>"
        f"<div class='comments'><p>Reader: {PARAGRAPH}</p></div>"
        "<div class='related'><ul><li><a href='/x'>Another story about roads and bridges "
        "in the town</a></li></ul></div>"
    )
    result = extract(html)
    assert result.title == "Bridge to open in spring"
    assert [p[:2] for p in result.paragraphs] == ["0.", "1.", "2.", "3."]


def test_article_split_by_an_advert_is_kept_whole():
    html = page(
        "<article><div class='part'>" + article(3) + "</div>"
        "<div class='ad-slot'><a href='/ad'>Buy now</a></div>"
        "<div class='part'>" + article(3, start=3) + "</div></article>"
    )
    assert [p[:2] for p in extract(html).paragraphs] == ["0.", "1.", "2.", "3.", "4.", "5."]


def test_headline_is_the_title_not_a_paragraph():
    html = page(f"<article><h1>Bridge to open in spring</h1>{article(3)}</article>")
    result = extract(html)
    assert result.title == "Bridge to open in spring"
    assert all("Bridge to open" not in p for p in result.paragraphs)


def test_caption_and_byline_inside_the_article_are_cut():
    html = page(
        "<article><p class='article__byline'>By Ann Writer, 3 March 2024</p>"
        "<figure><img src='b.jpg'><figcaption>The bridge, seen from the north bank of the "
        "river on a grey morning in March.</figcaption></figure>"
        f"{article(3)}</article>"
    )
    paragraphs = extract(html).paragraphs
    assert len(paragraphs) == 3
    assert not any("Ann Writer" in p or "north bank" in p for p in paragraphs)
