"""Language identification of a page's visible text, repeatable, with declared hints.

langdetect (a port of Nakatani Shuyo's language-detection) samples character
n-grams at random, so an unseeded detector can name different languages for
the same text on two runs. Each ``LanguageIdentifier`` seeds its own
detectors instead of using langdetect's process-wide factory, so results
depend only on the text and the hints. The detector is
``corpusbot.language.ngrams``: langdetect's algorithm and profiles, its answers
unchanged, at half the cost. A call still costs about 0.6 ms, partly in
proportion to the text, so the text is cut to a bounded sample first, and a
declared language that the text's stop words confirm is taken without
calling langdetect to decide.

Every guess says how the language was decided (``source``) and carries the
probability that was measured: langdetect's probability for the chosen
language, also when stop words decided (so a minimum-probability filter
reads a measurement, not a constant); 0.0 when nothing could be measured.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from langdetect.lang_detect_exception import LangDetectException
from langdetect.language import Language

from corpusbot.language import stoplists
from corpusbot.language.ngrams import PROFILES_DIRECTORY, NgramDetector, NormalizeTable, Profiles
from corpusbot.language.tags import normalize_tag, parse_hints

# Characters of the page text given to langdetect (its own limit is 10 000).
# Its n-gram extraction costs in proportion; on the 472 gold pages, 300, 500,
# 800, 1200 and 2000 characters all give the same language (measured with
# langdetect's own detector, 500 cost 1.9 ms a call against 2.3 ms for 800
# and 3.7 ms for 2000).
SAMPLE_CHARS = 500
# Fewer letters than this and langdetect's answer is noise: use hints only.
MIN_LETTERS = 20
# A hinted language among langdetect's candidates with at least this
# probability wins over the top candidate: the page declared it and the text
# does not contradict it.
HINT_MIN_PROBABILITY = 0.2
# What a hint alone is worth when the text is too short to check it: nothing was measured.
HINT_ONLY_PROBABILITY = 0.0
# A declared language is confirmed without langdetect when its stop words
# make up this share of the sample's words: jusText's STOPWORDS_LOW, the
# density of grammatical text in that language. On the gold sets no wrong
# declaration reaches it (the highest scores 0.23) and 85 % of right ones do.
CONFIRMING_STOPWORD_DENSITY = 0.30
CONFIRMATION_WORDS = 300
# A confirmed declaration decides the language; its probability is still measured
# (langdetect's for that language), since a filter on the probability needs a measurement.
# langdetect's random restarts per call (its own default is 7); the answer
# is their average. Three cost half as much as seven; when
# three leave the top language below SURE_PROBABILITY the call is repeated
# with seven. On the 472 gold pages one page needs the repeat (three trials
# alone turn it from German to English) and every page keeps the language
# seven trials give it.
TRIALS = 3
RETRY_TRIALS = 7
CONFIRMATION_TRIALS = 1
"""Trials to measure the probability of a language already decided (``probability_of``)."""
SURE_PROBABILITY = 0.9

# langdetect knows only the macro-language "no"; a hint of "nb" or "nn" confirms it.
MACRO = {"nb": "no", "nn": "no"}
# Scripts a language cannot be written without. langdetect maps Han characters
# to a few representatives and often calls short Chinese text Korean; Korean
# without Hangul or Japanese without kana does not occur in running text, and
# text in Han characters alone is Chinese.
REQUIRED_SCRIPT = {
    "ko": re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]"),
    "ja": re.compile(r"[\u3040-\u30ff]"),
}
_HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


# How a language was decided (``LanguageGuess.source``, the record's ``lang_source``).
GIVEN = "given"
"""The caller named the language (``--lang`` of ``extract``); nothing was measured."""
DECLARED_CONFIRMED = "declared+stopwords"
"""The page declared it and its stop words confirm it; the probability is langdetect's."""
DECLARED_DETECTED = "declared+detector"
"""The page declared it and langdetect ranks it likely enough; langdetect's probability."""
DETECTED = "detector"
"""langdetect's top language (no declaration, or one the text contradicts)."""
DECLARED_ONLY = "declared"
"""The page declared it and the sample it was decided on was too short to check; the
probability is langdetect's on the extracted text when there is one (``measure``), else 0."""
NONE = "none"
"""No language: no declaration and nothing to detect."""


