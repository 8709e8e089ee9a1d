"""One manifest over several corpus folders: the tasks of a Dask run, or crawl processes.

Each folder stays a complete corpus with its own ``manifest.json`` (written
at its own commits); the merged manifest adds their counts, lists every
shard with its path relative to the merged folder, and every input and run.
Folders that share one Redis dedup index hold no document twice, so adding
their counts gives the counts of the whole corpus.
"""

from __future__ import annotations

import json
import logging
import os
from collections import Counter
from pathlib import Path
from typing import Any

from corpusbot import __version__
from corpusbot.corpus.card import write_card
from corpusbot.corpus.checkpoint import now
from corpusbot.corpus.layout import Layout
from corpusbot.document import SCHEMA_VERSION

logger = logging.getLogger(__name__)


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """The folder's committed manifest, or None when it has none yet (or an unreadable one)."""
    try:
        return json.loads(Layout(folder).manifest.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        logger.warning("skipping %s: unreadable manifest (%s)", folder, error)
        return None


def merge_manifests(root: Path, folders: list[Path]) -> dict[str, Any]:
    """The manifest of the corpus made of ``folders`` (paths relative to ``root``)."""
    totals: Counter[str] = Counter()
    languages: dict[str, dict[str, Any]] = {}
    rejections: Counter[str] = Counter()
    archive: Counter[str] = Counter()
    html: Counter[str] = Counter()
    inputs, parts = [], []
    rejects: dict[str, list[dict[str, Any]]] = {}
    for folder in sorted(folders):
        manifest = read_manifest(folder)
        if manifest is None:
            continue
        where = os.path.relpath(folder, root)
        parts.append({"folder": where, "documents": manifest["documents"],
                      "runs": manifest.get("runs", [])})
        totals.update(documents=manifest["documents"], pages=manifest["pages"])
        rejections.update(manifest.get("rejections", {}))
        archive.update(manifest.get("archive", {}))
        html.update(manifest.get("html", {}))
        inputs += manifest.get("inputs", [])
        _add_languages(languages, manifest.get("languages", {}), where)
        for stage, shards in manifest.get("rejects", {}).items():
            rejects.setdefault(stage, []).extend(
                {**shard, "file": f"{where}/{shard['file']}"} for shard in shards)
    return {"schema": SCHEMA_VERSION, "corpusbot": __version__, "updated": now(),
            "documents": totals["documents"], "pages": totals["pages"],
            "languages": dict(sorted(languages.items())),
            "rejections": dict(sorted(rejections.items())),
            "rejects": dict(sorted(rejects.items())),
            "archive": dict(sorted(archive.items())), "html": dict(sorted(html.items())),
            "inputs": inputs, "parts": parts,
            "runs": [run for part in parts for run in part["runs"]],
            **_same_in_all(folders)}


def _same_in_all(folders: list[Path]) -> dict[str, Any]:
    """The format and compression, when every folder has the same (the card names them)."""
    found = [read_manifest(folder) or {} for folder in folders]
    return {key: found[0][key] for key in ("format", "compression")
            if found and key in found[0] and all(m.get(key) == found[0][key] for m in found)}


def _add_languages(languages: dict[str, dict[str, Any]], more: dict[str, Any], where: str) -> None:
    for lang, entry in more.items():
        merged = languages.setdefault(lang, {"documents": 0, "words": 0, "shards": []})
        merged["documents"] += entry["documents"]
        merged["words"] += entry["words"]
        merged["shards"] += [{**shard, "file": f"{where}/{shard['file']}"}
                             for shard in entry["shards"]]


def write_merged_manifest(root: Path, folders: list[Path]) -> dict[str, Any]:
    """Merge and write ``root/manifest.json`` and the dataset card, each atomically; returns
    the manifest."""
    manifest = merge_manifests(root, folders)
    layout = Layout(root)
    temporary = layout.manifest.with_name(layout.manifest.name + ".tmp")
    temporary.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    os.replace(temporary, layout.manifest)
    write_card(layout, manifest)
    return manifest
