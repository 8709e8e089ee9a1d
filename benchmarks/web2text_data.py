"""WCXB pages for the Web2Text mode: loading, gold-to-block alignment, bag-of-words scoring.

The WCXB layout (``../shared/bench/wcxb-dev``): ``ground-truth/<id>.json``
with the gold text at ``ground_truth.main_content``, the page type at
``_internal.page_type.primary`` (``category`` means ``collection``) and the
page URL at ``url``; the HTML at ``html/<id>.html.gz``.

Alignment (Web2Text section 3.1 aligns the cleaned text onto the blocks):
here a block is content when at least ``MIN_ALIGNED_SHARE`` of its word
trigrams are found among the gold text's trigrams not yet used by an
earlier block (a multiset, so a page that repeats its article in a hidden
copy or a teaser labels only one copy). Blocks of one or two words have no
trigram: they are content when their words occur in that order in the gold
text and the nearest longer block before or after them is content (a short
heading or list item inside the content, not a menu entry that happens to
share a word).
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from corpusbot.html.blocks import Block

MIN_ALIGNED_SHARE = 0.5
"""Share of a block's trigrams found in the gold for it to be labelled content.

Not tuned: half the block. The labels it gives score F1 0.941 on WCXB when
extracted as they are (the ``oracle`` line of the training report); forum
pages are the weak spot there (0.763)."""
_TOKEN = re.compile(r"\w+")


@dataclass(slots=True, frozen=True)
class WcxbPage:
    """One WCXB page: id, URL, its domain (the cross-validation group), type, gold, HTML."""

    key: str
    url: str
    domain: str
    page_type: str
    gold: str
    html: bytes


def load_wcxb(folder: Path, limit: int | None = None) -> list[WcxbPage]:
    """The pages of a WCXB folder, in id order (the first ``limit`` when given)."""
    pages = []
    for path in sorted((folder / "ground-truth").glob("*.json"))[:limit]:
        entry = json.loads(path.read_text(encoding="utf-8"))
        html = gzip.decompress((folder / "html" / f"{path.stem}.html.gz").read_bytes())
        page_type = entry.get("_internal", {}).get("page_type", {}).get("primary") or "unknown"
        url = entry.get("url") or ""
        pages.append(WcxbPage(
            key=path.stem, url=url, domain=domain_of(url),
            page_type="collection" if page_type == "category" else page_type,
            gold=(entry.get("ground_truth") or {}).get("main_content") or "", html=html,
        ))
    return pages


def domain_of(url: str) -> str:
    """The host without ``www.``: pages of one site share a fold."""
    host = urlsplit(url).hostname or url
    return host.removeprefix("www.")


def tokens(text: str) -> list[str]:
    """Lower-cased ``\\w+`` words, the unit of the WCXB metric."""
    return _TOKEN.findall(text.lower())


def align(blocks: list[Block], gold: str) -> list[int]:
    """The 0/1 label of each block from the gold text (see the module docstring)."""
    gold_tokens = tokens(gold)
    remaining = Counter(zip(gold_tokens, gold_tokens[1:], gold_tokens[2:], strict=False))
    gold_line = f" {' '.join(gold_tokens)} "
    words = [tokens(b.text) for b in blocks]
    labels = [-1] * len(blocks)  # -1: short block, decided from its neighbours
    for i, w in enumerate(words):
        if len(w) >= 3:
            labels[i] = _consume(remaining, list(zip(w, w[1:], w[2:], strict=False)))
    long_labels = _nearest_long(labels)
    for i, w in enumerate(words):
        if labels[i] == -1:
            in_gold = bool(w) and f" {' '.join(w)} " in gold_line
            labels[i] = int(in_gold and long_labels[i])
    return labels


def _consume(remaining: Counter, trigrams: list[tuple[str, str, str]]) -> int:
    found = Counter(trigrams) & remaining
    if sum(found.values()) < MIN_ALIGNED_SHARE * len(trigrams):
        return 0
    remaining.subtract(found)
    return 1


def _nearest_long(labels: list[int]) -> list[bool]:
    """For each block, whether the nearest labelled block before or after it is content."""
    before, after = [False] * len(labels), [False] * len(labels)
    last = False
    for i, label in enumerate(labels):
        before[i] = last
        last = bool(label) if label != -1 else last
    last = False
    for i in range(len(labels) - 1, -1, -1):
        after[i] = last
        last = bool(labels[i]) if labels[i] != -1 else last
    return [b or a for b, a in zip(before, after, strict=True)]


def bag_scores(gold: str, output: str) -> tuple[float, float, float]:
    """WCXB's per-page precision, recall and F1 over multisets of words (bench/README.md).

    Empty gold scores 1.0 when the output is empty too, else 0; an empty
    output scores 0 against a non-empty gold.
    """
    expected, found = Counter(tokens(gold)), Counter(tokens(output))
    if not expected:
        return (1.0, 1.0, 1.0) if not found else (0.0, 0.0, 0.0)
    if not found:
        return 0.0, 0.0, 0.0
    overlap = sum((expected & found).values())
    precision = overlap / sum(found.values())
    recall = overlap / sum(expected.values())
    f1 = 2 * precision * recall / (precision + recall) if overlap else 0.0
    return precision, recall, f1


def macro_by_type(
    pages: list[WcxbPage], scores: list[tuple[float, float, float]]
) -> dict[str, tuple[int, float, float, float]]:
    """Pages, mean P, R and F1 over all pages (``all``) and per page type."""
    groups: dict[str, list[tuple[float, float, float]]] = {"all": scores}
    for page, score in zip(pages, scores, strict=True):
        groups.setdefault(page.page_type, []).append(score)
    return {
        name: (len(group), *(sum(s[i] for s in group) / len(group) for i in range(3)))
        for name, group in groups.items()
    }


def print_by_type(pages: list, runs: dict[str, list], digits: int = 3) -> None:
    """Print F1 (P, R) per page type of each run's per-page scores, one markdown table;
    ``pages`` are anything with a ``page_type``, in the scores' order."""
    tables = {name: macro_by_type(pages, scores) for name, scores in runs.items()}
    types = sorted(next(iter(tables.values())), key=lambda t: (t != "all", t))
    print("| run | " + " | ".join(f"{t} ({tables[next(iter(tables))][t][0]})" for t in types)
          + " |")
    print("|---" * (len(types) + 1) + "|")
    for name, table in tables.items():
        cells = [f"{table[t][3]:.{digits}f} (P {table[t][1]:.3f} R {table[t][2]:.3f})"
                 for t in types]
        print(f"| {name} | " + " | ".join(cells) + " |")
