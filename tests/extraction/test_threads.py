"""A thread's replies in containers named as comments, against an article's comment section."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_default_mode import page

OPENING = (
    "My allotment's tomatoes split every August after the first heavy rain, even though "
    "I water them every evening and the soil is rich with compost from last autumn.",
    "Is it the watering, the variety or the weather? I grow two old varieties from seed "
    "and the cherry ones split as badly as the big ones, so I am out of ideas here.",
)
REPLIES = (
    "Splitting comes from uneven water: a dry spell and then a soaking makes the fruit "
    "swell faster than its skin can stretch. Mulch the bed so the soil stays evenly moist.",
    "Same problem here until I stopped watering in the evening and watered deeply twice "
    "a week in the morning instead. The split fruit dropped from half to almost none.",
    "Pick them when they start to colour and let them ripen on the windowsill. Once the "
    "rain is forecast there is nothing else you can do for the ripe fruit on the plant.",
    "Some varieties have thicker skins and split less; ask at the seed swap in spring, "
    "people there keep notes on which of their tomatoes stood up to a wet summer best.",
)
ARTICLE = (
    "The town's allotment society opened its waiting list again this week after three "
    "years in which no new plots were let, because the council has added forty plots.",
    "The new plots lie on the old bowling green behind the library, where the soil was "
    "tested over the winter and found clean enough for fruit and vegetables to be grown.",
    "Applicants are asked to give their address and whether they have grown food before; "
    "the society says beginners are welcome and will be paired with a neighbour to help.",
    "The rent is twenty pounds a year for a half plot, with water from the mains taps at "
    "each end of the site included, and tools can be borrowed from the shed by the gate.",
    "The society expects the list to fill within a month and advises anyone interested "
    "to apply early, since the plots will be let in the order in which applications came.",
)


def posts(texts: tuple[str, ...], kind: str) -> str:
    return "".join(f"<div class='{kind}'><p>{text}</p></div>" for text in texts)


def comments(texts: tuple[str, ...], kind: str) -> str:
    return "<div class='comments'><h2>Replies</h2>" + "".join(
        f"<div class='comment'><span class='author'>gardener{i}</span>{posts((t,), kind)}</div>"
        for i, t in enumerate(texts)) + "</div>"


def test_a_threads_replies_in_comment_containers_are_kept():
    # the opening post and the replies share one template for their text (div.message)
    html = page("<div class='thread'><h1>Tomatoes splitting</h1><div class='opening'>"
                f"{posts(OPENING, 'message')}</div>{comments(REPLIES, 'message')}</div>",
                title="Tomatoes splitting")
    text = extract(html).text
    assert all(reply[:40] in text for reply in REPLIES)
    assert OPENING[0][:40] in text and "gardener" not in text


def test_an_articles_comments_of_their_own_template_stay_out():
    # even when the comments outweigh the article, their text sits in another kind of element
    html = page("<article><h1>Allotment plots</h1><div class='entry-content'>"
                f"{posts(ARTICLE[:2], 'para')}</div></article>{comments(REPLIES, 'comment-text')}",
                title="Allotment plots")
    text = extract(html).text
    assert ARTICLE[0][:40] in text
    assert not any(reply[:40] in text for reply in REPLIES)


def test_comments_in_the_articles_template_stay_out_below_a_longer_article():
    # a theme that renders comments with the article's own element: the article outweighs them
    html = page("<article><h1>Allotment plots</h1><div class='entry'>"
                f"{posts(ARTICLE, 'para')}</div></article>{comments(REPLIES[:2], 'para')}",
                title="Allotment plots")
    text = extract(html).text
    assert ARTICLE[-1][:40] in text
    assert not any(reply[:40] in text for reply in REPLIES)
