"""Stop-word lists by language code, from the package data in corpusbot.stopwords.

jusText's classifier needs the stop words of the page's language; a page in a
language without a list is classified with the union of all lists, which is
jusText's language-independent mode. The lists and their provenance are in
``stopwords/`` (see its README.md).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib.resources import files

from corpusbot.language.tags import normalize_tag

PACKAGE = "corpusbot.stopwords"
# Codes other tools use for a language whose list has another name here.
# langdetect says "no" for Norwegian: Bokmål is the written norm of ~90% of
# Norwegian text. "be-x-old" is Wikipedia's former code for be-tarask.
ALIASES = {"no": "nb", "be-x-old": "be-tarask", "hbs": "sh"}


# Cached: package data files do not change while the process runs, so reading
# them once cannot change any result; it makes every later call a dict lookup.
@functools.cache
def available_languages() -> frozenset[str]:
    """The codes that have a stop-word list ("en", "de", "be-tarask", ...).

    Cached: the installed files cannot change while the process runs, and
    listing them cost a directory read on every page.
    """
    root = files(PACKAGE)
    return frozenset(
        entry.name.removesuffix(".txt")
        for entry in root.iterdir()
        if entry.name.endswith(".txt")
    )


StopWords = dict[str, None]
"""A stop-word list: the words are the keys (``in``, ``len``, iteration).

A dict, not a frozenset: CPython's cycle collector never tracks a dict of
strings, while it walks every member of a set at each full collection. The
lists a process loads (the union alone holds 154 000 words) made each full
collection cost 27 ms, 3 % of extraction time on scrapinghub. (A dict's keys
view would do the same, but its ``__contains__`` is a slot wrapper, twice as
slow in ``map(stoplist.__contains__, words)``.)
"""


@functools.cache
def _load(code: str) -> StopWords:
    text = files(PACKAGE).joinpath(f"{code}.txt").read_text(encoding="utf-8")
    return _words(text.split("\n"))


@functools.cache
def _union() -> StopWords:
    return _words(word for code in sorted(available_languages()) for word in _load(code))


def _words(words: Iterable[str]) -> StopWords:
    return dict.fromkeys(word for word in words if word)


def resolve(lang: str | None) -> str | None:
    """The code of the list for ``lang`` ("en-US", "zh_CN", "NO", "be-tarask"), or None.

    A full tag that names a list is taken as it is ("en-simple"); otherwise
    its primary language subtag is.
    """
    if not lang:
        return None
    available = available_languages()
    tag = lang.strip().lower().replace("_", "-")
    for candidate in (tag, normalize_tag(tag)):
        code = ALIASES.get(candidate, candidate) if candidate else None
        if code in available:
            return code
    return None


def has_stoplist(lang: str | None) -> bool:
    """Whether ``lang`` has a list of its own (else ``stoplist`` gives the union)."""
    return resolve(lang) is not None


def stoplist(lang: str | None) -> StopWords:
    """The stop words of ``lang``; the union of all lists when it is None or has none."""
    code = resolve(lang)
    return _load(code) if code else _union()
