"""The network guard: private, loopback, link-local, multicast, reserved and metadata addresses
are refused by default, by address, by name after resolution, and by the address a response
came from; counted and logged once per host."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import subprocess
import sys
import warnings

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured, ScrapyDeprecationWarning
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from corpusbot.commands import crawl as crawl_command
from corpusbot.crawl.addon import Addon
from corpusbot.crawl.netguard import REFUSED, NetGuardMiddleware, is_public, resolve
from tests.conftest import REPO
from tests.newssite.client import TEST_SETTINGS, NewsSite, crawl_stats, run_crawl

REFUSED_URLS = [
    "http://127.0.0.1/", "http://127.8.9.10:8080/x", "http://10.0.0.1/admin",
    "http://172.16.5.4/", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/",
    "http://100.100.100.200/", "http://0.0.0.0/", "http://224.0.0.1/", "http://240.0.0.1/",
    "http://255.255.255.255/", "http://[::1]/", "http://[fe80::1]/", "http://[fd00:ec2::254]/",
    "http://[::ffff:127.0.0.1]/", "http://[::]/", "http://[ff02::1]/", "http://[2002:7f00:1::]/",
    "file:///etc/passwd", "ftp://192.0.2.1/",
]
PUBLIC_URLS = ["http://93.184.215.14/", "https://[2606:4700:4700::1111]/page"]


def middleware(**settings: object) -> NetGuardMiddleware:
    crawler = get_crawler(settings_dict=settings)
    return build_from_crawler(NetGuardMiddleware, crawler)


def check(guard: NetGuardMiddleware, url: str) -> None:
    """Run ``process_request`` to its end (an address needs no resolution, so no reactor)."""
    coroutine = guard.process_request(Request(url))
    with pytest.raises(StopIteration):
        coroutine.send(None)


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_private_and_special_addresses_are_refused(url: str) -> None:
    guard = middleware()
    with pytest.raises(IgnoreRequest):
        check(guard, url)
    assert guard.stats.get_value(REFUSED) == 1


@pytest.mark.parametrize("url", PUBLIC_URLS)
def test_public_addresses_pass(url: str) -> None:
    check(middleware(), url)


def test_a_name_is_judged_by_what_it_resolves_to() -> None:
    loopback = resolve("localhost")
    assert loopback and not any(is_public(address) for address in loopback)
    assert is_public(ipaddress.ip_address("8.8.8.8"))


def test_each_host_is_logged_once_and_every_refusal_counted(caplog) -> None:
    guard = middleware()
    with caplog.at_level(logging.WARNING, logger="corpusbot.crawl.netguard"):
        for path in ("a", "b", "c"):
            with pytest.raises(IgnoreRequest):
                check(guard, f"http://10.1.2.3/{path}")
    assert guard.stats.get_value(REFUSED) == 3
    assert caplog.text.count("refused 10.1.2.3") == 1


def test_a_response_from_a_private_address_is_refused() -> None:
    guard = middleware()
    request = Request("http://public.example/")
    response = HtmlResponse(request.url, body=b"<html></html>", request=request,
                            ip_address=ipaddress.ip_address("192.168.0.7"))
    with pytest.raises(IgnoreRequest):
        asyncio.run(guard.process_response(request, response))
    public = HtmlResponse(request.url, body=b"<html></html>", request=request,
                          ip_address=ipaddress.ip_address("93.184.215.14"))
    assert asyncio.run(guard.process_response(request, public)) is public


def _response(url: str, address: str | None, **meta: object) -> tuple[Request, HtmlResponse]:
    request = Request(url, meta=meta)
    return request, HtmlResponse(url, body=b"<html></html>", request=request,
                                 ip_address=ipaddress.ip_address(address) if address else None)


def _passes(guard: NetGuardMiddleware, request: Request, response: HtmlResponse) -> bool:
    try:
        return asyncio.run(guard.process_response(request, response)) is response
    except IgnoreRequest:
        return False


def test_an_unseen_address_is_judged_by_resolving_the_name_again() -> None:
    # HTTP/2 responses carry no address: a name that now resolves to loopback (as
    # ``localhost`` does; a rebinding name would have resolved publicly before the
    # request) is refused, a public address given in the URL passes.
    guard = middleware()
    assert not _passes(guard, *_response("http://localhost/a", None))
    assert _passes(guard, *_response("http://93.184.215.14/a", None))
    assert guard.stats.get_value(REFUSED) == 1


def test_through_a_proxy_the_proxy_address_is_not_the_site() -> None:
    guard = middleware()
    proxy = {"proxy": "http://10.0.0.5:3128"}
    assert _passes(guard, *_response("http://93.184.215.14/", "10.0.0.5", **proxy))
    assert not _passes(guard, *_response("http://localhost/", "10.0.0.5", **proxy))
    assert not _passes(guard, *_response("http://93.184.215.14/", "10.0.0.5"))  # no proxy


@pytest.mark.parametrize(("choice", "named", "literal"), [
    ("resolve", False, True), ("refuse", False, True), ("accept", True, True)])
def test_the_unseen_address_setting(choice: str, named: bool, literal: bool) -> None:
    guard = middleware(CORPUSBOT_NETGUARD_UNSEEN_ADDRESS=choice)
    assert _passes(guard, *_response("http://localhost/", None)) is named
    assert _passes(guard, *_response("http://93.184.215.14/", None)) is literal


def test_refuse_refuses_any_named_host_without_an_address() -> None:
    guard = middleware(CORPUSBOT_NETGUARD_UNSEEN_ADDRESS="refuse")
    assert not _passes(guard, *_response("https://example.org/", None))
    assert _passes(guard, *_response("https://example.org/", "93.184.215.14"))
    with pytest.raises(ValueError, match="CORPUSBOT_NETGUARD_UNSEEN_ADDRESS"):
        middleware(CORPUSBOT_NETGUARD_UNSEEN_ADDRESS="maybe")


def test_the_switch_turns_it_off() -> None:
    with pytest.raises(NotConfigured):
        middleware(CORPUSBOT_NETGUARD_ENABLED=False)
    parser = argparse.ArgumentParser()
    crawl_command.configure(parser)
    args = parser.parse_args(["http://127.0.0.1/", "-o", "out", "--allow-private-networks"])
    assert crawl_command.crawl_settings(args).getbool("CORPUSBOT_NETGUARD_ENABLED") is False


def test_a_default_crawl_of_a_loopback_site_fetches_nothing(tmp_path) -> None:
    with NewsSite() as site:
        port = site.url.rsplit(":", 1)[1]
        # by address, and by a name that resolves to the loopback address
        result = run_crawl([f"{site.url}/", f"http://localhost:{port}/"], tmp_path / "out",
                           "CORPUSBOT_NETGUARD_ENABLED=True", "RETRY_TIMES=0")
        hits = site.hits()
    assert result.returncode == 1, result.stderr[-2000:]
    assert set(hits) <= {"/__hits.json"}  # the test's own question only
    assert crawl_stats(tmp_path / "out")[REFUSED] >= 2
    assert "refused 127.0.0.1" in result.stderr and "refused localhost" in result.stderr


# -- opening named networks (issue 21) -------------------------------------------------

@pytest.mark.parametrize(("allowed", "url", "opened"), [
    (["127.0.0.0/8"], "http://127.0.0.1:8080/", True),
    (["127.0.0.0/8"], "http://10.0.0.1/", False),
    (["127.0.0.0/8"], "http://169.254.169.254/latest/meta-data/", False),
    (["0.0.0.0/0"], "http://192.168.1.1/", True),
    (["0.0.0.0/0"], "http://169.254.169.254/latest/meta-data/", False),
    (["0.0.0.0/0"], "http://100.100.100.200/", False),
    (["169.254.169.254"], "http://169.254.169.254/latest/meta-data/", True),
    (["::/0"], "http://[fd00:ec2::254]/", False),
    (["::/0"], "http://[fe80::1]/", False),
    (["fd00:ec2::254"], "http://[fd00:ec2::254]/", True),
    (["::1"], "http://[::1]/", True),
    (["::1"], "http://[::ffff:127.0.0.1]/", False),
])
def test_a_named_network_opens_what_it_names_and_no_more(allowed: list[str], url: str,
                                                         opened: bool) -> None:
    guard = middleware(CORPUSBOT_NETGUARD_ALLOWED_NETWORKS=allowed)
    if opened:
        check(guard, url)
    else:
        with pytest.raises(IgnoreRequest):
            check(guard, url)


@pytest.mark.parametrize(("url", "why"), [
    ("http://10.0.0.1/", "address"), ("file:///etc/passwd", "scheme"), ("http:///x", "no-host"),
])
def test_each_refusal_is_a_stat_per_reason(url: str, why: str) -> None:
    guard = middleware()
    with pytest.raises(IgnoreRequest):
        check(guard, url)
    assert guard.stats.get_value(f"{REFUSED}/{why}") == 1


def test_a_bad_network_is_refused_before_the_crawl(tmp_path) -> None:
    result = run_crawl(["http://127.0.0.1:9/", "--allow-network", "127.0.0.0/33"],
                       tmp_path / "out")
    assert result.returncode == 64
    assert "not a network: '127.0.0.0/33'" in result.stderr
    assert "Traceback" not in result.stderr


def test_allow_private_networks_still_works_and_says_it_is_deprecated(caplog) -> None:
    parser = argparse.ArgumentParser()
    crawl_command.configure(parser)
    args = parser.parse_args(["http://127.0.0.1/", "-o", "out", "--allow-private-networks"])
    with caplog.at_level(logging.WARNING):
        settings = crawl_command.crawl_settings(args)
    assert settings.getbool("CORPUSBOT_NETGUARD_ENABLED") is False
    assert "deprecated" in caplog.text and "--allow-network" in caplog.text


def test_a_crawl_with_the_loopback_network_named_reaches_the_site_and_not_metadata(
        tmp_path) -> None:
    with NewsSite() as site:
        result = run_crawl([f"{site.url}/", "http://169.254.169.254/latest/meta-data/",
                            "--allow-network", "127.0.0.0/8"], tmp_path / "out",
                           "CORPUSBOT_NETGUARD_ENABLED=True", "RETRY_TIMES=0")
    assert result.returncode in (0, 2), result.stderr[-2000:]
    stats = crawl_stats(tmp_path / "out")
    assert stats["corpusbot/kept"] > 0
    assert stats[f"{REFUSED}/address"] == 2  # the metadata service: robots.txt, the page
    assert "refused 169.254.169.254" in result.stderr


@pytest.mark.parametrize(("settings", "on", "warned"), [
    ({}, True, False),
    ({"CORPUSBOT_NETGUARD_ENABLED": False}, False, False),
    ({"CORPUSBOT_BLOCK_PRIVATE_NETWORKS": False}, False, True),
    ({"CORPUSBOT_BLOCK_PRIVATE_NETWORKS": True, "CORPUSBOT_NETGUARD_ENABLED": False}, False, True),
])
def test_the_switch_and_its_former_name(settings: dict, on: bool, warned: bool) -> None:
    crawler = get_crawler(settings_dict={"ADDONS": {Addon: 0}, **settings})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if on:
            build_from_crawler(NetGuardMiddleware, crawler)
        else:
            with pytest.raises(NotConfigured):
                build_from_crawler(NetGuardMiddleware, crawler)
    deprecations = [w for w in caught if issubclass(w.category, ScrapyDeprecationWarning)
                    and "CORPUSBOT_BLOCK_PRIVATE_NETWORKS" in str(w.message)]
    assert len(deprecations) == (1 if warned else 0)


def test_the_former_name_still_opens_a_crawl_of_a_loopback_site(tmp_path) -> None:
    settings = [f"-s{s}" for s in TEST_SETTINGS if not s.startswith("CORPUSBOT_NETGUARD_")]
    with NewsSite() as site:
        result = subprocess.run(
            [sys.executable, "-m", "corpusbot", "crawl", f"{site.url}/", "-o",
             str(tmp_path / "out"), *settings, "-sCORPUSBOT_BLOCK_PRIVATE_NETWORKS=False"],
            cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode in (0, 2), result.stderr[-2000:]
    assert crawl_stats(tmp_path / "out")["corpusbot/kept"] > 0
    assert "CORPUSBOT_BLOCK_PRIVATE_NETWORKS is deprecated" in result.stderr
