"""An element named "dialog" is an overlay, as one named "modal" or "popup" is."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_containers import verdicts
from tests.extraction.test_default_mode import page

DESCRIPTION = [
    "Enjoy robust performance on this mobile workstation, driven by a processor built for "
    "long renders and large models, with graphics certified for the tools architects use.",
    "It boasts plentiful ports, swift memory and superior connectivity, so a project moves "
    "from the office to a client's site without a dock, a dongle or a second machine.",
    "A display of up to 4K with accurate colour shows every detail of a drawing, and the "
    "redesigned keyboard and larger touchpad make a long day at the desk easier on hands.",
]

# A shop's cart-merge prompt, written once per store into the page and shown by a script:
# divs named "dialog" all the way down, without ARIA's dialog role.
STORES = ("Pro Store", "Education Store", "Affinity Store")


def merge_cart_dialog(store: str) -> str:
    return (f"<div class='dialog_container'><div class='dialog'><div class='dialog_body'>"
            f"<div class='dialog_title'>Add items to your cart in the {store}?</div>"
            f"<div class='dialog_description'>We have noticed that you have entered a "
            f"different store. Do you want to add these items to your cart in the {store}, "
            f"or keep them in the cart of the store you came from?</div></div></div></div>")


def test_a_cart_dialog_without_its_role_is_left_out():
    body = ("<main><h1>Mobile Workstation 16</h1>"
            + "".join(f"<p>{p}</p>" for p in DESCRIPTION) + "</main>"
            + "<div class='merge-cart'>" + "".join(map(merge_cart_dialog, STORES)) + "</div>")
    text = extract(page(body, title="Mobile Workstation 16")).text
    assert "superior connectivity" in text
    assert "entered a different store" not in text


def test_dialogue_is_no_dialog():
    body = ("<div class='dialog-overlay'><p>prompt</p></div>"
            "<div class='dialogue'><p>transcript</p></div>")
    assert verdicts(body) == {"prompt": True, "transcript": False}
