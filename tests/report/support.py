"""A small real corpus for the report tests, written through the corpus sink."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from corpusbot.corpus.sink import Corpus, CorpusOptions
from corpusbot.document import Rejection
from tests.corpus_support import make_doc

HOSTILE_TITLE = '<script>console.error("not escaped")</script>'


def build_corpus(folder: Path, per_language: int = 8, compression: str = "gzip") -> Path:
    """English, German and French documents of varied lengths on a few domains, one
    title made of markup, one rejection per reason and one exact duplicate."""
    with Corpus(folder, CorpusOptions(compression=compression)) as corpus:
        for number in range(per_language * 3):
            lang = ("en", "de", "fr")[number % 3]
            doc = make_doc(number, lang, words=60 + 40 * (number % 7))
            doc = replace(doc, url=f"https://site{number % 4}.example/{lang}/{number}",
                          title=HOSTILE_TITLE if number == 0 else doc.title)
            assert corpus.add(doc)
        corpus.add(Rejection(url="https://site1.example/short", reason="filter/too-short"))
        corpus.add(Rejection(url="https://site1.example/slow", reason="process/timeout"))
        again = make_doc(1, "de", words=100)
        corpus.add(replace(again, url="https://site9.example/copy", url_key=12345))
    return folder
