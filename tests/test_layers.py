"""The layout's rules, read from the source: layers import one way and no module imports
another that imports it back (ARCHITECTURE.md, "Layout")."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

# Folder on disk -> the package it installs as.
ROOTS = {"corpusbot": "corpusbot", "spiders": "corpusbot.spiders",
         "pipelines": "corpusbot.pipelines"}
SINKS = ("corpusbot.dedup", "corpusbot.corpus")
CORE = ("corpusbot.html", "corpusbot.extraction", "corpusbot.language", "corpusbot.page",
        "corpusbot.document", "corpusbot.processor", "corpusbot.filters", "corpusbot.text",
        "corpusbot.fingerprints", "corpusbot.steps")
DATA = ("corpusbot.document", "corpusbot.page", "corpusbot.text", "corpusbot.fingerprints")
"""What the core hands the sinks: they may read these, and nothing else of the core."""
SOURCES = ("corpusbot.archive", "corpusbot.crawl", "corpusbot.spiders", "corpusbot.pipelines")
TOOLS = ("corpusbot.eval",)
"""Scoring against the gold sets: it reads and scores text, and imports no other layer."""


def _modules() -> dict[str, Path]:
    found = {}
    for folder, package in ROOTS.items():
        for path in (REPO / folder).rglob("*.py"):
            parts = list(path.relative_to(REPO / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The corpusbot modules ``path`` imports at module level (not inside functions)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name in known}


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: _imports(path, known) - {name} for name, path in known.items()}


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _package(name: str) -> str:
    """The package a module belongs to: ``corpusbot.<sub>`` (a top-level module is its own)."""
    return ".".join(name.split(".")[:2])


def _package_graph() -> dict[str, set[str]]:
    packages: dict[str, set[str]] = {}
    for name, others in _graph().items():
        mine = _package(name)
        packages.setdefault(mine, set()).update(_package(o) for o in others if _package(o) != mine)
    return packages


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every back edge found by a depth-first walk, as the cycle it closes."""
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph.get(name, ())):
            if state.get(other) == 1:
                cycles.append([*trail[trail.index(other):], other] if other in trail else [other])
            elif other not in state:
                visit(other, [*trail, other])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    return cycles


def test_no_package_imports_one_that_imports_it_back() -> None:
    assert not _cycles(_package_graph())


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = _graph()
    cycles = _cycles(graph)
    # a package importing its own submodules is no cycle of design
    real = [c for c in cycles if not all(c[0].startswith(n) or n.startswith(c[0]) for n in c)]
    assert not real


def test_sinks_import_neither_the_core_nor_a_source() -> None:
    wrong = {(name, other) for name, others in _graph().items() if _within(name, SINKS)
             for other in others if _within(other, CORE + SOURCES) and not _within(other, DATA)}
    assert not wrong


def test_the_core_imports_no_sink() -> None:
    wrong = {(name, other) for name, others in _graph().items() if _within(name, CORE)
             for other in others if _within(other, SINKS)}
    assert not wrong


def test_the_core_imports_no_source_and_the_spider_no_pipeline() -> None:
    graph = _graph()
    wrong = {(name, other) for name, others in graph.items() if _within(name, CORE)
             for other in others if _within(other, SOURCES)}
    wrong |= {("corpusbot.spiders.news", other) for other in graph["corpusbot.spiders.news"]
              if _within(other, ("corpusbot.pipelines",))}
    assert not wrong


def test_the_scorer_imports_nothing_of_the_other_layers() -> None:
    wrong = {(name, other) for name, others in _graph().items() if _within(name, TOOLS)
             for other in others if _within(other, SINKS + CORE + SOURCES)}
    assert not wrong
