"""C4's rules: the line rules edit the text (counted), the document rules drop the page."""
# ruff: noqa: RUF001  (texts in other scripts are the fixtures here)

from __future__ import annotations

import pytest

from corpusbot.filters.c4 import _POLICY_WORDS, C4, POLICY_PHRASES, C4Options
from corpusbot.filters.scripts import sentences
from tests.filters.support import neutral, reason, state

GOOD = "This line is a complete sentence."


def step(**options: object) -> C4:
    return C4(neutral(C4Options, **options))


@pytest.mark.parametrize(("options", "removed", "rule"), [
    ({"max_word_length": 10}, "A line with averyveryverylongword in it.", "long-word"),
    ({"filter_no_terminal_punct": True}, "A line that just stops", "no-terminal-punctuation"),
    ({"filter_no_terminal_punct": True}, "A line that trails off...", "no-terminal-punctuation"),
    ({"min_words_per_line": 3}, "Two words.", "too-few-words"),
    ({"filter_javascript": True}, "Please enable JavaScript to see this.", "javascript"),
    ({"filter_policy": True}, "This site uses cookies to work.", "policy"),
])
def test_each_line_rule_removes_its_line_and_counts_it(options, removed, rule):
    page = state(f"{GOOD}\n{removed}\n\n{GOOD}")
    assert step(**options).apply(page) is None
    assert page.paragraphs == [GOOD, GOOD]
    assert page.edits[f"edit/c4/{rule}/lines"] == 1
    assert page.edits[f"edit/c4/{rule}/chars"] == len(removed)


def test_a_line_that_passes_every_rule_is_kept_unchanged():
    page = state(f"{GOOD}\n{GOOD}")
    every_rule = C4Options(min_num_sentences=0)
    assert C4(every_rule).apply(page) is None
    assert page.paragraphs == [f"{GOOD}\n{GOOD}"] and not page.edits


def test_citation_marks_are_cut_and_counted():
    page = state("A fact that needs a source.[1] Another one.[citation needed]")
    assert step(remove_citations=True).apply(page) is None
    assert page.paragraphs == ["A fact that needs a source. Another one."]
    assert page.edits["edit/c4/citations/chars"] == len("[1]") + len("[citation needed]")


def test_words_are_counted_before_the_citation_marks_are_cut():
    # datatrove splits the line into words first: "[]" is a word, though the cut removes it.
    page = state("results = []\nsome other line here")
    assert step(remove_citations=True, min_words_per_line=3).apply(page) is None
    assert page.paragraphs == ["results = \nsome other line here"]


@pytest.mark.parametrize(("options", "text", "rule"), [
    ({"filter_lorem_ipsum": True}, "Lorem ipsum dolor sit amet.", "lorem-ipsum"),
    ({"filter_curly_bracket": True}, "Use a dict such as {a: 1}.", "curly-bracket"),
    ({"min_num_sentences": 3}, "One sentence here. Two sentences here.", "too-few-sentences"),
])
def test_each_document_rule_drops_the_page(options, text, rule):
    assert reason(step(**options), text) == f"filter/c4/{rule}"
    assert reason(step(), text) is None


def test_a_removed_line_does_not_drop_the_page_for_lorem_ipsum():
    # datatrove's order: the terminal-punctuation rule removes the line before it is read.
    assert reason(step(filter_no_terminal_punct=True, filter_lorem_ipsum=True),
                  f"{GOOD}\nlorem ipsum dolor") is None


def test_sentences_are_counted_in_every_script():
    c4 = step(min_num_sentences=3)
    assert reason(c4, "这是第一句话。这是第二句话！还有第三句吗？", lang="zh") is None
    assert reason(c4, "यह पहला वाक्य है। यह दूसरा है। यह तीसरा है।", lang="hi") is None


@pytest.mark.parametrize(("line", "count"), [
    ("Mr. Smith went home. He slept.", 2),  # an abbreviation's period ends nothing
    ('He said "stop." Then he left.', 2),  # closing quotes after the mark
    ("(So it ends.) Then", 2),
    ("J. R. R. Tolkien wrote it.", 1),  # initials
    ("e.g. this one", 1),  # inner periods
    ("Done. ", 1),  # no text after the last mark
    ("Wait... what", 1),  # an ellipsis
    ("Why? Because! Yes.", 3),
    ("the end.Start of it", 2),  # no space after the mark
    ("你好。我很好。", 2),
    ("", 0),
])
def test_sentences_of_a_line_outside_english(line, count):
    assert sentences(line) == count


def test_a_chinese_line_is_long_enough_in_characters_not_spaces():
    page = state("这是一个完整的句子。", lang="zh")
    assert step(min_words_per_line=3, filter_no_terminal_punct=True).apply(page) is None
    assert page.paragraphs == ["这是一个完整的句子。"]


def test_on_an_english_page_a_line_has_its_whitespace_separated_words():
    # As datatrove counts them: a quoted Chinese title is one word, and the line too short.
    c4 = step(min_words_per_line=3)
    assert reason(c4, "这是一个完整的句子。", lang="en") == "filter/c4/empty"


def test_nothing_left_drops_the_page():
    assert reason(step(min_words_per_line=3), "Too short.") == "filter/c4/empty"


def test_every_policy_phrase_has_a_word_of_the_quick_search():
    # The line rule searches for the phrases only in a line with one of these words.
    assert all(any(word in phrase for word in _POLICY_WORDS) for phrase in POLICY_PHRASES)


def test_the_published_values_are_the_defaults():
    o = C4Options()
    assert (o.min_num_sentences, o.min_words_per_line, o.max_word_length) == (5, 3, 1000)
    assert all((o.remove_citations, o.filter_no_terminal_punct, o.filter_lorem_ipsum,
                o.filter_javascript, o.filter_curly_bracket, o.filter_policy))


def test_a_bad_value_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^c4\.min_words_per_line must be 0 or more, got -1$"):
        C4Options(min_words_per_line=-1)
