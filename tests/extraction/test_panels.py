"""A product's sections in accordion or tab panels: the kept description brings the others."""

from __future__ import annotations

import pytest

from corpusbot import extract
from tests.extraction.test_default_mode import page

DESCRIPTION = (
    "<p>The toolkit is the one thing every fixer and hobbyist needs to take on any job, from "
    "a phone's battery to a game console's fan, and it fits in a drawer when the work is "
    "done.</p><p>Every tool in it has been designed again to be better: the driver turns "
    "smoothly, the bits are hardened steel, and the case holds each part in its own place so "
    "that nothing is lost on the bench.</p>"
)
SPECS = (("Driver material", "Anodized aluminium"), ("Foam", "EVA"), ("Bit metal", "S2 steel"),
         ("Case material", "ABS"), ("Part number", "TK-307-4"))


def product(panel: str) -> str:
    rows = "".join(f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in SPECS)
    items = "".join(
        f"<div class='item'><h3>{title}</h3>{panel.format(body)}</div>"
        for title, body in (("Description", DESCRIPTION), ("Specifications",
                                                          f"<table>{rows}</table>"))
    )
    return page(
        f"<div class='product'><h1>Pro toolkit</h1><div class='accordion'>{items}</div></div>"
        "<div class='links'><p><a href='/help'>Help</a> <a href='/jobs'>Jobs</a></p></div>",
        title="Pro toolkit",
    )


@pytest.mark.parametrize("panel", [
    "<div role='region' aria-labelledby='t'>{}</div>",
    "<div role='tabpanel'>{}</div>",
    "<details open><summary>More</summary>{}</details>",
])
def test_a_specification_panel_beside_the_kept_description_panel_is_kept(panel: str):
    text = extract(product(panel)).text
    assert "hardened steel" in text
    assert all(value in text for _, value in SPECS)
    assert "Jobs" not in text


def test_sections_that_are_no_panels_are_not_brought_in():
    text = extract(product("<div class='body'>{}</div>")).text
    assert "hardened steel" in text and "TK-307-4" not in text
