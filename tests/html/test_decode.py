"""Decoding page bytes: the declaration traps of the real web, detection, and binary input."""
# ruff: noqa: RUF001  (texts in other scripts are the fixtures here)

from __future__ import annotations

import codecs
import random

import pytest
from lxml import etree
from scrapy.http import Headers

from corpusbot.html import dom
from corpusbot.html.decode import (
    Decoded,
    decode_html,
    detect_encoding,
    looks_like_html,
    why_not_html,
)

FR = (
    "Le gouvernement a annoncé mercredi qu’il allait considérablement étendre le soutien "
    "aux énergies renouvelables. « C’est une étape décisive », a déclaré le ministre."
)
RU = "Правительство объявило в среду о значительном расширении поддержки энергетики."
JA = "東京都は水曜日、再生可能エネルギーへの支援を大幅に拡大すると発表しました。"
ZH = "政府周三宣布，将大幅扩大对可再生能源的支持力度，以应对气候变化带来的挑战。"


def page(text: str, head: str = "") -> str:
    return f"<html><head>{head}<title>t</title></head><body><p>{text}</p></body></html>"


def ct(charset: str) -> dict[str, str]:
    return {"Content-Type": f"text/html; charset={charset}"}


# Byte order marks

@pytest.mark.parametrize(
    ("bom", "codec", "expected"),
    [
        (codecs.BOM_UTF8, "utf-8", "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16-be"),
    ],
)
def test_bom_wins_over_every_declaration(bom, codec, expected):
    html = page(RU, '<meta charset="windows-1251">')
    decoded = decode_html(bom + html.encode(codec), ct("iso-8859-1"))
    assert decoded == Decoded(html, expected)


def test_str_input_passes_through_without_its_bom():
    assert decode_html("\ufeff<p>é</p>") == Decoded("<p>é</p>", "unicode")


# Declarations, and when the bytes overrule them

def test_header_charset_is_used():
    html = page(RU)
    assert decode_html(html.encode("koi8_r"), ct("KOI8-R")) == Decoded(html, "koi8-r")


def test_meta_charset_and_http_equiv_are_used():
    html = page(JA, '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">')
    assert decode_html(html.encode("shift_jis")) == Decoded(html, "cp932")
    html = page(ZH, '<meta charset="gb2312">')
    assert decode_html(html.encode("gb2312")) == Decoded(html, "gb18030")
    html = page(RU, '<meta http-equiv="content-type" content="text/html; charset=windows-1251">')
    assert decode_html(html.encode("cp1251")) == Decoded(html, "cp1251")


def test_header_wins_over_meta_when_both_fit_the_bytes():
    html = page(RU, '<meta charset="windows-1251">')
    assert decode_html(html.encode("koi8_r"), ct("koi8-r")).text == html


def test_meta_wins_when_the_bytes_contradict_the_header():
    # Header says UTF-8, meta says windows-1251, and the bytes are windows-1251.
    html = page(RU, '<meta charset="windows-1251">')
    assert decode_html(html.encode("cp1251"), ct("utf-8")) == Decoded(html, "cp1251")


def test_utf8_bytes_declared_latin1_are_utf8():
    body = "<p>Caf\u00e9 \u201cna\u00efve\u201d</p>".encode()
    assert body == b"<p>Caf\xc3\xa9 \xe2\x80\x9cna\xc3\xafve\xe2\x80\x9d</p>"
    for headers in (ct("ISO-8859-1"), ct("windows-1252"), ct("us-ascii")):
        assert decode_html(body, headers) == Decoded("<p>Café “naïve”</p>", "utf-8")
    meta = b'<meta charset="iso-8859-1">' + body
    assert decode_html(meta).text.endswith("Café “naïve”</p>")


def test_cp1252_smart_quotes_declared_iso_8859_1():
    body = b"<p>\x93Smart quotes\x94 \x96 it\x92s na\xefve \x80 5</p>"
    assert decode_html(body, ct("iso-8859-1")) == Decoded(
        "<p>“Smart quotes” – it’s naïve € 5</p>", "cp1252"
    )
    assert decode_html(page(FR).encode("cp1252"), ct("iso-8859-1")).text == page(FR)


def test_meta_utf8_on_cp1252_bytes():
    html = page(FR, '<meta charset="utf-8">')
    assert decode_html(html.encode("cp1252")) == Decoded(html, "cp1252")


def test_latin1_header_on_cyrillic_bytes_is_overruled_by_detection():
    html = page(RU)
    assert decode_html(html.encode("cp1251"), ct("ISO-8859-1")) == Decoded(html, "cp1251")


