# ruff: noqa: RUF001  (the apostrophes and quotes of the table are the point here)
"""The table of special cases of spaCy's English tokeniser, which overrides its rules for a
whole chunk ("don't" is "do", "n't"; "Mr." stays whole; ":)" is one token): contractions
with either apostrophe and, where not an English word, without one; times ("5pm"); the
abbreviations and initials that keep their period; clipped words ("'cause", "doin'");
emoticons. Checked entry by entry against spaCy's in tests/filters/test_english.py.
"""

from __future__ import annotations

import string

from corpusbot.filters.scripts import ABBREVIATIONS


def _contractions() -> dict[str, list[str]]:
    """English contractions as spaCy splits them ("they'd've": "they", "'d", "'ve")."""
    wh = "there these those what when where who why how".split()
    negated = "ca could did does do had may might must need ought sha should wo would".split()
    clitics = {
        "'d": ["i", "you", "he", "she", "it", "we", "they", "that", "this", *wh],
        "'ll": ["i", "you", "he", "she", "it", "we", "they", "that", "this", *wh],
        "'s": ["he", "she", "it", "let", "that", "this",
               *[w for w in wh if w not in ("these", "those")]],
        "'re": ["you", "we", "they", *wh],
        "'ve": ["i", "you", "we", "they", *wh, "could", "might", "must", "should", "would",
                "not"],
        "'m": ["i"],
        "n't": ["ai", "are", "dare", "has", "have", "is", "was", "were", *negated],
    }
    forms: dict[str, list[str]] = {}
    for clitic, stems in clitics.items():
        for stem in stems:
            forms[stem + clitic] = [stem, clitic]
            if clitic in ("'d", "'ll") or (clitic == "n't" and stem in negated):
                forms[stem + clitic + "'ve"] = [stem, clitic, "'ve"]
    forms.update({"i'ma": ["i", "'m", "a"], "how'd'y": ["how", "'d", "'y"],
                  "c'mon": ["c'm", "on"]})
    return forms


# Without an apostrophe spaCy splits the same forms, except where they are English words.
_WORDS_NOT_CONTRACTIONS = frozenset({"hell", "ill", "shed", "shell", "well", "were", "its",
                                     "lets", "cmon", "howdy", "whore"})
_NUMBER_TIMES = [(f"{hour}{half}", [str(hour), half]) for hour in range(1, 13)
                 for half in ("am", "pm", "a.m.", "p.m.")]
_EMOTICONS = """
:) :)) :))) :-) :-)) :-))) :( :(( :((( :-( :-(( :-((( :() :* :-* :/ :-/ :0 :-0 :1 :3 :-3 :> :->
:] :-] :} :-} :| :-| :D :-D :O :-O :o :-o :P :-P :p :-p :X :-X :x :-x :o) :'( :') :'-( :'-)
:’( :’) :’-( :’-) ;) ;-) ;D ;-D ;_; =( =) =/ =3 =D =[ =] =| ): )-: (: (-: (; (-; (= (-8 (o:
[: [-: [= ]= 8) 8-) 8D 8-D <3 <33 <333 </3 <.< >.< >.> >:( >:o ><(((*> @_@ ^_^ ^__^ ^___^ -_-
-__- ._. 0.0 0.o o.0 o.o o.O O.o O.O 0_0 0_o o_0 o_o o_O O_o O_O v.v V.V v_v V_V xD xDD XD XDD
(*_*) (-_-) (._.) (>_<) (^_^) (¬_¬) (ಠ_ಠ) ಠ_ಠ ಠ︵ಠ ¯\\(ツ)/¯ (╯°□°）╯︵┻━┻
""".split()


def _special_cases() -> dict[str, list[str]]:
    cases: dict[str, list[str]] = {}
    for form, parts in _contractions().items():
        bare = form.replace("'", "")
        variants = [(form, parts), (form.replace("'", "’"), [p.replace("'", "’") for p in parts])]
        if bare not in _WORDS_NOT_CONTRACTIONS:
            variants.append((bare, [p.replace("'", "") for p in parts]))
        for text, pieces in variants:
            cases[text] = pieces
            cases[text[0].upper() + text[1:]] = [pieces[0][0].upper() + pieces[0][1:], *pieces[1:]]
    for text, pieces in (("y'all", ["y'", "all"]), ("y’all", ["y’", "all"]), ("yall", ["y", "all"]),
                         ("cannot", ["can", "not"]), ("gonna", ["gon", "na"]),
                         ("gotta", ["got", "ta"])):
        cases[text] = pieces
        if not text.startswith("y"):
            cases[text.title()] = [pieces[0].title(), *pieces[1:]]
    cases.update(_NUMBER_TIMES)
    for degree in "CFKcfk":
        cases[f"°{degree}."] = ["°", degree, "."]
    whole = [*(f"{a}." for a in ABBREVIATIONS), *(f"{c}." for c in string.ascii_lowercase + "äöü"),
             "a.m.", "p.m.", "e.g.", "E.g.", "E.G.", "i.e.", "I.e.", "I.E.", "Ph.D.", "vs.",
             "v.s.", "and/or", "w/o", "''", "’’", "Ill.", "Id.", *_EMOTICONS]
    for clitic in ("s", "S", "d", "ll", "re", "em", "bout", "cause", "cos", "coz", "cuz", "nuff",
                   "Cause", "Cos", "Coz", "Cuz"):
        whole += [f"'{clitic}", f"’{clitic}"]
    whole += ["‘s", "‘S"]
    for word in ("o'clock", "ma'am", "doin'", "goin'", "havin'", "lovin'", "nothin'", "nuthin'",
                 "somethin'", "ol'"):
        for text in (word, word.replace("'", "’"), word.rstrip("'")):
            whole += [text, text[0].upper() + text[1:]]
    whole += ["em", "ll", "nuff", "'", "’", "—", "C++", "<space>", "\\n", "\\t", '\\")',
              *(f"{state}." for state in ("D.C", "N.C", "N.D", "N.H", "N.J", "N.M", "N.Y", "S.C"))]
    cases.update((text, [text]) for text in whole)
    return cases


SPECIAL_CASES = _special_cases()
"""Chunks spaCy's English tokeniser splits (or keeps whole) by its table, not its rules."""
