"""The charset matrix: real text in the encodings its script uses, under declared labels
that are right, missing, the servers' default, UTF-8, or wrong within the script family.

Used by ``tests/html/test_charset_matrix.py`` and ``benchmarks/charsets.py``. The
text comes from the gold pages of ``../shared/bench`` (Cyrillic, Chinese, Korean,
Arabic pages, and Latin-script pages in the languages whose letters their snippets
hold); scripts the gold sets lack (Japanese, Greek, Hebrew, Thai) use the sentences of
``tests/html/test_decode.py``. A case is right when the decoded page holds the text
exactly.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from lxml import html as lxml_html

BENCH = Path(os.environ.get("CORPUSBOT_BENCH",
                           Path(__file__).resolve().parents[3] / "shared" / "bench"))
"""The gold sets (as ``tests.conftest.bench_dir``); absent on a plain clone."""
TEXT_CHARS = 600
"""Characters of text per case: a few paragraphs, what a short page holds."""

# (name, gold page, script test) for the pages whose text is taken.
PAGES = (
    ("ru", "multilingual-dev/html/4da19907803a10c1.html.gz", r"[\u0430-\u044f\u0451]"),
    ("zh", "multilingual-dev/html/1af1b50783a7d5a4.html.gz", r"[\u4e00-\u9fff]"),
    ("ar", "multilingual-dev/html/ae51e8d9f46083f0.html.gz", r"[\u0600-\u06ff]"),
)
KOREAN = r"[\uac00-\ud7a3]"
LATIN = {"de": "[äöüß]", "fr": "[éèçàê]", "es": "[ñáíó]", "pl": "[ąęłńśźż]", "cs": "[ěřůčž]",
         "tr": "[ğışç]"}

# The encodings each text is written in, and the wrong labels of its own family that
# servers and editors give it.
ENCODINGS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "ru": (("cp1251", ("koi8-r", "iso-8859-5")), ("koi8_r", ("windows-1251",)),
           ("iso8859_5", ()), ("cp866", ())),
    "zh": (("gb18030", ("big5", "shift_jis")), ("gbk", ("big5",))),
    "ko": (("euc_kr", ("shift_jis",)),),
    "ar": (("cp1256", ("iso-8859-6",)),),
    "ja": (("shift_jis", ("euc-jp",)), ("euc_jp", ("shift_jis",))),
    "el": (("cp1253", ()),),
    "he": (("cp1255", ()),),
    "th": (("cp874", ()),),
    "de": (("cp1252", ()),), "fr": (("cp1252", ()),), "es": (("cp1252", ()),),
    "pl": (("cp1250", ("iso-8859-2",)), ("iso8859_2", ("windows-1250",))),
    "cs": (("cp1250", ()),), "tr": (("cp1254", ("iso-8859-9",)),),
}


@dataclass(frozen=True)
class Case:
    """One page: its text, the encoding of its bytes, and the label it declares."""

    lang: str
    text: str
    codec: str
    label: str | None
    kind: str  # right, none, latin1, utf-8, family

    @property
    def name(self) -> str:
        return f"{self.lang}/{self.codec}/{self.kind}:{self.label or '-'}"

    def body(self) -> bytes:
        meta = f'<meta charset="{self.label}">' if self.label else ""
        page = (f"<!DOCTYPE html><html><head>{meta}<title>t</title></head><body>"
                f"<p>{self.text}</p></body></html>")
        return page.encode(self.codec)


def cases(sentences: dict[str, str]) -> list[Case]:
    """Every case, the texts taken from the gold pages plus ``sentences`` (lang -> text)."""
    texts = {**gold_texts(), **sentences}
    made = []
    for lang, encodings in ENCODINGS.items():
        if lang not in texts:
            continue
        for codec, family in encodings:
            text = _encodable(texts[lang], codec)
            made += [Case(lang, text, codec, label, kind) for kind, label in
                     _labels(codec, family)]
    return made


def _labels(codec: str, family: tuple[str, ...]) -> list[tuple[str, str | None]]:
    right = codec.replace("_", "-")
    labels = [("right", right), ("none", None), ("latin1", "iso-8859-1")]
    if codec != "cp1252":
        labels.append(("utf-8", "utf-8"))
    return labels + [("family", label) for label in family]


def gold_texts() -> dict[str, str]:
    """Text of the script each gold page is written in, and Latin snippets per language;
    none without the gold sets (a plain clone: the decoding tests' sentences remain)."""
    texts: dict[str, str] = {}
    if not all((BENCH / name).is_dir() for name in ("scrapinghub", "multilingual-dev")):
        return texts
    for lang, path, script in PAGES:
        texts[lang] = _page_text((BENCH / path).read_bytes(), script)
    truth = json.loads((BENCH / "scrapinghub" / "ground-truth.json").read_text())
    korean = [v["articleBody"] for v in truth.values() if re.search(KOREAN, v["articleBody"])]
    if korean:
        texts["ko"] = _window(max(korean, key=len), KOREAN)
    snippets = json.loads((BENCH / "multilingual-dev" / "snippets.json").read_text())
    for lang, letters in LATIN.items():
        # the page whose snippets hold the most letters of the language; its paragraphs
        found = [v for v in snippets.values() if len(re.findall(letters, " ".join(v["with"])))
                 >= 3]
        if found:
            best = max(found, key=lambda v: len(re.findall(letters, " ".join(v["with"]))))
            data = (BENCH / "multilingual-dev" / "html" / best["file"]).read_bytes()
            texts[lang] = _page_text(data, letters)
    return texts


def _page_text(data: bytes, script: str) -> str:
    tree = lxml_html.fromstring(gzip.decompress(data).decode("utf-8", "replace"))
    paragraphs = [" ".join(p.text_content().split()) for p in tree.iter("p")]
    return _window(" ".join(p for p in paragraphs if re.search(script, p)), script)


def _window(text: str, script: str) -> str:
    """``TEXT_CHARS`` of ``text`` from its first character of ``script``."""
    text = " ".join(text.split())
    start = re.search(script, text)
    return text[start.start() if start else 0:][:TEXT_CHARS]


def _encodable(text: str, codec: str) -> str:
    """``text`` without the characters ``codec`` cannot write (and HTML's own)."""
    kept = "".join(ch for ch in text if _writes(ch, codec))
    return re.sub(r"[<>&]", " ", kept)


def _writes(ch: str, codec: str) -> bool:
    try:
        ch.encode(codec)
    except UnicodeEncodeError:
        return False
    return True
