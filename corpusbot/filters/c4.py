"""C4's cleaning rules (Raffel et al. 2020, section 2.2), as datatrove's ``C4QualityFilter``.

Line by line, in this order, a line is removed when it has a word longer
than ``max_word_length`` characters, (after its Wikipedia-style citation
marks are cut, ``remove_citations``) does not end in terminal punctuation or
ends in an ellipsis (``filter_no_terminal_punct``), has fewer than
``min_words_per_line`` words, mentions "javascript" (``filter_javascript``),
or names a cookie or privacy policy (``filter_policy``). A kept line with
"lorem ipsum" (``filter_lorem_ipsum``) or a curly bracket
(``filter_curly_bracket``) drops the whole page, as do fewer than
``min_num_sentences`` sentences in the kept lines.

The line rules edit the text, counted as ``edit/c4/<rule>`` (lines and
characters removed); paragraphs keep their breaks and one left empty goes.
Every script: terminal punctuation is Unicode's Sentence_Terminal set (with
the straight quotes C4 accepts), and a line in a script written without
spaces (Chinese, Japanese, Thai ...) counts corpusbot's tokens as its words,
since whitespace would make the whole line one word. On English pages words
and sentences are counted as datatrove counts them: whitespace-separated
words, and sentences as spaCy's sentenciser cuts spaCy's English tokens
(``filters.english``). A 0 switches a numeric rule off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from corpusbot.filters import validate
from corpusbot.filters.counts import is_english
from corpusbot.filters.scripts import TERMINAL_PUNCTUATION, is_unspaced, sentences
from corpusbot.steps import Drop, PageState, Step
from corpusbot.text import tokens

NAME = "c4"
DROP_RULES = ("lorem-ipsum", "curly-bracket", "too-few-sentences", "empty")
LINE_RULES = ("long-word", "citations", "no-terminal-punctuation", "too-few-words",
              "javascript", "policy")
CITATION = re.compile(r"\[\d*]|\[edit]|\[citation needed]")
LINE_END = (*TERMINAL_PUNCTUATION, '"', "'")
POLICY_PHRASES = ("terms of use", "privacy policy", "cookie policy", "uses cookies",
                  "use of cookies", "use cookies")
_POLICY = re.compile("|".join(map(re.escape, POLICY_PHRASES)))


@dataclass(slots=True, frozen=True)
class C4Options:
    """C4's rules, each on by default as in the paper (and datatrove)."""

    remove_citations: bool = True
    filter_no_terminal_punct: bool = True
    min_num_sentences: int = 5
    min_words_per_line: int = 3
    max_word_length: int = 1000
    filter_lorem_ipsum: bool = True
    filter_javascript: bool = True
    filter_curly_bracket: bool = True
    filter_policy: bool = True

    def __post_init__(self) -> None:
        validate.non_negative(NAME, self, "min_num_sentences", "min_words_per_line",
                              "max_word_length")


class _PageDropped(Exception):
    def __init__(self, rule: str) -> None:
        self.rule = rule


class C4(Step):
    """Removes C4's unwanted lines and drops pages C4 drops."""

    name = NAME
    Options = C4Options
    reasons = tuple(f"filter/{NAME}/{rule}" for rule in DROP_RULES)
    edits = tuple(f"edit/{NAME}/{rule}" for rule in LINE_RULES)
    summary = "C4 rules: lines without end punctuation, short, javascript, policy; lorem ipsum"

    def apply(self, state: PageState) -> Drop | None:
        kept_paragraphs, n_sentences, needed = [], 0, self.options.min_num_sentences
        english = is_english(state.lang)
        count_sentences = sentences
        if english:
            from corpusbot.filters.english import english_sentences  # noqa: PLC0415  (counts.py)

            count_sentences = english_sentences
        try:
            for paragraph in state.paragraphs:
                lines = [self._clean(line, state, english) for line in paragraph.splitlines()]
                kept = [line for line in lines if line is not None]
                # Counted only until enough: the count decides nothing past the minimum.
                for line in kept if n_sentences < needed else ():
                    n_sentences += count_sentences(line)
                if kept:
                    kept_paragraphs.append("\n".join(kept))
        except _PageDropped as dropped:
            return Drop(f"filter/{NAME}/{dropped.rule}")
        if n_sentences < needed:
            return Drop(f"filter/{NAME}/too-few-sentences")
        if not kept_paragraphs:
            return Drop(f"filter/{NAME}/empty")
        if kept_paragraphs != state.paragraphs:
            state.set_paragraphs(kept_paragraphs)
        return None

    def _clean(self, line: str, state: PageState, english: bool) -> str | None:
        """The line as kept (citations cut), or None when a rule removes it (counted)."""
        o = self.options
        original = line
        line = stripped = line.strip()
        if (o.max_word_length and len(line) > o.max_word_length
                and any(len(word) > o.max_word_length for word in line.split())):
            return _removed(state, "long-word", original)
        if o.remove_citations and "[" in line:
            cut = CITATION.sub("", line)
            if len(cut) != len(line):
                state.count_edit(f"edit/{NAME}/citations", 0, len(line) - len(cut))
            line = cut
        if o.filter_no_terminal_punct and (not line.endswith(LINE_END) or line.endswith("...")):
            return _removed(state, "no-terminal-punctuation", original)
        if o.min_words_per_line and _fewer_words(line, stripped, o.min_words_per_line, english):
            return _removed(state, "too-few-words", original)
        return self._content_rules(line, original, state)

    def _content_rules(self, line: str, original: str, state: PageState) -> str | None:
        o = self.options
        lowered = line.lower()
        if o.filter_lorem_ipsum and "lorem ipsum" in lowered:
            raise _PageDropped("lorem-ipsum")
        if o.filter_javascript and "javascript" in lowered:
            return _removed(state, "javascript", original)
        if o.filter_curly_bracket and "{" in line:
            raise _PageDropped("curly-bracket")
        if o.filter_policy and _names_a_policy(lowered):
            return _removed(state, "policy", original)
        return line


def _fewer_words(line: str, stripped: str, least: int, english: bool) -> bool:
    """Whether ``line`` (citations cut) has fewer than ``least`` (1 or more) words: corpusbot's
    tokens in a script written without spaces, else the whitespace-separated words of the
    line as it was before the cut (``stripped``, as datatrove counts them). Split no further
    than needed: most lines are far longer than the few words the rule asks for."""
    if not english and is_unspaced(line):
        return len(tokens(line)) < least
    return len(stripped.split(None, least - 1)) < least


_POLICY_WORDS = ("policy", "cookies", "terms of use")
"""One of these is in every phrase of ``POLICY_PHRASES``."""


def _names_a_policy(lowered: str) -> bool:
    # Three plain searches clear most lines at once, where the regular expression tries its
    # six phrases at every character.
    policy, cookies, terms = _POLICY_WORDS
    return (policy in lowered or cookies in lowered or terms in lowered) and (
        _POLICY.search(lowered) is not None)


def _removed(state: PageState, rule: str, line: str) -> None:
    # A blank line between two lines of a paragraph is not a line of text: not counted.
    if line.strip():
        state.count_edit(f"edit/{NAME}/{rule}", 1, len(line))
