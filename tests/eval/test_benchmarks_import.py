"""Every script of ``benchmarks/`` imports against the package as it is now.

The scripts are not part of the package, so a module moved or renamed inside
it breaks them silently: two scripts imported ``corpusbot.dedup.options``
for sessions after it moved to ``corpusbot.fingerprints``. They are imported
in a child process, so their top-level names stay out of this one's
``sys.modules``; a missing third-party package (a reference extractor not
installed here) is not the package's concern and is only reported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import corpusbot
from tests.conftest import REPO

IMPORT_ALL = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
broken, missing = {}, {}
for name in sys.argv[2:]:
    try:
        importlib.import_module(name)
    except ImportError as exc:
        if (exc.name or "").split(".")[0] == "corpusbot":
            broken[name] = repr(exc)
        else:
            missing[name] = exc.name
    except Exception as exc:
        broken[name] = repr(exc)
print(json.dumps({"broken": broken, "missing": missing}))
"""


@pytest.mark.skipif(
    Path(corpusbot.__file__).resolve().parent != REPO / "corpusbot",
    reason="the scripts put the repository first on sys.path, so they run against an editable "
    "install; an installed (compiled) corpusbot would be shadowed by its sources here")
def test_every_benchmark_script_imports():
    scripts = sorted(p.stem for p in (REPO / "benchmarks").glob("*.py"))
    assert "folds" in scripts and "error_classes" in scripts
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, str(REPO / "benchmarks"), *scripts],
        capture_output=True, text=True, timeout=300, cwd=REPO, check=True)
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["broken"] == {}
    if found["missing"]:
        print("not importable here (third-party packages missing):", found["missing"])
