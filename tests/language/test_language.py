"""Language identification: real texts, repeatability, hints, and text that says nothing."""
# ruff: noqa: RUF001  (texts in other scripts are the fixtures here)

from __future__ import annotations

import pickle

import pytest
from langdetect import DetectorFactory as GlobalFactory
from langdetect import detect as global_detect

from corpusbot.language import identify as language
from corpusbot.language.identify import (
    HINT_ONLY_PROBABILITY,
    SAMPLE_CHARS,
    LanguageGuess,
    LanguageIdentifier,
    identify,
    normalize_tag,
    parse_hints,
    sample,
)

TEXTS = {
    "de": "Die Bundesregierung hat am Mittwoch beschlossen, die Förderung für erneuerbare "
    "Energien deutlich auszuweiten. Für Bürgerinnen und Bürger ändert sich zunächst wenig.",
    "en": "The government announced on Wednesday that it would significantly expand support "
    "for renewable energy, a move welcomed by industry groups across the country.",
    "fr": "Le gouvernement a annoncé mercredi qu'il allait considérablement étendre le soutien "
    "aux énergies renouvelables, une décision saluée par les professionnels du secteur.",
    "pl": "Rząd ogłosił w środę, że znacznie rozszerzy wsparcie dla energii odnawialnej. "
    "Decyzję z zadowoleniem przyjęły organizacje branżowe w całym kraju.",
    "zh": "政府周三宣布，将大幅扩大对可再生能源的支持力度，以应对气候变化带来的挑战。"
    "专家表示，这一政策将推动相关产业快速发展，并创造大量就业机会。",
    "ja": "東京都は水曜日、再生可能エネルギーへの支援を大幅に拡大すると発表しました。",
    "ko": "정부는 수요일 재생 에너지에 대한 지원을 크게 확대하겠다고 발표했다.",
    "ru": "Правительство объявило в среду о значительном расширении поддержки "
    "возобновляемой энергетики.",
}


@pytest.fixture(scope="module")
def identifier():
    return LanguageIdentifier()


@pytest.mark.parametrize("code", sorted(TEXTS))
def test_identifies_real_texts(identifier, code):
    guess = identifier.identify(TEXTS[code])
    assert guess.code == code
    assert guess.probability > 0.9


def test_short_traditional_chinese_is_chinese_not_korean(identifier):
    # langdetect alone calls this Korean: there is no Hangul in it.
    text = "中華民國政府週三宣布，將大幅擴大對可再生能源的支持力度，以應對氣候變化帶來的挑戰。"
    assert identifier.identify(text).code == "zh"


def test_same_answer_twenty_times_and_across_instances(identifier):
    text = "Centrum voor Informatie en Documentatie"
    first = identifier.identify(text)
    assert all(identifier.identify(text) == first for _ in range(20))
    assert LanguageIdentifier().identify(text) == first
    assert identify(text) == first


def test_independent_of_langdetects_global_state(identifier):
    text = "Bra dag idag, vi skal spise middag"
    before = identifier.identify(text)
    GlobalFactory.seed = 12345
    global_detect("something else entirely, in English")
    assert identifier.identify(text) == before


def test_other_seed_still_identifies_clear_text():
    assert LanguageIdentifier(seed=7).identify(TEXTS["de"]).code == "de"


def test_hint_breaks_a_near_tie(identifier):
    text = "Centrum voor Informatie en Documentatie"  # nl 0.57, ro 0.43
    assert identifier.identify(text).code == "nl"
    hinted = identifier.identify(text, ["ro-RO"])
    assert hinted.code == "ro"
    assert 0.2 <= hinted.probability < 0.5


def test_hint_the_text_contradicts_is_ignored(identifier):
    assert identifier.identify(TEXTS["en"], ["de"]).code == "en"
    assert identifier.identify(TEXTS["en"], ["de, en"]).code == "en"


def test_unlikely_hinted_candidate_does_not_win(identifier):
    text = "Ministerstvo vnútra Slovenskej republiky"  # sk 0.86, sl 0.14
    assert identifier.identify(text, ["sl"]).code == "sk"


def test_specific_hint_names_langdetects_macrolanguage(identifier):
    text = "Han kom hjem sent i går kveld og gikk rett til sengs."
    assert identifier.identify(text).code == "no"
    assert identifier.identify(text, ["nn-NO"]).code == "nn"


def test_short_text_falls_back_to_the_first_valid_hint(identifier):
    guess = identifier.identify("Hallo Welt", [None, "", "x-klingon", "de-DE", "en"])
    assert guess == LanguageGuess("de", HINT_ONLY_PROBABILITY, language.DECLARED_ONLY)
    assert guess.probability == 0.0  # nothing was measured
    assert identifier.identify("ok", ["en, fr"]).code == "en"