def test_utf8_page_with_a_stray_legacy_byte_stays_utf8():
    body = page(FR).encode() + b"<p>caf\xe9</p>"
    decoded = decode_html(body, ct("iso-8859-1"))
    assert decoded.encoding == "utf-8"
    assert decoded.text == page(FR) + "<p>caf\ufffd</p>"


def test_gbk_page_with_a_few_invalid_sequences_keeps_its_declaration():
    html = page(ZH * 5, '<meta charset="gbk">')
    body = html.encode("gbk").replace(b"</p>", b"\xff\xfe</p>")
    decoded = decode_html(body)
    assert decoded.encoding == "gb18030"
    assert ZH in decoded.text


def test_bogus_charset_names_are_ignored():
    html = page(FR, '<meta charset="x-no-such-thing">')
    assert decode_html(html.encode(), ct("foo-bar")) == Decoded(html, "utf-8")
    assert decode_html(html.encode("cp1252"), ct("utf-7")).text == html


def test_utf16_meta_on_ascii_compatible_bytes_means_utf8():
    html = page(FR, '<meta charset="utf-16">')
    assert decode_html(html.encode()) == Decoded(html, "utf-8")


def test_utf16_header_without_bom():
    html = page(FR)
    assert decode_html(html.encode("utf-16-le"), ct("utf-16")).text == html
    assert decode_html(html.encode("utf-16-be"), ct("utf-16")).text == html


def test_headers_are_case_insensitive_and_may_be_scrapy_headers():
    html = page(RU)
    body = html.encode("koi8_r")
    assert decode_html(body, {"CONTENT-TYPE": "text/html;charset=koi8-r"}).text == html
    assert decode_html(body, Headers({"Content-Type": "text/html; charset=koi8-r"})).text == html
    assert decode_html(body, {b"content-type": [b"text/html; charset=koi8-r"]}).text == html
    assert decode_html(b"<p>x</p>", {"Content-Type": []}).text == "<p>x</p>"


def test_ascii_body_reports_the_declaration():
    assert decode_html(b"<p>plain</p>", ct("koi8-r")) == Decoded("<p>plain</p>", "koi8-r")
    assert decode_html(b"<p>plain</p>") == Decoded("<p>plain</p>", "utf-8")
    assert decode_html(b"") == Decoded("", "utf-8")


# Detection, no declaration at all

SENTENCES = {
    "fr": (FR, "cp1252"),
    "de": ("Die Bundesregierung hat am Mittwoch beschlossen, die Förderung für erneuerbare "
           "Energien deutlich auszuweiten. „Das ist ein großer Schritt“, sagte die Ministerin.",
           "cp1252"),
    "it": ("Il governo ha annunciato mercoledì che amplierà notevolmente il sostegno alle "
           "energie rinnovabili. «È un passo decisivo», ha dichiarato il ministro.", "cp1252"),
    "en": ("The government said on Wednesday it would “significantly” expand support — "
           "including €2bn in grants — for renewable energy, the minister’s office said.",
           "cp1252"),
    "is": ("Ríkisstjórnin tilkynnti á miðvikudag að stuðningur við endurnýjanlega orku yrði "
           "aukinn verulega. Þetta er mikilvægt skref, sagði ráðherrann.", "cp1252"),
    "pl": ("Rząd ogłosił w środę, że znacznie rozszerzy wsparcie dla energii odnawialnej. "
           "„To decydujący krok”, powiedział minister. Źródło: PAP.", "cp1250"),
    "pl-iso": ("Rząd ogłosił w środę, że znacznie rozszerzy wsparcie dla energii "
               "odnawialnej. To decydujący krok, powiedział minister.", "iso8859_2"),
    "hu": ("A kormány szerdán bejelentette, hogy jelentősen bővíti a megújuló "
           "energiaforrások támogatását. Ez döntő lépés, mondta a miniszter.", "cp1250"),
    "tr": ("Hükümet çarşamba günü yenilenebilir enerjiye yönelik desteği önemli ölçüde "
           "genişleteceğini açıkladı. Bakan, bunun belirleyici bir adım olduğunu söyledi.",
           "cp1254"),
    "ru": (RU, "cp1251"),
    "ru-koi8": (RU, "koi8_r"),
    "el": ("Η κυβέρνηση ανακοίνωσε την Τετάρτη ότι θα επεκτείνει σημαντικά τη στήριξη "
           "των ανανεώσιμων πηγών.", "cp1253"),
    "he": ("הממשלה הודיעה ביום רביעי כי תרחיב באופן משמעותי את התמיכה באנרגיה מתחדשת.",
           "cp1255"),
    "ar": ("أعلنت الحكومة يوم الأربعاء أنها ستوسع بشكل كبير الدعم للطاقة المتجددة.", "cp1256"),
    "th": ("รัฐบาลประกาศเมื่อวันพุธว่าจะขยายการสนับสนุนพลังงานหมุนเวียนอย่างมาก", "cp874"),
    "ja": (JA, "shift_jis"),
    "ja-euc": (JA, "euc_jp"),
    "zh": (ZH, "gb2312"),
    "zh-big5": ("中華民國政府週三宣布，將大幅擴大對可再生能源的支持力度。", "big5"),
    "ko": ("정부는 수요일 재생 에너지에 대한 지원을 크게 확대하겠다고 발표했다.", "euc_kr"),
}


