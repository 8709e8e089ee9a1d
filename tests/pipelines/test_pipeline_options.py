"""The crawl's route to the processing steps: the same preset and overrides as the CLI."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.pipelines.options import check_settings, processor_options
from corpusbot.processor import Processor


def options(**values: object):
    return processor_options(CorpusbotSettings(Settings(values)))


def test_no_setting_gives_the_cli_default_steps() -> None:
    steps = Processor(options()).steps
    assert [step.name for step in steps] == ["extract", "language", "length", "nonletters",
                                             "fingerprints"]
    assert steps[2].options.min_words == 50


def test_preset_set_and_shortcut_settings_reach_the_steps() -> None:
    chosen = options(CORPUSBOT_PROCESS_PRESET="none",
                     CORPUSBOT_PROCESS_SET={"extract.mode": "justext"},
                     CORPUSBOT_PROCESS_LANGUAGES=["de", "fr"])
    steps = Processor(chosen).steps
    assert [step.name for step in steps] == ["extract", "language", "fingerprints"]
    assert steps[0].options.mode == "justext"
    assert steps[1].options.allowed == frozenset({"de", "fr"})


def test_a_setting_given_as_text_on_the_command_line_is_parsed() -> None:
    # scrapy crawl -s CORPUSBOT_PROCESS_MIN_WORDS=30 gives a string
    steps = Processor(options(CORPUSBOT_PROCESS_MIN_WORDS="30",
                              CORPUSBOT_PROCESS_SET='{"nonletters.max_ratio": "0.5"}')).steps
    assert steps[2].options.min_words == 30 and steps[3].options.max_ratio == 0.5


def test_a_bad_step_setting_stops_the_crawl_in_one_line() -> None:
    settings = CorpusbotSettings(Settings({"CORPUSBOT_PROCESS_SET": {"length.min_words": "x"}}))
    with pytest.raises(ValueError, match=r"invalid CORPUSBOT_PROCESS_ setting: step length: "
                                         r"option min_words: not a int"):
        check_settings(settings)
