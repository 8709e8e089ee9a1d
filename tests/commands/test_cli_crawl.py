"""``corpusbot crawl`` refuses bad settings before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpusbot.cli import main
from corpusbot.commands.exitcodes import EXIT_USAGE


@pytest.mark.parametrize("setting", ["CORPUSBOT_PROCESS_MODE=fast",
                                     "CORPUSBOT_PROCESS_MIN_WORDS=many",
                                     "CORPUSBOT_CORPUS_COMPRESSION=rar"])
def test_a_bad_setting_is_a_usage_error_and_nothing_is_written(
        tmp_path: Path, setting: str, caplog: pytest.LogCaptureFixture) -> None:
    out = tmp_path / "out"
    assert main(["crawl", "http://127.0.0.1:9/", "-o", str(out), "-q", "-s", setting]) == (
        EXIT_USAGE)
    assert not out.exists()
    assert setting.split("=", maxsplit=1)[0].rsplit("_", 1)[0][:18] in caplog.text