@pytest.mark.parametrize("name", sorted(SENTENCES))
@pytest.mark.parametrize("headers", [None, ct("iso-8859-1")], ids=["undeclared", "latin1"])
def test_detects_undeclared_legacy_encodings(name, headers):
    text, codec = SENTENCES[name]
    for html in (f"<p>{text}</p>", page(text)):
        assert decode_html(html.encode(codec), headers).text == html


def test_detect_encoding_names_python_codecs():
    assert detect_encoding(page(RU).encode("cp1251")) == "cp1251"
    assert detect_encoding(page(JA).encode("shift_jis")) == "cp932"


# Never raises

def test_any_bytes_decode_without_raising():
    rng = random.Random(0)
    heads = [b"", b'<meta charset="utf-8">', b'<meta charset="shift_jis">', b"\xff\xfe", b"\x00"]
    for i in range(300):
        body = rng.choice(heads) + rng.randbytes(rng.choice([1, 7, 100, 3000]))
        headers = rng.choice([None, ct("utf-16"), ct("gb2312"), {"content-type": "\x00;;="}])
        decoded = decode_html(body, headers)
        assert isinstance(decoded.text, str), i
        assert codecs.lookup(decoded.encoding)


# Sniffing non-HTML input

@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>", "binary"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00", "binary"),
        (b"GIF89a\x01\x00\x01\x00\x80\x00\x00", "binary"),
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", "binary"),
        (b"PK\x03\x04\x14\x00\x06\x00", "binary"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01", "binary"),
        (bytes(random.Random(1).randbytes(2000)), "binary"),
        (b'  {"title": "<b>not a page</b>"}', "json"),
        (b"[1, 2, 3]", "json"),
        (b"<?xml version='1.0'?>\n<rss version='2.0'><channel>", "feed"),
        (b'<?xml version="1.0"?><!-- x --><urlset xmlns="x">', "feed"),
        (b"<feed xmlns='http://www.w3.org/2005/Atom'>", "feed"),
        (b"Just a plain text file, with no markup at all.", "no-markup"),
        (b"", "empty"),
        (b" \r\n\t ", "empty"),
    ],
)
def test_not_html(data, reason):
    assert why_not_html(data) == reason
    assert not looks_like_html(data)
    assert why_not_html(decode_html(data).text) == reason


@pytest.mark.parametrize(
    "data",
    [
        b"<!DOCTYPE html><html><head><title>x</title></head><body>hi</body></html>",
        b"<p>Just a fragment</p>",
        b"\n\n  <!-- generated --><div>x</div>",
        b'<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">',
        codecs.BOM_UTF16_LE + "<html><body>x</body></html>".encode("utf-16-le"),
        codecs.BOM_UTF8 + b"<html>",
        page(RU).encode("cp1251"),
        page(JA).encode("shift_jis"),
        "<p>str input</p>",
    ],
)
def test_html(data):
    assert why_not_html(data) is None
    assert looks_like_html(data)


def test_valid_utf8_bodies_are_handed_on_as_bytes_and_parse_the_same():
    body = "<p>Café “naïve” \ufffd</p>".encode()
    decoded = decode_html(body, ct("ISO-8859-1"))
    assert decoded.utf8 is body
    assert decode_html(b"<p>caf\xe9 \xc3\xa9</p>").utf8 is None  # one bad byte: re-encoded
    assert decode_html(b"\xef\xbb\xbf<p>x</p>").utf8 is None  # the BOM is not text
    as_bytes, as_text = dom.parse_html(decoded.utf8), dom.parse_html(decoded.text)
    assert etree.tostring(as_bytes) == etree.tostring(as_text)
