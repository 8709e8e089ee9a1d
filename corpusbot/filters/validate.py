"""One-line checks of the quality steps' options; each raises ValueError naming the option."""

from __future__ import annotations

from typing import Any


def ratios(step: str, options: Any, *names: str) -> None:
    """Each named option is a ratio in [0, 1]."""
    for name in names:
        value = getattr(options, name)
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{step}.{name} must be a ratio in [0, 1], got {value}")


def non_negative(step: str, options: Any, *names: str) -> None:
    """Each named option is 0 or more."""
    for name in names:
        value = getattr(options, name)
        if value < 0:
            raise ValueError(f"{step}.{name} must be 0 or more, got {value}")
