"""The article's questions and answers: the run of candidates right after its region.

Guides, reviews and service pages close with "Frequently asked questions": a
question (a heading, a numbered line, a button) and its answer, repeated. The
grandparent groups (``corpusbot.extraction.grandparent``) split that block off
from the body into small groups of its own, under ``default.MIN_GROUP_SHARE``
of the body's, and its lines (a "1.", a question) are too short for the
adjacent-sections rule; the article lost its last section. The run of
candidates that follows the region's last block without a break, inside the
element that holds the whole region, and ends on a block both algorithms
chose or on an answer (a block right after a question), joins the region when
``MIN_QUESTIONS`` of its blocks are questions.

Measured on wcxb-dev (pages of F1 gained, tuned-on folds 0-2 / held-out 3-4):
+0.27 / +0.24, 11 pages change, none loses. Any such run, without the
questions: +0.14 / +0.28, but it takes the boxes pages put after an article
(a call to action, an author's box, a newsletter line) and costs
multilingual-dev 0.0004; only the blocks both algorithms chose: +0.08 / +0.19,
the same loss there. Ending on an answer as well as on a block both chose: +0.08 /
+0.02 more (4 pages gain, none loses: plain questions and answers one algorithm
chose, then the site's footer), scrapinghub 0.9699 and multilingual-dev 0.9383 unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

from corpusbot.extraction import grandparent
from corpusbot.extraction.default.landmarks import common_ancestor
from corpusbot.html.blocks import Block, ends_with_question_mark

MIN_QUESTIONS = 2
"""A run with this many questions is a questions-and-answers section; one question is
a call to action's heading ("Want to know more?")."""


def with_questions(blocks: Sequence[Block], kept: Sequence[Block], candidates: Sequence[Block],
                   agreed: set[int]) -> list[Block]:
    """``kept`` and the questions-and-answers run right after its last block.

    ``blocks``: the page's; ``candidates``: those left after the container
    names; ``agreed``: ids of the blocks both algorithms chose. The element
    holding ``kept`` is looked for only on a page with such a run.
    """
    if not kept:
        return list(kept)
    allowed = {id(b) for b in candidates}
    run: list[Block] = []
    for block in blocks[kept[-1].position + 1:]:
        if id(block) not in allowed:
            break
        run.append(block)
    if sum(map(_is_question, run)) < MIN_QUESTIONS:
        return list(kept)
    holder = common_ancestor(kept)
    if holder is None:
        return list(kept)
    for end, block in enumerate(run):
        if not grandparent.is_inside(block.element, holder):
            run = run[:end]
            break
    # the run ends on a block both chose, or on an answer: what follows a question
    while run and id(run[-1]) not in agreed and not (len(run) > 1 and _is_question(run[-2])):
        run.pop()
    if sum(map(_is_question, run)) < MIN_QUESTIONS:
        return list(kept)
    return [*kept, *run]


def _is_question(block: Block) -> bool:
    return ends_with_question_mark(block.text)
