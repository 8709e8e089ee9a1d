"""The Processor: one real page in, a Document or a Rejection with its reason out."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from corpusbot.document import SCHEMA_VERSION, Document, Rejection
from corpusbot.filters import basic as filters
from corpusbot.filters.basic import _nonletter_ratio_by_regex, nonletter_ratio
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.fingerprints.url import url_key
from corpusbot.page import Page
from corpusbot.processor import Processor, ProcessorOptions
from corpusbot.steps import Drop, PageState, Step
from corpusbot.text import tokens
from tests.corpus_support import page

SCHEMA_FIELDS = {"schema", "id", "url", "lang", "lang_prob", "lang_source", "title", "text",
                 "n_words", "extractor", "source", "fetched_at", "content_hash"}


def make_page(name: str = "en-anarcat", url: str = "https://example.org/a?b=1&a=2",
              **fields: object) -> Page:
    return Page(url=url, body=page(name), headers={"Content-Type": "text/html"},
                fetched_at="2024-01-15T12:00:00Z", source="crawl.warc.gz",
                record_id="<urn:uuid:1>", offset=1234, **fields)  # type: ignore[arg-type]


def neutral(**overrides: object) -> ProcessorOptions:
    """Options with every filter switched off but the ones a test names."""
    values: dict[str, object] = {"length.min_words": 0, "nonletters.max_ratio": 1.0}
    values.update(overrides)
    return ProcessorOptions(overrides=values)


def test_a_real_page_becomes_a_document_with_every_schema_field() -> None:
    doc = Processor().process(make_page())
    assert isinstance(doc, Document)
    assert doc.lang == "en" and doc.lang_prob > 0.9 and doc.n_words > 100
    assert doc.lang_source == "declared+stopwords"
    assert doc.title == "CDPATH replacements"
    record = doc.to_record()
    assert set(record) == SCHEMA_FIELDS | {"meta"} and record["schema"] == SCHEMA_VERSION
    assert record["source"] == {"type": "archive", "file": "crawl.warc.gz",
                                "record_id": "<urn:uuid:1>", "offset": 1234}
    assert record["extractor"] == "default" and len(record["content_hash"]) == 16
    assert doc.url_key == url_key("https://example.org/a?a=2&b=1#top")


def test_the_features_dedup_needs_are_computed() -> None:
    options = ProcessorOptions(dedup=DedupOptions(levels=frozenset({"near", "paragraph"})))
    doc = Processor(options).process(make_page("en-supermarket"))
    assert isinstance(doc, Document)
    assert len(np.frombuffer(doc.signature, dtype=np.uint32)) == options.dedup.num_perm
    assert len(doc.paragraph_hashes) == len(doc.text.split("\n\n"))
    assert any(doc.paragraph_hashes)


def test_ids_and_hashes_repeat_across_processes_and_pickling() -> None:
    processor = Processor()
    first = processor.process(make_page())
    again = pickle.loads(pickle.dumps(processor)).process(make_page())
    assert isinstance(first, Document) and isinstance(again, Document)
    assert (first.id, first.content_hash, first.signature) == (
        again.id, again.content_hash, again.signature)


def test_crawl_pages_have_a_crawl_source() -> None:
    crawled = Page(url="https://example.org/x", body=page("en-anarcat"))
    doc = Processor().process(crawled)
    assert isinstance(doc, Document) and doc.to_record()["source"] == {"type": "crawl"}


def test_language_filter() -> None:
    only_german = Processor(neutral(**{"language.allowed": "de"}))
    assert rejection(only_german, make_page("en-anarcat")) == filters.LANGUAGE
    assert isinstance(only_german.process(make_page("de-feuerwehr")), Document)


def test_minimum_words_filter() -> None:
    doc = Processor(neutral()).process(make_page())
    assert isinstance(doc, Document)
    longer = Processor(neutral(**{"length.min_words": doc.n_words + 1}))
    assert rejection(longer, make_page()) == filters.TOO_SHORT
    exact = Processor(neutral(**{"length.min_words": doc.n_words}))
    assert isinstance(exact.process(make_page()), Document)


def test_non_letter_filter() -> None:
    # Prose holds a few per cent of digits and punctuation; a threshold below that drops it.
    strict = Processor(neutral(**{"nonletters.max_ratio": 0.01}))
    assert rejection(strict, make_page("en-anarcat")) == filters.NON_LETTERS
    loose = Processor(neutral(**{"nonletters.max_ratio": 0.3}))
    assert isinstance(loose.process(make_page()), Document)


def test_nonletter_ratio_counts_digits_and_symbols() -> None:
    assert nonletter_ratio("abcd") == 0.0
    assert nonletter_ratio("ab 12 ?!") == pytest.approx(4 / 6)
    assert nonletter_ratio("Äpfel, 北京.") == pytest.approx(2 / 9)
    # Vowel signs are combining marks, not punctuation: Hindi and Bengali are all letters.
    assert nonletter_ratio("हिन्दी भाषा, কুষ্টিয়া") == pytest.approx(1 / 20)
    # Outside the table's plane (emoji, rare scripts) the regex decides.
    assert nonletter_ratio("ok 😀 \U00020000") == pytest.approx(1 / 4)
    assert nonletter_ratio(" \t\x1c\u3000") == 1.0  # nothing visible


def test_nonletter_table_agrees_with_the_definition_on_every_character() -> None:
    for code in range(0x10000):
        text = f"a{chr(code)} b"
        assert nonletter_ratio(text) == _nonletter_ratio_by_regex(text), hex(code)


def test_tokens_keep_words_whole_in_every_script() -> None:
    assert tokens("Hello, wörld! naïve 3.5") == ["hello", "wörld", "naïve", "3", "5"]
    assert tokens("हिन्दी भाषा") == ["हिन्दी", "भाषा"]
    assert tokens("北京欢迎你") == ["北", "京", "欢", "迎", "你"]


@pytest.mark.parametrize(("body", "reason"), [
    (b"", "extract/empty-input"),
    (b"\x89PNG\r\n\x1a\n" + bytes(300), "extract/not-html"),
    (b"<html><body><nav><a href='/'>Home</a></nav></body></html>", "extract/no-main-text"),
])
def test_pages_without_main_text_are_rejected_with_the_extractor_reason(
        body: bytes, reason: str) -> None:
    assert rejection(Processor(), Page(url="https://example.org/e", body=body)) == reason


class Broken(Step):
    name = "broken"

    def apply(self, state: PageState) -> Drop | None:
        raise RuntimeError("boom")


def test_no_exception_escapes() -> None:
    processor = Processor()
    processor.steps.insert(1, Broken())
    result = processor.process(make_page())
    assert isinstance(result, Rejection) and result.reason == "process/crash"
    assert result.detail == "RuntimeError: boom" and result.offset == 1234


def rejection(processor: Processor, item: Page) -> str | None:
    result = processor.process(item)
    return result.reason if isinstance(result, Rejection) else None
