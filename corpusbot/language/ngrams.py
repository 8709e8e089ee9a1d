"""langdetect's Detector with its per-character Python loops rewritten, same answers.

langdetect reads its input one character at a time through an ``NGram``
object and multiplies the 55 language probabilities one by one in Python;
on a 500-character sample that is most of a call. Its profiles, 88 000
lists of 55 Python floats, also take about 100 MB in every process.
``NgramDetector`` keeps langdetect's profiles (as one float64 matrix, 39 MB),
random draws and trials (``_detect_block``) and replaces the steps inside with
equivalents that give the same floats in the same order:

- characters are normalised with ``str.translate`` over a table of
  ``NGram.normalize`` results, filled as characters are first seen;
- the n-grams are read word by word: langdetect's buffer restarts after each
  space, so the n-grams of a word are those of ``" " + word`` (plus ``" "``
  when a space follows), in the same order, skipping a character that is
  upper case after an upper-case one (langdetect's "capital word" rule); a
  word's n-grams are kept for the next texts (``Profiles.words``);
- an update multiplies the probability vector by a matrix row plus the
  smoothing weight, the operations langdetect does per element; the five
  updates between two convergence checks are drawn first and multiplied in
  as one product, row after row; the normalising sum stays Python's ``sum``,
  in langdetect's order;
- the count that decides whether Latin letters are cleaned from a text in
  another script is made by regular expressions.

``tests/language/test_ngramdetector.py`` checks the answers against langdetect's own
Detector on texts in many scripts.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from langdetect.detector import Detector
from langdetect.detector_factory import PROFILES_DIRECTORY
from langdetect.lang_detect_exception import ErrorCode, LangDetectException
from langdetect.language import Language
from langdetect.utils.ngram import NGram

_SPACE_RUN = re.compile(" {2,}")
# langdetect's cleaning_text: its "Latin" is the ASCII range A-z, and every character from
# U+0300 counts as non-Latin (it means to spare Latin Extended Additional, but compares
# unicode_block's number with the block's name, which never match).
_LATIN = re.compile("[A-z]")
_NON_LATIN = re.compile("[\u0300-\U0010ffff]")
_CHECK_EVERY = 5
"""langdetect's loop tests for convergence after every fifth update."""
MAX_CACHED_WORDS = 1 << 15
"""Padded words whose n-grams are kept between texts (about 13 MB at most: ~390 bytes a
word measured on the gold pages, the n-gram strings shared through ``Profiles.grams``)."""


class NormalizeTable(dict):
    """``str.translate`` table: code point -> ``NGram.normalize`` of that character."""

    def __missing__(self, code: int) -> str:
        normalized = self[code] = NGram.normalize(chr(code))
        return normalized


@dataclass(frozen=True, slots=True)
class Profiles:
    """langdetect's n-gram profiles: ``matrix[rows[ngram]]`` holds its probability per language."""

    languages: list[str]
    rows: dict[str, int]
    matrix: np.ndarray
    words: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    """The known n-grams of each padded word seen (``_word_ngrams``), shared by every
    detector: a pure function of the word, and pages repeat the same function words.
    The tuples hold the profiles' own strings (``grams``), 8 bytes each; tuples of
    strings, unlike lists, leave the cycle collector's lists, so the cache adds
    nothing to a full collection."""
    grams: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    """Each known n-gram mapped to itself, filled on first use: the one copy of it."""

    @classmethod
    def load(cls, directory: Path = Path(PROFILES_DIRECTORY)) -> Profiles:
        """The profiles in ``directory``, in a fixed (sorted) order.

        Read straight into the matrix, as langdetect's ``add_profile`` computes
        them (an n-gram's count over the profile's count of n-grams of its
        length), without its lists: they would raise the peak by 100 MB.
        """
        languages: list[str] = []
        rows: dict[str, int] = {}
        cells: list[tuple[np.ndarray, np.ndarray]] = []
        # One profile's JSON at a time: together they would double the peak.
        for path in sorted(directory.iterdir()):
            profile = json.loads(path.read_text(encoding="utf-8"))
            languages.append(profile["name"])
            totals = profile["n_words"]
            at, values = [], []
            for word, count in profile["freq"].items():
                row = rows.setdefault(word, len(rows))
                if 1 <= len(word) <= len(totals):
                    at.append(row)
                    values.append(count / totals[len(word) - 1])
            cells.append((np.array(at, dtype=np.intp), np.array(values, dtype=np.float64)))
        matrix = np.zeros((len(rows), len(languages)), dtype=np.float64)
        for column, (at, values) in enumerate(cells):
            matrix[at, column] = values
        # Read-only, so that no detector can change the shared profiles.
        matrix.flags.writeable = False
        return cls(languages, rows, matrix)


