"""Gopher's quality rules: one test per threshold, every other rule switched off."""

from __future__ import annotations

import pytest

from corpusbot.filters.gopher_quality import (
    GOPHER_STOP_WORDS,
    GopherQuality,
    GopherQualityOptions,
    language_stop_words,
)
from corpusbot.steps import parse_option
from tests.filters.support import neutral, reason

PROSE = "the cat sat on the mat and looked at the dog with care"  # 13 words, mean 3.2


def step(**options: object) -> GopherQuality:
    return GopherQuality(neutral(GopherQualityOptions, **options))


@pytest.mark.parametrize(("options", "dropped", "kept", "rule"), [
    ({"min_doc_words": 13}, "the cat sat", PROSE, "too-few-words"),
    ({"max_doc_words": 13}, PROSE + " again", PROSE, "too-many-words"),
    ({"min_avg_word_length": 3}, "a an to of it is at by", PROSE, "short-words"),
    ({"max_avg_word_length": 10}, "incomprehensibilities extraordinarily", PROSE, "long-words"),
    ({"max_symbol_word_ratio": 0.1}, PROSE + " #a #b", PROSE + " #a", "hashes"),
    ({"max_symbol_word_ratio": 0.1}, PROSE + "... and ... so", PROSE + "... so",
     "ellipses"),
    ({"max_bullet_lines_ratio": 0.5}, "- one\n- two\nthree", "- one\ntwo", "bullet-lines"),
    ({"max_ellipsis_lines_ratio": 0.5}, "one...\ntwo…\nthree", "one...\ntwo",
     "ellipsis-lines"),
    ({"min_alpha_words_ratio": 0.8}, "cat 1 2 3 4", "cat dog fox owl 1", "few-alpha-words"),
    ({"min_stop_words": 2}, "cat dog fox the", PROSE, "few-stop-words"),
])
def test_each_rule_drops_past_its_threshold_only(options, dropped, kept, rule):
    gopher = step(**options)
    assert reason(gopher, dropped) == f"filter/gopher_quality/{rule}"
    assert reason(gopher, kept) is None


def test_punctuation_marks_count_as_words_in_the_alphabetic_ratio():
    # datatrove counts spaCy's tokens, where each mark is one: "a , b , c , d ." has 4
    # alphabetic words of 8, below 0.8, although every word corpusbot counts has a letter.
    assert reason(step(min_alpha_words_ratio=0.8), "a , b , c , d .") is not None


def test_stop_words_are_gophers_for_english_and_the_page_languages_elsewhere():
    assert language_stop_words("en") == GOPHER_STOP_WORDS
    german = "Der Hund und die Katze schlafen im Garten unter dem Baum"
    gopher = step(min_stop_words=2)
    assert reason(gopher, german, lang="de") is None
    assert reason(gopher, german, lang="en") == "filter/gopher_quality/few-stop-words"
    assert reason(step(min_stop_words=2, stop_words=frozenset({"hund", "baum"})), german,
                  lang="de") is None


def test_han_characters_are_words_so_chinese_pages_are_long_enough():
    text = "这是一个关于城市发展的长篇报道" * 4  # 60 Han characters, no spaces
    assert reason(step(min_doc_words=50), text, lang="zh") is None


def test_the_mean_word_length_rule_does_not_apply_to_words_of_one_han_character():
    text = "这是一个关于城市发展的长篇报道" * 4
    assert reason(step(min_avg_word_length=3), text, lang="zh") is None
    assert reason(step(min_avg_word_length=3), "a an to of it is", lang="en") is not None


def test_the_published_values_are_the_defaults():
    o = GopherQualityOptions()
    assert (o.min_doc_words, o.max_doc_words, o.min_avg_word_length, o.max_avg_word_length,
            o.max_symbol_word_ratio, o.max_bullet_lines_ratio, o.max_ellipsis_lines_ratio,
            o.min_alpha_words_ratio, o.min_stop_words) == (50, 100_000, 3, 10, 0.1, 0.9, 0.3,
                                                            0.8, 2)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("min_doc_words", -1, "gopher_quality.min_doc_words must be 0 or more, got -1"),
    ("min_alpha_words_ratio", 1.5,
     "gopher_quality.min_alpha_words_ratio must be a ratio in [0, 1], got 1.5"),
])
def test_a_bad_value_is_refused_in_one_line(name, value, message):
    with pytest.raises(ValueError, match=r"^" + message.replace(".", r"\.").replace("[", r"\[")):
        GopherQualityOptions(**{name: value})


def test_options_parse_from_text():
    assert parse_option(GopherQualityOptions, "stop_words", "der,die") == frozenset({"der", "die"})
    with pytest.raises(ValueError, match="option min_doc_words: not a int"):
        parse_option(GopherQualityOptions, "min_doc_words", "many")
