"""The URL block lists: domain and URL files, the UT1 folder layout, banned words."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from corpusbot.filters.urls import BANNED_WORD, Urls, UrlsOptions, url_key
from tests.filters.support import reason


def write(path: Path, *lines: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(("# a comment", *lines, "")), encoding="utf-8")
    return str(path)


def test_no_list_drops_nothing():
    assert reason(Urls(), "text", url="https://adult.example/x") is None


def test_a_listed_domain_and_its_subdomains_are_dropped_and_the_reason_names_the_list(tmp_path):
    step = Urls(UrlsOptions(domain_lists=frozenset({write(tmp_path / "spam.txt", "bad.example")})))
    assert reason(step, "t", url="https://bad.example/a") == "filter/urls/spam.txt"
    assert reason(step, "t", url="https://www.shop.bad.example/a") == "filter/urls/spam.txt"
    assert reason(step, "t", url="https://notbad.example/a") is None


def test_a_listed_url_is_dropped_whatever_its_scheme_www_or_final_slash(tmp_path):
    step = Urls(UrlsOptions(url_lists=frozenset({write(tmp_path / "urls.txt",
                                                        "site.example/page/")})))
    assert reason(step, "t", url="http://www.site.example/page") == "filter/urls/urls.txt"
    assert reason(step, "t", url="https://site.example/other") is None
    assert url_key("HTTPS://WWW.Site.Example/a/?q=1") == "site.example/a?q=1"


def test_the_ut1_layout_is_read_by_category(tmp_path):
    write(tmp_path / "blacklists" / "adult" / "domains", "xxx.example")
    write(tmp_path / "blacklists" / "adult" / "urls", "ok.example/adult-page")
    write(tmp_path / "blacklists" / "gambling" / "domains", "bet.example")
    step = Urls(UrlsOptions(ut1=str(tmp_path)))
    assert reason(step, "t", url="https://xxx.example/") == "filter/urls/ut1-adult"
    assert reason(step, "t", url="https://ok.example/adult-page") == "filter/urls/ut1-adult"
    assert reason(step, "t", url="https://bet.example/") is None  # not a chosen category
    both = Urls(UrlsOptions(ut1=str(tmp_path), ut1_categories=frozenset({"adult", "gambling"})))
    assert reason(both, "t", url="https://bet.example/") == "filter/urls/ut1-gambling"


def test_a_banned_word_must_be_a_word_of_the_url():
    step = Urls(UrlsOptions(banned_url_words=frozenset({"casino"})))
    assert reason(step, "t", url="https://example.org/best-casino-offers") == BANNED_WORD
    assert reason(step, "t", url="https://example.org/casinoroyale") is None


def test_the_step_pickles_and_rereads_its_lists(tmp_path):
    step = Urls(UrlsOptions(domain_lists=frozenset({write(tmp_path / "l.txt", "bad.example")})))
    copy = pickle.loads(pickle.dumps(step))
    assert reason(copy, "t", url="https://bad.example/") == "filter/urls/l.txt"


def test_a_missing_list_is_refused_in_one_line(tmp_path):
    with pytest.raises(ValueError, match=r"^urls: block list .*nope\.txt is not a readable file$"):
        UrlsOptions(domain_lists=frozenset({str(tmp_path / "nope.txt")}))
    with pytest.raises(ValueError, match=r"^urls\.ut1: no category folder 'adult'"):
        UrlsOptions(ut1=str(tmp_path))
