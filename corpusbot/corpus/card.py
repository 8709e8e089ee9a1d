"""The dataset card: ``OUT/README.md`` in the Hugging Face form, rewritten at every commit.

A YAML header (languages, size category, one ``configs`` entry per
language whose ``data_files`` globs match that language's published
shards, those of later commits too), then how the corpus was built, read
from the manifest: sources, corpusbot version, extraction modes, filters
with their thresholds, dedup levels and counts. With it,
``datasets.load_dataset(OUT, name="en")`` reads the English shards, and the
folder can be pushed to a dataset hub as it is.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path, PurePosixPath
from typing import Any

from corpusbot.corpus.layout import Layout, shard_pattern
from corpusbot.document import RECORD_FIELDS

_NUMBERED = re.compile(r"-\d{5}(\..+)$")
_SIZES = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
          (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"),
          (1_000_000_000, "100M<n<1B")]


def size_category(documents: int) -> str:
    """The Hugging Face ``size_categories`` value for a number of records."""
    return next((name for bound, name in _SIZES if documents < bound), "n>1B")


def data_files(lang: str, shards: list[dict[str, Any]]) -> list[str]:
    """Globs matching the published shards of ``lang``: one per folder pattern (the corpus
    itself, ``*/`` for a shared crawl's workers, ``tasks/*/`` for a Dask run's tasks)."""
    patterns = []
    for shard in shards:
        path = PurePosixPath(shard["file"])
        ending = _NUMBERED.search(path.name)
        if not shard.get("complete") or ending is None:
            continue
        folders = path.parent.parent.parts
        prefix = "/".join([*folders[:-1], "*"]) + "/" if folders else ""
        pattern = prefix + shard_pattern(lang, ending.group(1))
        if pattern not in patterns:
            patterns.append(pattern)
    return patterns


def card_header(manifest: dict[str, Any]) -> str:
    """The YAML front matter (JSON-quoted scalars are YAML too)."""
    configs = {lang: data_files(lang, entry["shards"])
               for lang, entry in manifest.get("languages", {}).items()}
    configs = {lang: files for lang, files in configs.items() if files}
    lines = ["---", "language:"] + [f"- {lang}" for lang in configs or ["und"]]
    lines += ["size_categories:", f"- {size_category(manifest.get('documents', 0))}",
              "task_categories:", "- text-generation", "tags:", "- corpusbot"]
    if configs:
        lines.append("configs:")
    for lang, files in configs.items():
        lines += [f"- config_name: {lang}", "  data_files:", "  - split: train", "    path:"]
        lines += [f"    - {json.dumps(pattern)}" for pattern in files]
    return "\n".join([*lines, "---"])


def write_card(layout: Layout, manifest: dict[str, Any]) -> None:
    """Write ``README.md`` whole or not at all."""
    text = card_header(manifest) + "\n\n" + card_body(manifest, layout.root.name)
    temporary = layout.card.with_name(layout.card.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, layout.card)


def card_body(manifest: dict[str, Any], name: str) -> str:
    """The card's text: what the corpus holds, how it was built, how to load it."""
    sections = [f"# {name}", _summary(manifest), _contents(manifest), _building(manifest),
                _fields(), _loading(manifest)]
    return "\n\n".join(section for section in sections if section) + "\n"


def _summary(manifest: dict[str, Any]) -> str:
    return (f"Web text in {len(manifest.get('languages', {}))} languages, extracted, filtered "
            f"and deduplicated by corpusbot {manifest.get('corpusbot', '?')}: "
            f"{manifest.get('documents', 0):,} documents from {manifest.get('pages', 0):,} "
            f"pages, written as {manifest.get('format', 'jsonl')} "
            f"({manifest.get('compression', 'gzip')}). Last commit: {manifest.get('updated')}. "
            "The texts remain their authors' work; check the sources' terms before you "
            "share or train on them.")


def _contents(manifest: dict[str, Any]) -> str:
    rows = ["## Contents", "", "| language | documents | words | shards |", "|---|---:|---:|---:|"]
    for lang, entry in manifest.get("languages", {}).items():
        rows.append(f"| {lang} | {entry['documents']:,} | {entry['words']:,} | "
                    f"{len(entry['shards'])} |")
    return "\n".join(rows)


def _building(manifest: dict[str, Any]) -> str:
    processor = manifest.get("options", {}).get("processor", {})
    steps = {step.get("step"): step for step in processor.get("steps", [])}
    dedup = steps.pop("fingerprints", None)
    lines = ["## How it was built", "", f"- corpusbot version: {manifest.get('corpusbot')}",
             f"- sources: {_sources(manifest)}",
             f"- runs: {len(manifest.get('runs', []))} "
             f"({', '.join(sorted({r['status'] for r in manifest.get('runs', [])})) or 'none'})",
             f"- extraction modes: {', '.join(_modes(manifest)) or 'not recorded'}",
             f"- processing steps (preset {processor.get('preset', 'not recorded')}), "
             "in order, with their options:"]
    for name, step in steps.items():
        options = {k: v for k, v in step.items() if k != "step"}
        lines.append(f"  - {name}: " + ("; ".join(f"{k} {v}" for k, v in _flat(options))
                                         or "no options"))
    if dedup:
        lines.append(f"- dedup levels: {', '.join(dedup.get('levels', [])) or 'none'}")
        lines += [f"  - {key}: {value}" for key, value in _flat(dedup)
                  if key not in ("levels", "step")]
    lines.append(f"- pages read: {manifest.get('pages', 0):,}; kept: "
                 f"{manifest.get('documents', 0):,}; not kept, by reason:")
    lines += [f"  - {reason}: {count:,}"
              for reason, count in sorted(manifest.get("rejections", {}).items())]
    return "\n".join(lines)


def _sources(manifest: dict[str, Any]) -> str:
    inputs = [Path(entry["path"]).name for entry in manifest.get("inputs", [])]
    crawled = any(run.get("options", {}).get("source") == "crawl"
                  for run in manifest.get("runs", []))
    kinds = (["a web crawl"] if crawled else []) + (
        [f"{len(inputs)} archive file(s): {', '.join(inputs[:10])}"
         + (" ..." if len(inputs) > 10 else "")] if inputs else [])
    return "; ".join(kinds) or "not recorded"


def _modes(manifest: dict[str, Any]) -> list[str]:
    # A run lists its options only where they differ from the last run's (the manifest's).
    every = [manifest.get("options", {})] + [run.get("options", {})
                                             for run in manifest.get("runs", [])]
    modes = {str(step["mode"]) for options in every
             for step in (options.get("processor") or {}).get("steps", [])
             if step.get("step") == "extract" and "mode" in step}
    return sorted(modes)


def _flat(options: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    flat = []
    for key, value in sorted(options.items()):
        if isinstance(value, dict):
            flat += _flat(value, f"{prefix}{key}.")
        else:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else value
            flat.append((prefix + key, "any" if shown in ("", None) else str(shown)))
    return flat


def _fields() -> str:
    names = ", ".join(f"`{name}`" for name in RECORD_FIELDS)
    return ("## Record fields\n\n"
            f"{names}; described under \"Corpus schema\" in corpusbot's README. "
            "In Parquet shards `source` is a struct and `meta` a JSON string.")


def _loading(manifest: dict[str, Any]) -> str:
    lang = next(iter(manifest.get("languages", {})), "en")
    return ("## Loading\n\n```python\nfrom datasets import load_dataset\n\n"
            f'corpus = load_dataset("path/to/this/folder", name="{lang}", split="train")\n```')
