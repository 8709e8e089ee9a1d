"""A cookie banner or a consent manager's preference centre is never a page's text, and its
prose does not count when the holders of the text are weighed
(``containers.outside_consent_notices``)."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from corpusbot import extract
from corpusbot.extraction.default.containers import ContainerNames, in_consent_notice
from tests.extraction.test_default_mode import page

POSTS = (
    "I bought the new case last week and found two small brackets that the manual never "
    "mentions: one on the outside below the power supply and one on the bottom panel where "
    "the intake fans go. Does anyone know what they are for?",
    "I have heard from one of the moderators that the rear one holds an external connector "
    "for the lighting hub, so the cable can leave the case without an open slot. Not sure "
    "about the one on the bottom next to the fans, though.",
)
CENTRE = " ".join([
    "When you visit any website, it may store or retrieve information on your browser, mostly "
    "in the form of cookies. This information might be about you, your preferences or your "
    "device and is mostly used to make the site work as you expect it to.",
    "These technologies are necessary for the website to function and cannot be switched off. "
    "They are set in response to actions you take, such as setting your privacy preferences, "
    "logging in or filling in forms, and you can set your browser to block them.",
    "These technologies help us understand how visitors use the site, which pages they visit "
    "before ours and how often they come back, so that we can measure and improve how the "
    "site performs; if you do not allow them we will not know when you visited.",
])


def thread(consent_names: str) -> str:
    """A thread whose posts sit in containers named "comment", and a preference centre
    (named ``consent_names``) with more prose than all the posts."""
    posts = "".join(
        f"<article class='ipsComment'><div class='ipsComment_meta'>Posted March 19</div>"
        f"<div class='cPost_contentWrap'><p>{text}</p></div></article>" for text in POSTS)
    centre = "".join(f"<p>{sentence}.</p>" for sentence in CENTRE.split(". "))
    return page(
        f"<div class='topic'><h1>Brackets in the new case</h1>{posts}</div>"
        f"<div class='{consent_names}'><div class='ot-pc-content'><h2>Privacy Preference "
        f"Center</h2>{centre}</div></div>", title="Brackets in the new case")


@pytest.mark.parametrize("consent_names", [
    "onetrust-consent-sdk", "cookie-banner", "gdpr-notice", "cc-window cc-banner", "cmpbox"])
def test_a_thread_beside_a_larger_preference_centre_keeps_its_posts(consent_names):
    text = extract(thread(consent_names)).text
    assert POSTS[0] in text and POSTS[1] in text
    assert "cookies" not in text and "Privacy Preference" not in text


def test_a_vendors_banner_with_a_content_name_stays_out_of_an_article():
    paragraph = ("The council voted on Tuesday to reopen the old bridge in spring, after two "
                 "years of repairs to its piers and a new deck that carries cyclists apart from "
                 "the traffic, at a cost well under the first estimate.")
    banner = ("<div id='iubenda-cs-banner'><div class='iubenda-cs-content'><p>We and selected "
              "third parties use cookies or similar technologies for technical purposes and, "
              "with your consent, for other purposes as specified in the cookie policy, and "
              "denying consent may make related features unavailable.</p></div></div>")
    text = extract(page(f"<article><h1>Bridge to open in spring</h1><p>{paragraph}</p>"
                        f"<p>{paragraph}</p></article>{banner}")).text
    assert paragraph in text and "cookies" not in text


def test_a_cookie_policy_page_keeps_its_policy():
    policy = ("This policy explains which cookies this site sets, what each of them stores, "
              "how long it keeps it and how you can refuse or delete them in your browser, "
              "and which of them the site needs to work at all.")
    text = extract(page(f"<div class='cookie-policy-content'><h1>Cookie policy</h1><p>{policy}"
                        f"</p><p>{policy}</p></div>", title="Cookie policy")).text
    assert policy in text


def test_a_consent_notice_inside_another_named_container_is_one():
    root = lxml_html.fromstring(
        "<html><body><div class='modal'><div class='cookie-consent'><p id='in'>We use cookies."
        "</p></div></div><div class='modal'><p id='out'>Sign up for our newsletter.</p></div>"
        "<p id='free'>Text.</p></body></html>")
    names = ContainerNames()
    assert in_consent_notice(root.get_element_by_id("in"), names)
    assert not in_consent_notice(root.get_element_by_id("out"), names)
    assert not in_consent_notice(root.get_element_by_id("free"), names)
