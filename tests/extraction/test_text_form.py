"""The characters of ``default``'s text: one spelling per letter (Unicode NFC)."""

from __future__ import annotations

import unicodedata

from corpusbot import extract
from corpusbot.extraction.core import compose_characters

# A Bengali news sentence as a page wrote it: RRA as the decomposed pair
# U+09A1 U+09BC in one word ("সাড়ে"), as the single code point U+09DC in the next.
BENGALI = (
    "আজ শনিবার সকাল সা\u09a1\u09bcে সাতটার দিকে দৌলতপুর উপজেলার ফিলিপনগর গ্রামে এ ঘটনা ঘটে। "
    "হামলাকারী মুজিবুর রহমানকে আটক করেছে পুলিশ, নিহতের স্বজনরা জানান তিনি বা\u09dcি ফিরছিলেন। "
)


def bengali_page() -> str:
    body = "".join(f"<p>{BENGALI * 3}</p>" for _ in range(4))
    return (
        "<html lang='bn'><head><title>খবর</title></head><body><nav><a href='/'>প্রচ্ছদ</a>"
        f"</nav><article>{body}</article></body></html>"
    )


def test_default_gives_its_text_in_nfc():
    text = extract(bengali_page()).text
    assert text and unicodedata.is_normalized("NFC", text)
    assert "\u09dc" not in text and "বা\u09a1\u09bcি" in text


def test_the_published_algorithms_keep_the_pages_characters():
    assert "\u09dc" in extract(bengali_page(), mode="justext").text


def test_composing_leaves_nfc_text_as_it_is():
    latin = "Cafe\u0301 and cafés"
    assert compose_characters(latin) == "Café and cafés"
    assert compose_characters("already composed") == "already composed"
