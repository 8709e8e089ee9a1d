"""Every package folder is listed in pyproject.toml: an editable install finds an unlisted
one, a wheel leaves it out (``corpusbot.filters`` was missing once)."""

from __future__ import annotations

import tomllib

from tests.conftest import REPO


def test_every_package_folder_is_listed_for_the_wheel() -> None:
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    folders = {".".join(path.parent.relative_to(REPO).parts)
               for path in (REPO / "corpusbot").rglob("__init__.py")}
    assert folders - listed == set()
