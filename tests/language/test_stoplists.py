"""Stop-word lists: the committed files, their lookup by code, and their source (jusText)."""

from __future__ import annotations

import gc
import importlib.util
from importlib.resources import files

import pytest

from corpusbot.language.stoplists import available_languages, has_stoplist, resolve, stoplist
from tests.conftest import REPO

SCRIPT = REPO / "scripts" / "make_stopwords.py"


def load_script():
    spec = importlib.util.spec_from_file_location("make_stopwords", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_hundred_lists_with_the_documented_codes():
    codes = available_languages()
    assert len(codes) == 100
    assert {"en", "de", "fr", "pl", "nb", "nn", "sh", "be-tarask", "en-simple", "rup"} <= codes
    assert {"an", "ast", "bpy", "nds", "lmo", "nap", "new", "pms", "sgs", "scn"} <= codes
    assert {"vo", "wa", "war", "pnb"} <= codes


@pytest.mark.parametrize("code", sorted(available_languages()))
def test_each_file_is_sorted_lowercase_unique_utf8(code):
    raw = files("corpusbot.stopwords").joinpath(f"{code}.txt").read_bytes()
    lines = raw.decode("utf-8").split("\n")
    assert lines[-1] == ""
    words = lines[:-1]
    assert words, "an empty list"
    assert words == sorted(set(words))
    assert all(w == w.lower() == w.strip() and w for w in words)


def test_readme_keeps_the_licence_notice():
    readme = files("corpusbot.stopwords").joinpath("README.md").read_text(encoding="utf-8")
    assert "Copyright (c) 2011, Jan Pomikalek" in readme
    assert "Redistributions of source code must retain" in readme
    assert "| `be-tarask` | Belarusian_Taraskievica |" in readme


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("en", "en"), ("en-US", "en"), ("EN_gb", "en"), (" de-DE ", "de"),
        ("no", "nb"), ("nb-NO", "nb"), ("nn", "nn"), ("iw", "he"), ("fil", "tl"),
        ("be-tarask", "be-tarask"), ("be-x-old", "be-tarask"), ("en-simple", "en-simple"),
        ("sr-Latn-RS", "sr"), ("hbs", "sh"),
        ("zh-cn", None), ("ja", None), ("und", None), ("", None), (None, None), ("x", None),
    ],
)
def test_resolve_accepts_region_variants_and_aliases(tag, code):
    assert resolve(tag) == code
    assert has_stoplist(tag) is (code is not None)


def test_region_variant_gives_the_language_list():
    assert stoplist("en-US") == stoplist("en")
    assert "the" in stoplist("en") and "und" in stoplist("de") and "że" in stoplist("pl")
    assert stoplist("en-simple") != stoplist("en")


def test_lists_are_invisible_to_the_cycle_collector():
    # A full collection walks every member of a tracked container; the lists hold 154,000
    # words, and a frozenset of them cost 27 ms a collection (stoplists.StopWords).
    for words in (stoplist("en"), stoplist(None)):
        assert "the" in words and not gc.is_tracked(words)


def test_no_list_gives_the_union_built_once():
    union = stoplist(None)
    assert stoplist("zh-cn") is union and stoplist("") is union and stoplist("xx") is union
    for code in ("en", "de", "ko", "be-tarask"):
        assert stoplist(code).keys() <= union.keys()
    assert len(union) == len(frozenset().union(*(stoplist(c) for c in available_languages())))


@pytest.fixture
def justext():
    return pytest.importorskip("justext", reason="jusText (the lists' source) is a dev extra")


def test_each_list_equals_justexts_own_loading(justext):
    codes = load_script().CODES
    assert sorted(codes) == sorted(justext.get_stoplists())
    for name, code in codes.items():
        assert set(stoplist(code)) == justext.get_stoplist(name), name


def test_union_equals_justexts_language_independent_list(justext):
    union = frozenset(w for name in justext.get_stoplists() for w in justext.get_stoplist(name))
    assert set(stoplist(None)) == union


def test_committed_files_are_up_to_date(justext):
    assert load_script().main(["--check"]) == 0
