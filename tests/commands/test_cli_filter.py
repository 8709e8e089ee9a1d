"""``corpusbot filter``: a preset's steps over an existing JSONL corpus, into a new corpus."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from corpusbot.cli import main

PROSE = ("The committee said that it would publish the report on Monday, and that the members "
         "of the public who had written to it would be able to read all of it. ")
ARTICLE = "\n\n".join([
    "The city council met on Tuesday evening to discuss the new budget for the coming year. "
    "Several members argued that the plan to repair the old bridge should come first.",
    "After two hours of debate, the mayor proposed a compromise that would fund the bridge "
    "and delay the construction of a new parking garage near the station.",
    "Residents who attended the meeting were divided. Some welcomed the decision, while "
    "others said that the garage had been promised to them for more than a decade.",
    "The council will vote on the final version of the budget next month, and the mayor "
    "said she expected a clear majority to support it. The bridge work could begin in spring.",
])


def corpus_file(tmp_path: Path, records: list[object], name: str = "in.jsonl.gz") -> Path:
    path = tmp_path / name
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for record in records:
            out.write((record if isinstance(record, str) else json.dumps(record)) + "\n")
    return path


def written(out: Path) -> list[dict]:
    return [json.loads(line) for shard in sorted(out.glob("*/*.jsonl.gz"))
            for line in gzip.open(shard, "rt", encoding="utf-8")]


def test_a_corpus_is_refiltered_into_a_corpus_with_each_rule_counted(tmp_path, capsys):
    good = {"url": "https://example.org/good", "lang": "en", "lang_prob": 0.99,
            "text": ARTICLE}
    spam = {"url": "https://example.org/spam", "lang": "en", "lang_prob": 0.99,
            "text": "\n".join(["buy now"] * 80)}
    unsure = dict(good, url="https://example.org/unsure", lang_prob=0.4)
    source = corpus_file(tmp_path, [good, spam, unsure, "{not json", {"no": "text"}])
    out = tmp_path / "out"
    assert main(["filter", str(source), "-o", str(out), "--preset", "fineweb"]) == 0
    assert [r["url"] for r in written(out)] == ["https://example.org/good"]
    assert (out / "manifest.json").is_file()
    summary = capsys.readouterr().out
    assert "filter/lang_confidence/low-probability  1" in summary
    assert "input/bad-json  1" in summary and "input/not-a-record  1" in summary
    assert "filter/gopher_repetition/" in summary


def test_set_and_min_lang_prob_change_one_option(tmp_path):
    unsure = {"url": "https://example.org/u", "lang": "en", "lang_prob": 0.4,
              "text": ARTICLE}
    source = corpus_file(tmp_path, [unsure])
    assert main(["filter", str(source), "-o", str(tmp_path / "a"), "-q",
                 "--min-lang-prob", "0.3"]) == 0
    assert len(written(tmp_path / "a")) == 1
    assert main(["filter", str(source), "-o", str(tmp_path / "b"), "-q",
                 "--set", "lang_confidence.min_lang_prob=0.5"]) == 0
    assert written(tmp_path / "b") == []


def test_any_jsonl_with_a_text_field_is_read(tmp_path):
    plain = tmp_path / "plain.jsonl"
    plain.write_text(json.dumps({"text": ARTICLE}) + "\n")
    out = tmp_path / "out"
    assert main(["filter", str(plain), "-o", str(out), "-q", "--preset", "gopher"]) == 0
    assert [r["lang"] for r in written(out)] == ["und"]


@pytest.mark.parametrize(("option", "message"), [
    (["--set", "gopher_quality.min_doc_words=many"], "option min_doc_words: not a int"),
    (["--set", "nosuchstep.x=1"], "unknown step 'nosuchstep'"),
    (["--set", "c4.min_num_sentences=3"], "step 'c4' is not in preset 'fineweb-2'"),
    (["--set", "fineweb.short_line_thr=2"], "fineweb.short_line_thr must be a ratio"),
    (["--min-lang-prob", "de=high"], "--min-lang-prob: not a probability"),
])
def test_a_bad_option_exits_64_with_one_line(tmp_path, caplog, option, message):
    source = corpus_file(tmp_path, [{"text": PROSE}])
    preset = ["--preset", "fineweb-2"]
    assert main(["filter", str(source), "-o", str(tmp_path / "out"), *preset, *option]) == 64
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and message in errors[0]


def test_help_lists_the_presets(capsys):
    with pytest.raises(SystemExit):
        main(["filter", "--help"])
    assert "basic, fineweb, fineweb-2, gopher, c4, none" in capsys.readouterr().out
