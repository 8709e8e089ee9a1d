"""Gopher's repetition rules: one test per threshold, every other rule switched off."""

from __future__ import annotations

import random
import re
from collections import Counter

import numpy as np
import pytest

from corpusbot.filters.gopher_repetition import (
    GopherRepetition,
    GopherRepetitionOptions,
    NGrams,
    repeated_ngram_chars,
    split_lines,
    split_paragraphs,
)
from tests.filters.support import neutral, reason

WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split()


def step(**options: object) -> GopherRepetition:
    return GopherRepetition(neutral(GopherRepetitionOptions, **options))


def distinct(n: int, start: int = 0) -> str:
    """``n`` words none of which repeats another."""
    return " ".join(f"{WORDS[(start + i) % len(WORDS)]}{(start + i) // len(WORDS)}"
                    for i in range(n))


@pytest.mark.parametrize(("options", "dropped", "kept", "rule"), [
    ({"dup_para_frac": 0.3}, "same\n\nsame\n\nother", "same\n\nsame\n\nother\n\nmore",
     "dup-para-frac"),
    ({"dup_para_char_frac": 0.2}, "long repeated paragraph\n\nlong repeated paragraph\n\nx",
     "long repeated paragraph\n\nlong repeated paragraph\n\n" + distinct(20),
     "dup-para-char-frac"),
    ({"dup_line_frac": 0.3}, "same\nsame\nother", "same\nsame\nother\nmore", "dup-line-frac"),
    ({"dup_line_char_frac": 0.2}, "repeated line\nrepeated line\nx",
     "repeated line\nrepeated line\n" + distinct(20), "dup-line-char-frac"),
    ({"top_2_gram_frac": 0.2}, "ab cd ab cd ab cd " + distinct(6), "ab cd " + distinct(10),
     "top-2-gram"),
    ({"top_3_gram_frac": 0.18}, "a b c a b c a b c " + distinct(6), "a b c " + distinct(10),
     "top-3-gram"),
    ({"top_4_gram_frac": 0.16}, "a b c d " * 3 + distinct(6), "a b c d " + distinct(10),
     "top-4-gram"),
    ({"dup_5_gram_frac": 0.15}, distinct(5) + " " + distinct(5) + " " + distinct(8, 5),
     distinct(5) + " " + distinct(5) + " " + distinct(60, 5), "dup-5-gram"),
    ({"dup_10_gram_frac": 0.1}, distinct(10) + " " + distinct(10) + " " + distinct(8, 10),
     distinct(10) + " " + distinct(10) + " " + distinct(200, 10), "dup-10-gram"),
])
def test_each_rule_drops_past_its_threshold_only(options, dropped, kept, rule):
    repetition = step(**options)
    assert reason(repetition, dropped) == f"filter/gopher_repetition/{rule}"
    assert reason(repetition, kept) is None


def test_a_repeated_ngram_is_counted_once_and_skipped_past():
    # "a b" then "a b" again: the second is a repeat of 2 characters; the scan then skips it.
    assert repeated_ngram_chars("a b a b".split(), 2) == 2
    assert repeated_ngram_chars("a b c".split(), 2) == 0


def test_the_published_values_are_the_defaults():
    o = GopherRepetitionOptions()
    assert (o.dup_line_frac, o.dup_para_frac, o.dup_line_char_frac, o.dup_para_char_frac) == (
        0.3, 0.3, 0.2, 0.2)
    assert (o.top_2_gram_frac, o.top_3_gram_frac, o.top_4_gram_frac) == (0.2, 0.18, 0.16)
    assert (o.dup_5_gram_frac, o.dup_10_gram_frac) == (0.15, 0.10)


def test_a_bad_value_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^gopher_repetition\.dup_line_frac must be a ratio"):
        GopherRepetitionOptions(dup_line_frac=2)


def test_paragraphs_and_lines_are_split_as_the_regular_expressions_split_them():
    # The splits without a regular expression must give the same pieces, empty ones included,
    # on any mixture of breaks, blank lines and spaces at either end.
    rng = random.Random(7)
    texts = ["", "\n", "\n\n\n", " a \n", "a\n\n\nb", "\na\n\nb\n"] + [
        "".join(rng.choice("ab \n\n\t") for _ in range(rng.randint(0, 12))) for _ in range(5000)]
    for text in texts:
        assert split_paragraphs(text) == re.split(r"\n{2,}", text.strip()), repr(text)
        assert split_lines(text) == re.split(r"\n+", text), repr(text)


def top_chars(words: list[str], n: int) -> int:
    """The definition: the most frequent n-gram (the first seen among equals) written with
    spaces, times its count."""
    grams = Counter(zip(*(words[k:] for k in range(n)), strict=False))
    if not grams:
        return 0
    gram, count = grams.most_common(1)[0]
    return len(" ".join(gram)) * count


def random_pages(count: int) -> list[list[str]]:
    """Word lists with much repetition: a small vocabulary, runs copied from earlier ones."""
    rng = random.Random(11)
    vocabulary = ["a", "bb", "ccc", "dddd", "e", "ff", "ggggggg"]
    pages = []
    for _ in range(count):
        words: list[str] = []
        for _ in range(rng.randint(0, 120)):
            if words and rng.random() < 0.3:
                start = rng.randrange(len(words))
                words += words[start:start + rng.randint(1, 12)]
            else:
                words.append(rng.choice(vocabulary))
        pages.append(words)
    return pages


def test_the_hashed_counts_are_the_definitions_and_the_bounds_bound_them():
    for words in random_pages(400):
        grams = NGrams(words)
        for n in (2, 3, 4):
            assert grams.top_chars_bound(n) >= top_chars(words, n)
            assert grams.top_chars(n) == top_chars(words, n), (words, n)
        for n in range(5, 11):
            exact = repeated_ngram_chars(words, n)
            assert grams.repeated_chars(n) == exact, (words, n)
            assert grams.repeated_chars_bound(n) >= exact


class _Colliding(NGrams):
    # Every n-gram gets the same hash: the scan must still count only true repeats.
    __slots__ = ()
    _MULTIPLIERS = np.zeros(10, np.uint64)


def test_the_scan_over_hashes_falls_back_to_the_words_where_two_hashes_collide():
    words = "one two three four five six seven one two three four five six seven".split()
    assert _Colliding(words).repeated_chars(5) == repeated_ngram_chars(words, 5) == 19
    other = "a b c d e f g h i j k l m n o p".split()
    assert _Colliding(other).repeated_chars(5) == repeated_ngram_chars(other, 5) == 0
