"""``benchmarks/error_classes.py count`` counts issue 19's error classes, not crashes."""

from __future__ import annotations

from corpusbot.eval.goldsets import GoldPage
from tests.conftest import FIXTURE_PAGES, benchmark_modules

BLANK_LINES = b" \r\n\t" * 400
CUT_OFF_SCRIPT = b"  window.dataLayer.push({'event': 'view'});\n});\n</script>\n"


def page(key: str, html: bytes) -> GoldPage:
    return GoldPage(key=key, url=f"https://example.org/{key}", html=html, body="gold text")


def test_each_page_is_counted_in_its_classes_and_none_as_a_crash():
    (error_classes,) = benchmark_modules("error_classes")
    article = (FIXTURE_PAGES / "news_article.html").read_bytes()
    found = error_classes.count_pages([
        page("clean", article),
        page("behind-blank-lines", BLANK_LINES + CUT_OFF_SCRIPT + article),
        page("short-post", (FIXTURE_PAGES / "blog_short_post.html").read_bytes()),
    ])
    assert found["reason=None"] == 3
    assert found["reason=crash"] == 0
    assert found["a: 1 KB or more of leading white space"] == 1
    assert found["a: cut-off script before the first tag"] == 1
    assert found["b/c/d: side box replaced by the headline's content"] == 1
    assert found["empty output, non-empty gold"] == 0
