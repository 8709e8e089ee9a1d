"""The fast detector gives langdetect's own answers, float for float."""
# ruff: noqa: RUF001  (texts in other scripts are the fixtures here)

from __future__ import annotations

import gc
import random
from pathlib import Path

import numpy as np
import pytest
from langdetect.detector_factory import PROFILES_DIRECTORY, DetectorFactory
from langdetect.lang_detect_exception import LangDetectException
from langdetect.utils.ngram import NGram

from corpusbot.language.ngrams import NgramDetector, NormalizeTable, Profiles

SEED = 0

TEXTS = [
    "Die Bundesregierung hat am Mittwoch beschlossen, die Förderung auszuweiten.",
    "The government announced on Wednesday that it would expand support for renewables.",
    "Rząd ogłosił w środę, że znacznie rozszerzy wsparcie dla energii odnawialnej.",
    "政府周三宣布，将大幅扩大对可再生能源的支持力度。",
    "東京都は水曜日、再生可能エネルギーへの支援を大幅に拡大すると発表しました。",
    "정부는 수요일 재생 에너지에 대한 지원을 크게 확대하겠다고 발표했다.",
    "Правительство объявило в среду о расширении поддержки энергетики.",
    "Thủ tướng Chính phủ đã phê duyệt đề án phát triển năng lượng tái tạo.",
    # Vietnamese written with combining marks, which langdetect folds first.
    "Vie\u0302\u0323t Nam pha\u0301t trie\u0302\u0309n",
    # Words in capitals, mixed case, runs of spaces, leading and trailing spaces.
    "  NASA and the ESA   said  THE LAUNCH WAS A SUCCESS, McDonald agreed  ",
    "ÄÖÜ ÄB aB İstanbul IJsselmeer ǅemal",
    # Addresses langdetect removes, and Latin text inside another script.
    "Read https://example.org/a?b=c or write to desk@example.org today please",
    "Новости дня: подробности на сайте news example com и в нашем канале",
    "Romanian: ţară şi țară și",
    # Latin Extended Additional letters outnumbering ASCII letters: langdetect counts them
    # as non-Latin (its block test never matches) and cleans the ASCII letters out.
    "Ạấ ầẩ ẫậ ắằ ẳẵ ặẹ ẻẽ ếề ểễ ệỉ ịọ ỏố ồổ ab",
    "A",
    "ab",
]


@pytest.fixture(scope="module")
def reference() -> DetectorFactory:
    factory = DetectorFactory()
    profiles = sorted(Path(PROFILES_DIRECTORY).iterdir())
    factory.load_json_profile([p.read_text(encoding="utf-8") for p in profiles])
    factory.set_seed(SEED)
    return factory


@pytest.fixture(scope="module")
def profiles() -> Profiles:
    return Profiles.load()


def _answer(detector, text: str, trials: int) -> list[tuple[str, float]] | str:
    detector.n_trial = trials
    detector.append(text)
    try:
        return [(language.lang, language.prob) for language in detector.get_probabilities()]
    except LangDetectException as error:
        return f"error {error.code}"


def _random_texts(count: int) -> list[str]:
    rng = random.Random(7)
    alphabet = "aAbBeEiIoO  xyzXYZ éÉßçÇ,.;-–“”ёЁжЖ日本のカタ한국ăşț\u0301\u0323IİıŞẠấ 12"
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 300)))
            for _ in range(count)]


@pytest.mark.parametrize("trials", [3, 7])
def test_same_probabilities_as_langdetect(reference, profiles, trials):
    table = NormalizeTable()
    for text in TEXTS + _random_texts(150):
        expected = _answer(reference.create(), text, trials)
        assert _answer(NgramDetector(profiles, SEED, table), text, trials) == expected, text


def test_text_without_features_raises_as_langdetect_does(reference, profiles):
    for text in ["", "   ", "12345 678", "--- !!! ---"]:
        assert _answer(NgramDetector(profiles, SEED, NormalizeTable()), text, 3) == _answer(
            reference.create(), text, 3)
        assert _answer(reference.create(), text, 3).startswith("error")


def test_same_ngrams_in_the_same_order(reference, profiles):
    table = NormalizeTable()
    for text in TEXTS:
        ours, theirs = NgramDetector(profiles, SEED, table), reference.create()
        ours.append(text)
        theirs.append(text)
        ours.cleaning_text()
        theirs.cleaning_text()
        assert ours.text == theirs.text
        assert ours._extract_ngrams() == theirs._extract_ngrams()


def test_profiles_hold_langdetects_numbers_read_only(reference, profiles):
    assert profiles.languages == reference.langlist
    assert list(profiles.rows) == list(reference.word_lang_prob_map)
    assert profiles.rows["the"] == list(reference.word_lang_prob_map).index("the")
    expected = np.array(list(reference.word_lang_prob_map.values()), dtype=np.float64)
    assert np.array_equal(profiles.matrix, expected)
    with pytest.raises(ValueError):
        profiles.matrix[0, 0] = 1.0


def test_normalize_table_is_ngram_normalize():
    table = NormalizeTable()
    text = "Ab,ç–ţ\u06ccこカ\u3106가Ạ"
    assert text.translate(table) == "".join(NGram.normalize(char) for char in text)


def test_word_cache_leaves_the_cycle_collector(profiles):
    # The cache holds up to MAX_CACHED_WORDS entries: as lists, each full collection walked
    # every n-gram in them; tuples of strings are untracked at the first collection.
    detector = NgramDetector(profiles, SEED, NormalizeTable())
    _answer(detector, TEXTS[0], trials=1)
    gc.collect()
    cached = [profiles.words[" " + word + " "] for word in ("Die", "hat", "am")]
    assert all(grams and not gc.is_tracked(grams) for grams in cached)
