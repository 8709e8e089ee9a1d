"""Do corpusbot's quality steps keep and drop what datatrove's filters keep and drop?

    python benchmarks/quality_texts.py -o /tmp/quality-texts.jsonl
    python benchmarks/quality_vs_datatrove.py /tmp/quality-texts.jsonl \
        -o benchmarks/quality-vs-datatrove-results.json

On each text (corpusbot's extraction of a gold page or a sample page) each
filter pair runs with the same thresholds: Gopher quality, Gopher
repetition, C4 (as published and as FineWeb runs it, without the
terminal-punctuation rule) and FineWeb. datatrove runs as FineWeb ran it, with
its English tokeniser (spaCy's, needs ``spacy``; no model download) and
English stop words on every page. On English pages corpusbot counts the same
tokens (``corpusbot.filters.english``, checked here page by page against
datatrove's ``split_into_words``); on other languages a difference is
expected where corpusbot uses the page language's stop words or its own
tokens. The result lists the agreement per filter for English and for other
pages, and every page where the two decide differently, with both reasons.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from corpusbot.filters.c4 import C4, C4Options
from corpusbot.filters.counts import english_words, is_english, tokens_with_punctuation
from corpusbot.filters.fineweb import FineWeb
from corpusbot.filters.gopher_quality import GopherQuality
from corpusbot.filters.gopher_repetition import (
    GopherRepetition,
    GopherRepetitionOptions,
    repeated_ngram_chars,
)
from corpusbot.filters.scripts import TERMINAL_PUNCTUATION, is_unspaced, sentences
from corpusbot.page import Page
from corpusbot.steps import PageState, Step
from corpusbot.text import PARAGRAPH_SEPARATOR


def _datatrove_filters() -> dict[str, Any]:
    from datatrove.pipeline.filters import (
        C4QualityFilter,
        FineWebQualityFilter,
        GopherQualityFilter,
        GopherRepetitionFilter,
    )

    return {
        "gopher_quality": GopherQualityFilter(),
        "gopher_repetition": GopherRepetitionFilter(),
        "c4": C4QualityFilter(),
        "c4_fineweb": C4QualityFilter(filter_no_terminal_punct=False),
        "fineweb": FineWebQualityFilter(),
    }


OURS: dict[str, Callable[[], Step]] = {
    "gopher_quality": GopherQuality,
    "gopher_repetition": GopherRepetition,
    "c4": C4,
    "c4_fineweb": lambda: C4(C4Options(filter_no_terminal_punct=False)),
    "fineweb": FineWeb,
}


def state_of(record: dict) -> PageState:
    """The page state a quality step sees for one extracted text."""
    return PageState(page=Page(url=record.get("url") or "https://example.invalid/", body=b""),
                     paragraphs=record["text"].split(PARAGRAPH_SEPARATOR),
                     lang=record.get("lang") or "und", lang_prob=record.get("lang_prob") or 0.0)


def datatrove_verdict(dt_filter: Any, text: str, key: str) -> str | None:
    """datatrove's reason for dropping ``text``, or None when it keeps it."""
    from datatrove.data import Document

    result = dt_filter.filter(Document(text=text, id=key))
    if result is True:
        return None
    if result is False:
        return "dropped"
    return result[1] if not result[0] else None


def same_tokens(record: dict) -> bool:
    """Whether corpusbot's English tokens of the text are datatrove's, one by one."""
    from datatrove.utils.text import split_into_words

    return english_words(state_of(record)) == split_into_words(record["text"])


def our_verdict(step: Step, record: dict) -> str | None:
    """corpusbot's reason for dropping the text, or None when it keeps it."""
    drop = step.apply(state_of(record))
    return drop.reason if drop else None


def compare(records: Iterable[dict], names: Iterable[str] = tuple(OURS)) -> dict[str, Any]:
    """Agreement per filter (English, other languages) and every disagreement."""
    dt_filters = _datatrove_filters()
    names = list(names)
    steps = {name: OURS[name]() for name in names}
    totals: dict[str, Counter[str]] = {name: Counter() for name in names}
    differences: list[dict[str, Any]] = []
    tokens: Counter[str] = Counter()
    for record in records:
        group = "en" if is_english(record.get("lang") or "") else "other"
        if group == "en":
            tokens["en/pages"] += 1
            tokens["en/same"] += same_tokens(record)
        for name in names:
            theirs = datatrove_verdict(dt_filters[name], record["text"], record["key"])
            ours = our_verdict(steps[name], record)
            same = (theirs is None) == (ours is None)
            totals[name][f"{group}/pages"] += 1
            totals[name][f"{group}/same"] += same
            totals[name][f"{group}/datatrove_drops"] += theirs is not None
            totals[name][f"{group}/corpusbot_drops"] += ours is not None
            if not same:
                difference = {"filter": name, "set": record["set"], "key": record["key"],
                              "lang": record.get("lang"), "datatrove": theirs,
                              "corpusbot": ours}
                difference["cause"] = cause(difference, record)
                differences.append(difference)
    return {"totals": {name: _shares(counts) for name, counts in totals.items()},
            "tokens": dict(tokens),
            "unexplained": sum(d["cause"] is None for d in differences),
            "differences": differences}


NEAR = 0.03
"""How close to its threshold a ratio must be for a tokenisation difference to explain a flip."""


def cause(difference: dict[str, Any], record: dict) -> str | None:
    """Why corpusbot and datatrove decide differently on this page, or None if unexplained."""
    return (_language_cause(difference, record) or _tokens_cause(difference, record)
            or _joined_ngram_cause(difference, record))