@dataclass(slots=True, frozen=True)
class LanguageGuess:
    """A language code (ISO 639-1 where one exists), the probability measured for it (0..1,
    0.0 when nothing was measured), and how it was decided (``source``)."""

    code: str | None
    probability: float
    source: str = DETECTED


UNKNOWN = LanguageGuess(None, 0.0, NONE)


def sample(text: str, size: int = SAMPLE_CHARS) -> str:
    """At most ``size`` characters of ``text``: its start, middle and end.

    Three windows rather than one prefix, so a page that opens with a menu
    or a cookie notice in another language is still judged by its body.
    """
    if len(text) <= size:
        return text
    third = size // 3
    middle = (len(text) - third) // 2
    windows = (text[:third], text[middle:middle + third], text[-third:])
    return " ".join(windows)


class LanguageIdentifier:
    """Names the language of a text, repeatably (fixed seed), using hints to break ties.

    The detector profiles (a sixth of a second to load) are read on first use and
    never changed after; every call builds a fresh detector from them, so one
    instance can be shared by threads (two threads racing to load build the
    same profiles) and its answers do not depend on what it saw before.
    Pickling sends only the settings; the profiles reload on the other side.
    """

    def __init__(
        self, seed: int = 0, sample_chars: int = SAMPLE_CHARS, trials: int = TRIALS,
    ) -> None:
        self.seed = seed
        self.sample_chars = sample_chars
        self.trials = trials
        self._profiles: Profiles | None = None
        self._table = NormalizeTable()

    def __reduce__(self) -> tuple[type[LanguageIdentifier], tuple[int, int, int]]:
        return (type(self), (self.seed, self.sample_chars, self.trials))

    def identify(self, text: str, hints: Sequence[str | None] = ()) -> LanguageGuess:
        """The language of ``text`` (visible text only, no markup), or UNKNOWN."""
        hinted = parse_hints(hints)
        text = sample(text or "", self.sample_chars)
        if sum(map(str.isalpha, text)) < MIN_LETTERS:
            return _declared_only(hinted)
        if hinted and _confirmed_by_stopwords(text, hinted[0]):
            return LanguageGuess(hinted[0], self.probability_of(text, hinted[0]),
                                 DECLARED_CONFIRMED)
        candidates = self.candidates(text)
        if not candidates:
            return _declared_only(hinted)
        return _choose(candidates, hinted)

    def probability_of(self, text: str, code: str) -> float:
        """langdetect's probability that ``text`` is in ``code`` (0.0 below its 0.1 floor), from
        one trial: the language is already decided (a declaration its stop words confirm), so
        this only measures it, at a third of the cost of the three trials that decide one."""
        wanted = (code, MACRO.get(code))
        found = self._probabilities(text, CONFIRMATION_TRIALS)
        merged = sum(language.prob for language in found
                     if _plausible(normalize_tag(language.lang), text) in wanted)
        return min(merged, 1.0)

    def candidates(self, text: str) -> list[LanguageGuess]:
        """langdetect's languages for ``text`` with probability > 0.1, most likely first."""
        found = self._probabilities(text, self.trials)
        if found and found[0].prob < SURE_PROBABILITY and self.trials < RETRY_TRIALS:
            found = self._probabilities(text, RETRY_TRIALS)
        if not found:
            return []
        merged: dict[str, float] = {}
        for language in found:
            code = _plausible(normalize_tag(language.lang), text)
            if code:
                merged[code] = merged.get(code, 0.0) + language.prob
        # Renormalise: what _plausible dropped is impossible, not merely unlikely.
        scale = sum(language.prob for language in found) / (sum(merged.values()) or 1.0)
        ranked = sorted(merged.items(), key=lambda item: (-item[1], item[0]))
        return [LanguageGuess(code, min(prob * scale, 1.0)) for code, prob in ranked]

    def _probabilities(self, text: str, trials: int) -> list[Language]:
        detector = NgramDetector(self.profiles(), self.seed, self._table)
        detector.n_trial = trials
        detector.append(text)
        try:
            return detector.get_probabilities()
        except LangDetectException:
            # Raised for text without any n-gram feature (no letters it knows).
            return []

    def profiles(self) -> Profiles:
        """langdetect's profiles, loaded on first use."""
        if self._profiles is None:
            self._profiles = Profiles.load()
        return self._profiles