@pytest.mark.parametrize(
    "text",
    ["", "   \n\t", "2024-01-01 12:00 +49 30 1234567 / 42", "Hallo", "😀" * 50, "\x00\ufffd" * 30],
)
def test_nothing_to_say_is_unknown(identifier, text):
    assert identifier.identify(text) == LanguageGuess(None, 0.0, language.NONE)


def test_symbols_without_features_fall_back_to_hint(identifier):
    # Letters langdetect has no n-grams for: its exception is caught.
    assert identifier.identify("ᚠᚢᚦᚨᚱᚲ " * 10, ["de"]) == LanguageGuess("de", 0.0,
                                                                  language.DECLARED_ONLY)


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("de-DE", "de"), ("zh-cn", "zh"), ("zh_TW", "zh"), ("EN", "en"), ("iw", "he"),
        ("in", "id"), ("fil", "tl"), ("gsw", "gsw"), ("und", None), ("x-klingon", None),
        ("i-navajo", None), ("", None), (None, None), ("12", None), ("english", None),
    ],
)
def test_normalize_tag(tag, code):
    assert normalize_tag(tag) == code


def test_parse_hints_keeps_order_and_drops_duplicates():
    assert parse_hints(["de-DE", None, "en, fr;q=0.5", "de"]) == ["de", "en", "fr"]


def test_sample_is_bounded_and_spans_the_text():
    text = "a" * 3000 + "b" * 3000 + "c" * 3000
    cut = sample(text)
    assert len(cut) <= SAMPLE_CHARS + 2
    assert {"a", "b", "c"} <= set(cut)
    assert sample("short") == "short"


def test_pickles_small_and_answers_the_same(identifier):
    data = pickle.dumps(identifier)
    assert len(data) < 1000
    assert pickle.loads(data).identify(TEXTS["pl"]) == identifier.identify(TEXTS["pl"])


def test_declared_language_confirmed_by_its_stop_words_records_the_measured_probability():
    text = (
        "The committee said that it would publish the report on Monday, and that the "
        "members of the public who had written to it would be able to read all of it."
    )
    guess = identify(text, ["en-GB"])
    assert (guess.code, guess.source) == ("en", language.DECLARED_CONFIRMED)
    # The probability is measured (langdetect's for English, from one trial: the language is
    # already decided), not a constant: close to the three trials that decide a language.
    assert abs(guess.probability - identify(text).probability) < 0.02
    assert 0.9 < guess.probability <= 1.0


def test_wrong_declaration_is_not_confirmed_and_detection_decides():
    text = (
        "Der Ausschuss teilte mit, dass er den Bericht am Montag veröffentlichen werde und "
        "dass die Bürger, die ihm geschrieben hätten, ihn vollständig lesen könnten."
    )
    guess = identify(text, ["en"])
    assert (guess.code, guess.source) == ("de", language.DETECTED)


def test_uncertain_answers_are_rechecked_with_langdetects_full_trials() -> None:
    # Half German, half Dutch: three trials disagree, so the answer is the
    # one seven trials give, probability included.
    text = (
        "Die Stadt hat am Montag beschlossen, dass die neue Brücke über den Fluss "
        "im nächsten Jahr gebaut wird. De stad heeft maandag besloten dat de nieuwe "
        "brug over de rivier volgend jaar wordt gebouwd."
    )
    identifier = LanguageIdentifier(trials=3)
    assert identifier._probabilities(text, 3)[0].prob < language.SURE_PROBABILITY
    assert identifier.candidates(text) == LanguageIdentifier(trials=7).candidates(text)


def test_identifier_pickles_with_its_trials() -> None:
    identifier = pickle.loads(pickle.dumps(LanguageIdentifier(seed=3, trials=5)))
    assert (identifier.seed, identifier.trials) == (3, 5)


def test_a_language_declared_without_a_measurement_is_measured_on_the_extracted_text():
    text = ("The committee said that it would publish the report on Monday, and that the "
            "members of the public who had written to it would be able to read all of it.")
    unmeasured = LanguageGuess("en", HINT_ONLY_PROBABILITY, language.DECLARED_ONLY)
    measured = language.measure(unmeasured, text)
    assert (measured.code, measured.source) == ("en", language.DECLARED_ONLY)
    assert measured.probability > 0.9
    assert language.measure(unmeasured, "ok") == unmeasured  # too short to measure
