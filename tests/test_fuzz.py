"""A short property-based fuzzing run of ``extract()`` and the archive reader (the long run
is ``benchmarks/fuzz.py``): no exception escapes, each input within its time budget."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import fuzzing

PAGES = fuzzing.seed_pages(limit=200)
ARCHIVES = fuzzing.seed_archives()
SHORT = settings(max_examples=300, deadline=None, database=None,
                 suppress_health_check=list(HealthCheck))
BUDGET_SECONDS = 20.0  # far above the slowest input seen (see benchmarks/fuzz.py)


@SHORT
@given(st.sampled_from(PAGES), fuzzing.edits())
def test_extract_never_raises_on_edited_real_pages(page: bytes, changes: list) -> None:
    fuzzing.check_extract(fuzzing.apply(page, changes), fuzzing.Tally(), BUDGET_SECONDS)


@SHORT
@given(st.sampled_from(ARCHIVES), st.booleans(), st.booleans(), fuzzing.edits())
def test_the_reader_never_raises_on_edited_real_archives(tmp_path_factory, records: list,
                                                         gzipped: bool, after: bool,
                                                         changes: list) -> None:
    data = fuzzing.build_archive(records, gzipped, changes, after)
    path = Path(tmp_path_factory.getbasetemp()) / ("f.warc.gz" if gzipped else "f.warc")
    fuzzing.check_reader(data, path, fuzzing.Tally(), BUDGET_SECONDS)
