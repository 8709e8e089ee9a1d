"""What each step of ``default``'s composition decided about a page's blocks.

``composition.compose_stages`` fills it on the way to the kept blocks, so a
learned step over the composition (``benchmarks/stacked_refiner.py``) reads
every algorithm's verdict without running any of them twice. Block sets are
of ``id(block)``, as the composition keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from corpusbot.extraction import justext
from corpusbot.extraction.default.containers import ContainerNames
from corpusbot.html.blocks import Block


@dataclass(slots=True)
class Stages:
    """The composition's verdicts on one page, step by step, and its kept blocks."""

    classes: list[justext.Class]
    """jusText's class of each block, in block order."""
    by_boilerpipe: set[int]
    """The blocks Boilerpipe selects."""
    agreed: set[int]
    """The blocks both algorithms select."""
    names: ContainerNames
    """The container names as the composition read them (its holders exempt)."""
    candidates: set[int]
    """The selected blocks left after the container names and the side column."""
    found: dict[etree._Element, list[Block]]
    """The candidates' grandparent groups."""
    region: set[int]
    """The article region with its lead (step 3)."""
    inside: set[int]
    """The blocks recovered inside the region's span (step 4), beyond the region."""
    in_landmark: set[int]
    """The blocks the landmark gave (step 4), beyond those."""
    listed: set[int]
    """The blocks the listing regions added (step 5)."""
    kept: list[Block]
    """What ``compose`` returns."""
