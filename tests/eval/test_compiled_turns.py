"""``benchmarks/compiled.py`` times the extractors taking turns page by page."""

from __future__ import annotations

from tests.conftest import benchmark_modules


def _compiled():
    return benchmark_modules("compiled")[0]


def test_the_extractors_take_turns_on_each_page_and_every_call_is_timed():
    compiled = _compiled()
    seen: list[tuple[str, str]] = []

    def recorder(name: str):
        def call(html: bytes, url: str | None) -> str:
            seen.append((name, url))
            if name == "b" and url == "u2":
                raise ValueError("a reference failing on a page is timed all the same")
            return html.decode()
        return call

    calls = {"a": recorder("a"), "b": recorder("b")}
    pages = [(b"<p>one</p>", "u1"), (b"<p>two</p>", "u2")]
    times = compiled._timed_pass(calls, pages)
    assert seen == [("a", "u1"), ("b", "u1"), ("a", "u2"), ("b", "u2")]
    assert set(times) == {"a", "b"}
    for extractor in calls:
        assert set(times[extractor]) == set(compiled.CLOCKS)
        assert all(len(seconds) == 2 and min(seconds) >= 0
                   for seconds in times[extractor].values())
    seen.clear()
    compiled._timed_pass(calls, pages, reverse=True)
    assert seen == [("b", "u1"), ("a", "u1"), ("b", "u2"), ("a", "u2")]
