"""A guide's closing questions and answers, split off from its body, are its text."""

from __future__ import annotations

from corpusbot import extract
from corpusbot.extraction.core import read_page
from corpusbot.extraction.default import continuation
from tests.extraction.test_default_mode import page

OPENINGS = (
    "Most houses built after the war can take one.", "The outdoor unit is quiet.",
    "A grant pays a part of it.", "The installer checks the radiators first.",
    "Floor heating suits it best.", "The hot water tank stays where it is.",
    "The cellar needs no changes.", "The meter is read twice a year.",
    "Noise rules set the distance to the fence.", "Solar panels help in summer.",
    "The warranty covers ten years.", "Service is due every second autumn.",
)
BODY = "".join(
    f"<p>{opening} The heat pump moves warmth from the air outside into the house, and in a "
    f"mild winter it does so at a third of what the old oil burner cost to run each month.</p>"
    f"<p>{opening.replace('The ', 'Then the ', 1)} Neighbours who changed last year say that "
    "the rooms feel the same as before, and that the bills of the first winter were lower.</p>"
    for opening in OPENINGS)
QUESTIONS = (
    ("How long does the installation take?",
     "Two or three days for a house of average size, and the water is off for one of them, "
     "while the old burner is taken out and the new tank is put in its place in the cellar."),
    ("Does it work when it freezes?",
     "Yes, down to twenty degrees below zero, though more slowly, and on the coldest nights "
     "a small electric heater inside the unit helps it to keep the rooms as warm as before."),
    ("Can I keep my radiators?",
     "Mostly, if they are large enough for water that is cooler than the oil burner gave them; "
     "the installer measures each room and replaces only the ones that are too small for it."),
)
ANSWERED = ("Ask the installer for the figures of your own house before you sign anything, "
            "since every house and every garden is a little different from the next one. The "
            "figures of the last winter, read from the meter of the old burner, are the best "
            "start for that reckoning, and most installers ask for them at the first visit.")
CALL = ("Want to know what it would cost for your house?",
        "Our advisers call you back within a day and visit you for free, and they bring the "
        "figures of the grants that your town and the state pay for a heat pump this year.")


def guide(closing: str) -> str:
    return page(
        "<main><article><h1>Heat pumps for older houses</h1>"
        f"<div class='body'><div class='text'>{BODY}{closing}</div></div></article></main>"
        "<footer><p>The Town Paper, Market Street 4</p></footer>",
        title="Heat pumps for older houses",
    )


def faq(pairs: tuple[tuple[str, str], ...]) -> str:
    items = "".join(
        f"<div class='item'><div class='q'><h3>{q}</h3></div>"
        f"<div class='a'><div class='inner'><p>{a} {ANSWERED}</p></div></div></div>"
        for q, a in pairs)
    return f"<section><div class='wrap'><h2>Frequently asked questions</h2>{items}</div></section>"


def test_the_questions_after_the_body_are_kept():
    text = extract(guide(faq(QUESTIONS))).text
    assert "at a third of what the old oil burner cost" in text
    assert "Does it work when it freezes?" in text
    assert "twenty degrees below zero" in text
    assert "replaces only the ones" in text


def test_a_call_to_action_of_one_question_after_the_body_is_not():
    text = extract(guide(faq((CALL,)))).text
    assert "at a third of what the old oil burner cost" in text
    assert "Our advisers call you back" not in text


def test_questions_whose_answers_one_algorithm_chose_end_on_an_answer():
    # A page's closing questions that only one algorithm chose (plain <p> questions and
    # answers straight after the body, then the site's footer): the run ends on an answer.
    html = guide(
        "<h2>Heat pump questions</h2>"
        + "".join(f"<p>{q}</p><p>{a}</p>" for q, a in QUESTIONS))
    blocks = read_page(html).page.blocks
    body = [b for b in blocks if "oil burner cost" in b.text or "Neighbours who" in b.text]
    candidates = [b for b in blocks if "Market Street" not in b.text]  # the footer is out
    kept = continuation.with_questions(blocks, body, candidates, {id(b) for b in body})
    added = [b.text for b in kept[len(body):]]
    assert added[0] == "Heat pump questions"
    assert added[-1].startswith("Mostly, if they are large enough")
    assert len(added) == 1 + 2 * len(QUESTIONS)