class NgramDetector(Detector):
    """A langdetect Detector whose answers equal langdetect's, computed faster."""

    def __init__(self, profiles: Profiles, seed: int, table: NormalizeTable) -> None:
        # Detector.__init__'s fields, set here: it makes an unseeded random.Random(), which
        # reads the OS's entropy (a system call, 0.7 % of extraction), and every draw comes
        # after _detect_block seeds it. tests/language pins the answers to langdetect's.
        self.word_lang_prob_map, self.langlist = profiles.rows, profiles.languages
        self.seed, self.random = seed, random.Random(seed)
        self.text, self.langprob, self.prior_map = "", None, None
        self.alpha, self.n_trial, self.max_text_length = self.ALPHA_DEFAULT, 7, 10000
        self.verbose = False
        self.matrix = profiles.matrix
        self.table = table
        self.words, self.grams = profiles.words, profiles.grams

    def append(self, text: str) -> None:
        # langdetect's three substitutions, each skipped when a substring test shows it
        # has nothing to match: a URL starts "http", an address holds "@", and the
        # Vietnamese marks normalize_vi composes are not ASCII.
        if "http" in text:
            text = self.URL_RE.sub(" ", text)
        if "@" in text:
            text = self.MAIL_RE.sub(" ", text)
        if not text.isascii():
            text = NGram.normalize_vi(text)
        # langdetect keeps a space only when the character before it is not one.
        self.text += _SPACE_RUN.sub(" ", text[:self.max_text_length])

    def cleaning_text(self) -> None:
        """langdetect's rule, counted by regular expressions instead of a loop per character:
        a text with over twice as many characters from U+0300 on as ASCII letters ``A``-``z``
        loses the latter."""
        # Text in the Latin alphabet alone is never cleaned: skip the count.
        if self.text.isascii():
            return
        latin = len(_LATIN.findall(self.text))
        if latin * 2 < len(_NON_LATIN.findall(self.text)):
            self.text = _LATIN.sub("", self.text)

    def _extract_ngrams(self) -> list[str]:
        known, cache = self.word_lang_prob_map, self.words
        if len(cache) > MAX_CACHED_WORDS:
            cache.clear()  # a bound on memory; dropping entries cannot change an answer
        words = self.text.translate(self.table).split(" ")
        # A word's n-grams depend only on the word and whether a space follows it.
        found: list[str] = []
        for padded in [" " + word + " " for word in words[:-1] if word] + [" " + words[-1]]:
            grams = cache.get(padded)
            if grams is None:
                grams = cache[padded] = _word_ngrams(padded, known, self.grams)
            found += grams
        return found

    def _detect_block(self) -> None:
        """langdetect's trials, with the updates between two convergence checks applied as
        one product: the same n-grams drawn in the same order, the same factors multiplied
        in the same order (``np.multiply.reduce`` down the rows), so the same floats."""
        self.cleaning_text()
        ngrams = self._extract_ngrams()
        if not ngrams:
            raise LangDetectException(ErrorCode.CantDetectError, "No features in text.")
        self.langprob = [0.0] * len(self.langlist)
        self.random.seed(self.seed)
        for _ in range(self.n_trial):
            prob = self._trial(ngrams)
            for j in range(len(self.langprob)):
                self.langprob[j] += prob[j] / self.n_trial

    def _trial(self, ngrams: list[str]) -> np.ndarray:
        """One trial: a first update, then ``_CHECK_EVERY`` updates between checks, as
        langdetect's loop checks after its updates 0, 5, 10, ... until one converges.

        Each draw is ``random.choice``'s, inlined: ``choice(seq)`` is
        ``seq[_randbelow(len(seq))]``, and ``_randbelow(n)`` draws ``getrandbits(k)``, for
        ``k = n.bit_length()``, until it is below ``n``. Two Python calls a draw fewer;
        ``tests/language`` holds the draws to ``choice``'s through langdetect's answers."""
        rows, getrandbits, count = self.word_lang_prob_map, self.random.getrandbits, len(ngrams)
        bits = count.bit_length()
        prob = self._init_probability()
        weight = (self.alpha + self.random.gauss(0.0, 1.0) * self.ALPHA_WIDTH) / self.BASE_FREQ
        prob *= weight + self.matrix[rows[self.random.choice(ngrams)]]
        factors = np.empty((_CHECK_EVERY + 1, len(prob)), dtype=np.float64)
        done = 0
        while self._normalize_prob(prob) <= self.CONV_THRESHOLD and done < self.ITERATION_LIMIT:
            drawn: list[int] = []
            while len(drawn) < _CHECK_EVERY:
                pick = getrandbits(bits)
                if pick < count:
                    drawn.append(rows[ngrams[pick]])
            factors[0] = prob
            np.add(self.matrix[drawn], weight, out=factors[1:])
            prob = np.multiply.reduce(factors, axis=0)
            done += _CHECK_EVERY
        return prob

    def _init_probability(self) -> np.ndarray:
        return np.array(super()._init_probability(), dtype=np.float64)

    def _update_lang_prob(self, prob: np.ndarray, word: str, alpha: float) -> bool:
        row = self.word_lang_prob_map.get(word)
        if row is None:
            return False
        prob *= alpha / self.BASE_FREQ + self.matrix[row]
        return True

    def _normalize_prob(self, prob: np.ndarray) -> float:
        values = prob.tolist()
        total = sum(values)
        prob /= total
        # Division by a positive number keeps the order, correctly rounded: the largest
        # quotient is the largest value's, without a pass of numpy's max. (A zero total
        # made numpy's max nan, which max() with 0.0 turned into 0.0.)
        return max(0.0, max(values) / total) if total else 0.0

    def _sort_probability(self, prob: list[float]) -> list[Language]:
        return super()._sort_probability([float(p) for p in prob])


def _word_ngrams(
    padded: str, known: dict[str, int], canonical: dict[str, str],
) -> tuple[str, ...]:
    """The known 1-, 2- and 3-grams ending at each character of ``padded`` after the first,
    each as its ``canonical`` string."""
    grams = [padded[1:2], padded[:2]]
    for before, last, char in zip(padded, padded[1:], padded[2:], strict=False):
        if not (char.isupper() and last.isupper()):
            grams += (char, last + char, before + last + char)
    return tuple(canonical.setdefault(gram, gram) for gram in grams
                 if gram in known and gram != " ")