def _confirmed_by_stopwords(text: str, code: str) -> bool:
    """Whether ``code``'s stop words are as dense in ``text`` as in grammatical text.

    Costs a tenth of a langdetect call, and most pages declare their language.
    """
    if not stoplists.has_stoplist(code):
        return False
    words = text.lower().split()[:CONFIRMATION_WORDS]
    if not words:
        return False
    stopwords = stoplists.stoplist(code)
    return sum(map(stopwords.__contains__, words)) / len(words) >= CONFIRMING_STOPWORD_DENSITY


def _plausible(code: str | None, text: str) -> str | None:
    """``code`` if ``text`` has the script it needs; "zh" for Han-only "ko"/"ja"; else None."""
    script = REQUIRED_SCRIPT.get(code or "")
    if script is None or script.search(text):
        return code
    return "zh" if _HAN_RE.search(text) else None


def _declared_only(hinted: list[str]) -> LanguageGuess:
    return LanguageGuess(hinted[0], HINT_ONLY_PROBABILITY, DECLARED_ONLY) if hinted else UNKNOWN


def _choose(candidates: list[LanguageGuess], hinted: list[str]) -> LanguageGuess:
    """The most likely candidate that a hint names, if likely enough; else the top one."""
    top = candidates[0]
    for guess in candidates:
        hint = next((h for h in hinted if guess.code in (h, MACRO.get(h))), None)
        if hint and (guess is top or guess.probability >= HINT_MIN_PROBABILITY):
            # The hint may be more specific ("nn" for langdetect's "no"): keep it.
            return LanguageGuess(hint, guess.probability, DECLARED_DETECTED)
    return top


def measure(guess: LanguageGuess, text: str) -> LanguageGuess:
    """``guess`` with the probability langdetect gives its language on ``text``: for a
    language decided without a measurement (``DECLARED_ONLY``), once the text is known."""
    if guess.code is None or sum(map(str.isalpha, text[:SAMPLE_CHARS * 4])) < MIN_LETTERS:
        return guess
    identifier = default_identifier()
    probability = identifier.probability_of(sample(text, identifier.sample_chars), guess.code)
    return LanguageGuess(guess.code, probability, guess.source)


@functools.cache
def default_identifier() -> LanguageIdentifier:
    """The shared identifier with the default seed and sample size.

    Cached because loading profiles costs a sixth of a second; sharing it cannot
    change any answer, as the identifier holds no state that a call changes.
    """
    return LanguageIdentifier()


def identify(text: str, hints: Sequence[str | None] = ()) -> LanguageGuess:
    """The language of ``text`` using the shared default identifier; see LanguageIdentifier."""
    return default_identifier().identify(text, hints)


@functools.cache
def known_languages() -> frozenset[str]:
    """Every code a page's language can be given: the detector's, those of a stop-word
    list (a declared language its stop words confirm), and ``und``. Cached: installed
    files do not change while the process runs."""
    detected = {normalize_tag(name) for name in os.listdir(PROFILES_DIRECTORY)}
    return frozenset({c for c in detected if c} | stoplists.available_languages() | {"und"})
