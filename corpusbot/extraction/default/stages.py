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
    candidate_blocks: list[Block]
    """The selected blocks left after the container names and the side column."""
    found: dict[etree._Element, list[Block]]
    """The candidates' grandparent groups."""
    region: set[int]
    """The article region with its lead (step 3)."""
    recovered: list[Block]
    """The kept blocks after the recovery inside the region's span (step 4)."""
    with_landmark: list[Block]
    """The kept blocks after the landmark's (step 4)."""
    before_listing: list[Block]
    """The kept blocks before the listing regions (step 5)."""
    with_listing: list[Block]
    """The kept blocks after them."""
    kept: list[Block]
    """What ``compose`` returns."""

    # The steps' lists are kept as they are and read as id sets only here: ``compose``
    # builds no set for these readings on every page.

    @property
    def candidates(self) -> set[int]:
        return _ids(self.candidate_blocks)

    @property
    def inside(self) -> set[int]:
        """The blocks recovered inside the region's span, beyond the region."""
        return _ids(self.recovered) - self.region

    @property
    def in_landmark(self) -> set[int]:
        """The blocks the landmark gave, beyond those."""
        return _ids(self.with_landmark) - _ids(self.recovered)

    @property
    def listed(self) -> set[int]:
        """The blocks the listing regions added."""
        return _ids(self.with_listing) - _ids(self.before_listing)


def _ids(blocks: list[Block]) -> set[int]:
    return {id(b) for b in blocks}
