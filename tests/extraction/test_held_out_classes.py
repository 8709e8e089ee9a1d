"""The error classes of issue 19, each on a small page in the shape it takes on the web.

The held-out sets showed these classes; the pages here are written for the
tests (none comes from a gold set), and each asserts what a reader would
call the page's main text.
"""

from __future__ import annotations

from corpusbot import extract

NAV = (
    "<nav class='menu'><ul><li><a href='/'>Home</a></li><li><a href='/blog'>Blog</a></li>"
    "<li><a href='/about'>About</a></li><li><a href='/contact'>Contact</a></li></ul></nav>"
)
FOOTER = "<footer><p>Copyright 2024 Marginalia. All rights reserved.</p></footer>"

ABOUT = (
    "Hi, I am Maren. I write about slow travel, night trains and the small towns between "
    "the big cities of Europe. Before this blog I worked for ten years as a railway "
    "engineer, which explains the timetables. I live in Ghent with my partner and a very "
    "old cat, and I answer every email, even if it sometimes takes a week or two. If you "
    "want to follow along, the newsletter goes out once a month with the routes I tried, "
    "the ones I would not repeat, and a photograph of a station that deserves more love. "
    "Guest posts are welcome too, as long as they involve a train, a timetable and at "
    "least one missed connection."
)
POST_LINES = (
    "Three hours from Vienna, and the light kept changing.",
    "Bring bread: the dining car closes early.",
)


def test_a_short_post_is_kept_before_a_long_about_me_paragraph_in_the_sidebar():
    post = "".join(f"<p>{line}</p>" for line in POST_LINES)
    html = (
        "<html><head><title>Night train to Ljubljana - Slow Rails</title></head><body>"
        f"{NAV}<div class='wrap'><div class='col-main'><div class='entry'>"
        "<span class='date'>12 March 2024</span><h2>Night train to Ljubljana</h2>"
        f"{post}</div></div><div class='col-side'><div class='box'><h3>About me</h3>"
        f"<p>{ABOUT}</p></div><div class='box'><h3>Blogroll</h3><ul>"
        "<li><a href='https://a.example'>Trains and tea</a></li>"
        "<li><a href='https://b.example'>Platform five</a></li></ul></div></div></div>"
        f"{FOOTER}</body></html>"
    )
    text = extract(html).text
    assert all(line in text for line in POST_LINES)
    assert "railway engineer" not in text


def test_main_content_that_is_a_list_of_links_is_kept():
    chapters = [
        "Summary of findings", "Methods and data sources", "Regional results",
        "Water quality by river basin", "Groundwater levels", "Outlook for 2030",
        "Recommendations to ministries", "Annex: station list",
    ]
    items = "".join(f"<p><a href='/report/ch{i}'>{i + 1}. {name}</a></p>"
                    for i, name in enumerate(chapters))
    html = (
        "<html><head><title>State of the Rivers 2024 - contents</title></head><body>"
        f"{NAV}<div class='report'><h1>State of the Rivers 2024</h1>"
        f"{items}</div><aside><h3>Recent</h3><ul><li><a href='/r/1'>Older report</a></li>"
        f"<li><a href='/r/2'>Archive</a></li></ul></aside>{FOOTER}</body></html>"
    )
    text = extract(html).text
    assert sum(name in text for name in chapters) >= 6
    assert "Contact" not in text and "Archive" not in text


def test_a_page_whose_main_text_is_one_sentence_is_not_empty():
    sentence = "The office is closed on public holidays and reopens the next working day."
    html = (
        "<html><head><title>Opening hours</title></head><body>"
        f"{NAV}<main><h1>Opening hours</h1><p>{sentence}</p></main>"
        "<aside class='links'><ul><li><a href='/jobs'>Jobs</a></li><li><a href='/press'>"
        f"Press</a></li><li><a href='/faq'>FAQ</a></li></ul></aside>{FOOTER}</body></html>"
    )
    extraction = extract(html)
    assert extraction.reason is None
    assert sentence in extraction.text