def _language_cause(difference: dict[str, Any], record: dict) -> str | None:
    """Differences from what datatrove assumes of every page: English, ASCII punctuation."""
    name, lang, text = difference["filter"], difference.get("lang"), record["text"]
    if (name == "gopher_quality" and difference["datatrove"] == "gopher_enough_stop_words"
            and lang != "en"):
        return (f"stop words: datatrove's English list on a {lang} page, corpusbot the "
                f"{lang} list")
    if name.startswith("c4") and lang != "en" and _non_ascii_line_ends(text):
        return ("terminal punctuation: datatrove's C4 accepts only . ? ! \" ' at a line's end, "
                "corpusbot every script's")
    if is_unspaced(text) and lang != "en":
        return ("script: datatrove's English tokeniser makes one word of a run of Han or kana, "
                "corpusbot one per character")
    return None


def _tokens_cause(difference: dict[str, Any], record: dict) -> str | None:
    """Differences near a threshold on other languages, where spaCy's English tokens and
    corpusbot's own count differently."""
    if is_english(difference.get("lang") or ""):
        return None  # the same tokens: a difference on an English page has no such cause
    reasons = f"{difference['datatrove']} {difference['corpusbot']}"
    if "alpha" in reasons:
        counted, letters = tokens_with_punctuation(state_of(record))
        ratio = letters / max(counted, 1)
        if abs(ratio - 0.8) <= NEAR:
            return (f"tokens: alphabetic-word ratio {ratio:.3f}, within {NEAR} of 0.8, where "
                    "spaCy's and corpusbot's token counts differ by about 1 %")
    if "avg" in reasons or "short-words" in reasons or "long-words" in reasons:
        words = state_of(record).words()
        mean = sum(map(len, words)) / max(len(words), 1)
        return (f"tokens: mean word length {mean:.2f}; spaCy keeps some hyphenated words and "
                "URLs whole that corpusbot splits")
    if "gram" in reasons:
        return _ngram_cause(record)
    if "sentences" in reasons:
        count = sum(sentences(line) for line in record["text"].splitlines() if line.strip())
        if abs(count - 5) <= 3:
            return (f"sentences: {count} counted, near the minimum of 5, where spaCy's "
                    "sentenciser splits abbreviations and numbers differently")
    return None


_NON_ASCII_ENDS = frozenset(TERMINAL_PUNCTUATION) - set(".?!")


def _non_ascii_line_ends(text: str) -> bool:
    return any(line.rstrip()[-1:] in _NON_ASCII_ENDS for line in text.splitlines()
               if line.strip())


def _joined_ngram_cause(difference: dict[str, Any], record: dict) -> str | None:
    """datatrove compares a duplicated n-gram's words run together ("no where" repeats "now
    here"), corpusbot the words themselves."""
    if "gram" not in f"{difference['datatrove']} {difference['corpusbot']}":
        return None
    from datatrove.pipeline.filters.gopher_repetition_filter import find_all_duplicate

    words = english_words(state_of(record))
    for n in range(5, 11):
        joined, apart = find_all_duplicate(words, n), repeated_ngram_chars(words, n)
        if joined != apart:
            return (f"n-grams: datatrove compares the words of a {n}-gram run together "
                    f"({joined} repeated characters), corpusbot the words ({apart})")
    return None


def _ngram_cause(record: dict) -> str:
    """The n-gram cause, with how near corpusbot's nearest duplicated n-gram fraction is."""
    state = state_of(record)
    words, size, options = state.words(), max(len(state.text), 1), GopherRepetitionOptions()
    gaps = {n: abs(repeated_ngram_chars(words, n) / size - getattr(options, f"dup_{n}_gram_frac"))
            for n in range(5, 11)}
    n = min(gaps, key=gaps.__getitem__)
    return ("n-grams: corpusbot's are of case-folded words without punctuation, datatrove's of "
            f"spaCy tokens with it; the nearest, the {n}-gram fraction, is {gaps[n]:.3f} from "
            "its threshold")


def _shares(counts: Counter[str]) -> dict[str, Any]:
    out: dict[str, Any] = dict(counts)
    for group in ("en", "other"):
        if counts[f"{group}/pages"]:
            out[f"{group}/agreement"] = round(counts[f"{group}/same"] / counts[f"{group}/pages"], 4)
    return out


def recause(result: dict[str, Any], records: Iterable[dict]) -> dict[str, Any]:
    """``result`` with every difference's cause worked out again (after a new cause rule)."""
    by_key = {(r["set"], r["key"]): r for r in records}
    for difference in result["differences"]:
        difference["cause"] = cause(difference, by_key[(difference["set"], difference["key"])])
    result["unexplained"] = sum(d["cause"] is None for d in result["differences"])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("texts", type=Path, help="a JSONL file from benchmarks/quality_texts.py")
    parser.add_argument("-o", "--output", type=Path)
    parser.add_argument("--recause", action="store_true",
                        help="only work out the causes again in the existing --output")
    args = parser.parse_args(argv)
    with args.texts.open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    if args.recause:
        result = recause(json.loads(args.output.read_text()), records)
    else:
        result = compare(records)
    if result.get("tokens"):
        print(f"tokens: {result['tokens']['en/same']} of {result['tokens']['en/pages']} English "
              "pages cut exactly as datatrove's split_into_words")
    for name, counts in result["totals"].items():
        print(f"{name:18} en {counts.get('en/same', 0)}/{counts.get('en/pages', 0)} "
              f"({counts.get('en/agreement', 0):.2%})  other {counts.get('other/same', 0)}/"
              f"{counts.get('other/pages', 0)} ({counts.get('other/agreement', 0):.2%})")
    print(f"{len(result['differences'])} differences, {result['unexplained']} unexplained")
    for difference in result["differences"]:
        if difference["cause"] is None:
            print("unexplained:", difference)
    if args.output:
        args.output.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
