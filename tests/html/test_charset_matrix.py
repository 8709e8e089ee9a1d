"""The charset matrix (tests/html/charset_cases.py): real text in many encodings under right,
missing, default, UTF-8 and same-family wrong labels decodes to the text (issue 21: koi8-r
on windows-1251 bytes, big5 or shift_jis on gb18030 bytes made mojibake)."""

from __future__ import annotations

import pytest

from corpusbot.html.decode import decode_html
from tests.conftest import needs_bench
from tests.html.charset_cases import cases
from tests.html.test_decode import SENTENCES

# Scripts the gold sets lack: the sentences of the decoding tests.
EXTRA = {lang: SENTENCES[lang][0] for lang in ("ja", "el", "he", "th")}
CASES = cases(EXTRA)


@needs_bench
def test_the_matrix_covers_every_kind_of_label() -> None:
    assert len(CASES) >= 62
    assert {case.kind for case in CASES} == {"right", "none", "latin1", "utf-8", "family"}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_case_decodes_to_its_text(case) -> None:
    decoded = decode_html(case.body())
    assert case.text in decoded.text, decoded.encoding
