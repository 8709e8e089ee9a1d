"""URL dedup: the same canonical URL is processed once.

``w3lib.url.canonicalize_url`` sorts the query arguments, drops the
fragment and normalises percent-encoding, so the trivial spellings of one
address meet; the index keeps a 64-bit hash of the result.
"""

from __future__ import annotations

from w3lib.url import canonicalize_url

from corpusbot.text import hash64


def canonical_url(url: str) -> str:
    """The canonical spelling of ``url``; an unparsable URL stays as it is."""
    try:
        return canonicalize_url(url.strip())
    except ValueError:
        return url.strip()


def url_key(url: str) -> int:
    """The index key of ``url``: the stable hash of its canonical spelling."""
    return hash64(canonical_url(url))
