"""A minimum language probability, overall and per language.

FineWeb keeps English documents whose language score is at least 0.65;
FineWeb-2 sets a minimum per language, HPLT v2 drops below 0.5. The
probability read is ``state.lang_prob``, the one the language step measured
(see ``lang_source`` in the record for how the language was decided).

    --set lang_confidence.min_lang_prob=0.65
    --set lang_confidence.min_lang_prob_by_language=de=0.8,fr=0.7

A language listed in ``min_lang_prob_by_language`` uses its own minimum;
every other language ``min_lang_prob``. 0 switches the rule off.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from corpusbot.filters import validate
from corpusbot.steps import Drop, PageState, Step

NAME = "lang_confidence"
LOW_PROBABILITY = f"filter/{NAME}/low-probability"


@dataclass(slots=True, frozen=True)
class LangConfidenceOptions:
    """The minimum probability of the page's language: FineWeb's 0.65 by default."""

    min_lang_prob: float = 0.65
    min_lang_prob_by_language: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        validate.ratios(NAME, self, "min_lang_prob")
        for lang, minimum in self.min_lang_prob_by_language.items():
            if not 0.0 <= minimum <= 1.0:
                raise ValueError(f"{NAME}.min_lang_prob_by_language: {lang}={minimum} "
                                 "must be a probability in [0, 1]")

    def __hash__(self) -> int:
        return hash((self.min_lang_prob, tuple(sorted(self.min_lang_prob_by_language.items()))))

    def minimum(self, lang: str) -> float:
        """The minimum probability for a page in ``lang``."""
        return self.min_lang_prob_by_language.get(lang, self.min_lang_prob)


class LangConfidence(Step):
    """Drops pages whose language was identified with too low a probability."""

    name = NAME
    Options = LangConfidenceOptions
    reasons = (LOW_PROBABILITY,)
    summary = "language confidence: a minimum probability, overall and per language"

    def apply(self, state: PageState) -> Drop | None:
        minimum = self.options.minimum(state.lang)
        if minimum and state.lang_prob < minimum:
            return Drop(LOW_PROBABILITY, f"{state.lang} {state.lang_prob:.3f} < {minimum}")
        return None


def min_lang_prob_overrides(value: str) -> dict[str, object]:
    """The options a ``--min-lang-prob`` value sets: a number ("0.65") sets the overall
    minimum, pairs ("de=0.8,fr=0.7") the minimum of those languages, and both can be mixed
    ("0.5,de=0.8"). Raises ValueError in one line."""
    overall, by_language = None, {}
    for part in (p.strip() for p in value.split(",") if p.strip()):
        try:
            if "=" in part:
                lang, number = part.split("=", 1)
                by_language[lang.strip()] = float(number)
            else:
                overall = float(part)
        except ValueError:
            raise ValueError(f"--min-lang-prob: not a probability or lang=probability: "
                             f"{part!r}") from None
    overrides: dict[str, object] = {"min_lang_prob_by_language": by_language}
    if overall is not None:
        overrides["min_lang_prob"] = overall
    return overrides
