"""Regenerate stopwords/<code>.txt and stopwords/README.md from the jusText stop lists.

jusText names its lists by English language name (``English.txt``); corpusbot
names them by language code so that a detected or declared language finds its
list directly. The table below is the one place that maps the two; the script
refuses to run when jusText ships a list the table does not name, so a new
jusText release cannot silently drop a language.

Run from the repository root, with jusText installed (``pip install -e .[dev]``):

    python3 scripts/make_stopwords.py            # rewrite the files
    python3 scripts/make_stopwords.py --check    # exit 1 if they are out of date
"""

from __future__ import annotations

import argparse
import logging
import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

log = logging.getLogger("make_stopwords")

OUT_DIR = Path(__file__).resolve().parents[1] / "stopwords"
DISTRIBUTION = "jusText"

# jusText list name -> code: ISO 639-1 where the language has one, else ISO 639-3.
# Two are not plain language codes and are spelled as BCP 47 tags:
#   be-tarask  Belarusian in the Taraškievica orthography (the registered
#              variant subtag "tarask", also Wikipedia's code for that edition);
#   en-simple  the Simple English Wikipedia list, kept apart from "en" so that
#              English pages use the full English list and "en-simple" is only
#              chosen when asked for by name.
# "sh" (Serbo-Croatian) was withdrawn from ISO 639-1 but is still the code of
# that Wikipedia edition and of the language in CLDR; its ISO 639-3 code is "hbs".
CODES: dict[str, str] = {
    "Afrikaans": "af", "Albanian": "sq", "Arabic": "ar", "Aragonese": "an",
    "Armenian": "hy", "Aromanian": "rup", "Asturian": "ast", "Azerbaijani": "az",
    "Basque": "eu", "Belarusian": "be", "Belarusian_Taraskievica": "be-tarask",
    "Bengali": "bn", "Bishnupriya_Manipuri": "bpy", "Bosnian": "bs", "Breton": "br",
    "Bulgarian": "bg", "Catalan": "ca", "Cebuano": "ceb", "Chuvash": "cv",
    "Croatian": "hr", "Czech": "cs", "Danish": "da", "Dutch": "nl", "English": "en",
    "Esperanto": "eo", "Estonian": "et", "Finnish": "fi", "French": "fr",
    "Galician": "gl", "Georgian": "ka", "German": "de", "Greek": "el",
    "Gujarati": "gu", "Haitian": "ht", "Hebrew": "he", "Hindi": "hi",
    "Hungarian": "hu", "Icelandic": "is", "Ido": "io", "Igbo": "ig",
    "Indonesian": "id", "Irish": "ga", "Italian": "it", "Javanese": "jv",
    "Kannada": "kn", "Kazakh": "kk", "Korean": "ko", "Kurdish": "ku", "Kyrgyz": "ky",
    "Latin": "la", "Latvian": "lv", "Lithuanian": "lt", "Lombard": "lmo",
    "Low_Saxon": "nds", "Luxembourgish": "lb", "Macedonian": "mk", "Malay": "ms",
    "Malayalam": "ml", "Maltese": "mt", "Marathi": "mr", "Neapolitan": "nap",
    "Nepali": "ne", "Newar": "new", "Norwegian_Bokmal": "nb",
    "Norwegian_Nynorsk": "nn", "Occitan": "oc", "Persian": "fa",
    "Piedmontese": "pms", "Polish": "pl", "Portuguese": "pt", "Quechua": "qu",
    "Romanian": "ro", "Russian": "ru", "Samogitian": "sgs", "Serbian": "sr",
    "Serbo_Croatian": "sh", "Sicilian": "scn", "Simple_English": "en-simple",
    "Slovak": "sk", "Slovenian": "sl", "Spanish": "es", "Sundanese": "su",
    "Swahili": "sw", "Swedish": "sv", "Tagalog": "tl", "Tamil": "ta",
    "Telugu": "te", "Turkish": "tr", "Turkmen": "tk", "Ukrainian": "uk",
    "Urdu": "ur", "Uzbek": "uz", "Vietnamese": "vi", "Volapuk": "vo",
    "Walloon": "wa", "Waray_Waray": "war", "Welsh": "cy", "West_Frisian": "fy",
    "Western_Panjabi": "pnb", "Yoruba": "yo",
}

README_HEAD = """\
# Stop-word lists

One list per language, `<code>.txt`: one word per line, lower-cased, sorted
by code point, UTF-8, no duplicates. `corpusbot.language.stoplists` loads them; the
jusText classifier measures stop-word density with them, and pages whose
language has no list use the union of all lists (jusText's
language-independent mode).

## Provenance

The words are the stop lists of the jusText project
(<https://github.com/miso-belica/jusText>, distribution `{dist}` version
{version}), which its authors built from word frequencies of the Wikipedia
edition in each language. corpusbot changes only the form: file names are
language codes, words are lower-cased (as `justext.get_stoplist` does when
loading), duplicates that lower-casing creates are merged, and lines are
sorted. No word is added or removed.

## Regenerating

With jusText installed (`pip install -e .[dev]`), from the repository root:

    python3 scripts/make_stopwords.py           # rewrite lists and this file
    python3 scripts/make_stopwords.py --check   # exit 1 if anything is stale

The mapping lives in `scripts/make_stopwords.py`; the script stops with an
error when jusText ships a list the mapping does not name.

## Codes

ISO 639-1 where the language has a code there, else ISO 639-3. Two entries
are BCP 47 tags with a variant: `be-tarask` (Belarusian, Taraškievica
orthography) and `en-simple` (Simple English Wikipedia; English pages use
`en`, `en-simple` is used only when asked for by name). `sh` is
Serbo-Croatian (withdrawn from ISO 639-1, ISO 639-3 `hbs`, still the code of
its Wikipedia edition).

| code | jusText list | words |
|---|---|---|
"""

README_LICENCE = """
## Licence of the lists

The lists are distributed under jusText's BSD 2-Clause licence, whose notice
follows as that licence requires.

```
{licence}
```
"""


def justext_lists() -> tuple[dict[str, str], str, str]:
    """Read jusText's stop lists, licence text and version from its installed distribution."""
    dist = distribution(DISTRIBUTION)
    lists: dict[str, str] = {}
    licence = ""
    for file in dist.files or ():
        parts = file.parts
        if parts[-2:-1] == ("stoplists",) and file.suffix == ".txt":
            lists[file.stem] = file.read_text(encoding="utf-8")
        elif file.name.upper().startswith("LICEN"):
            licence = file.read_text(encoding="utf-8").strip()
    return lists, licence, dist.version


def normalise(raw: str) -> list[str]:
    """Lower-case, de-duplicate and sort the words of one list."""
    return sorted({line.strip().lower() for line in raw.splitlines() if line.strip()})


def render(lists: dict[str, str], licence: str, version: str) -> dict[str, str]:
    """Every output file name with its content."""
    out: dict[str, str] = {}
    rows = []
    for name, raw in sorted(lists.items(), key=lambda item: CODES[item[0]]):
        words = normalise(raw)
        out[f"{CODES[name]}.txt"] = "\n".join(words) + "\n"
        rows.append(f"| `{CODES[name]}` | {name} | {len(words)} |\n")
    head = README_HEAD.format(dist=DISTRIBUTION, version=version)
    out["README.md"] = head + "".join(rows) + README_LICENCE.format(licence=licence)
    return out


def stale_files(files: dict[str, str]) -> list[str]:
    """Names of output files missing or different on disk, plus stray lists."""
    stale = [
        name for name, text in files.items()
        if not (OUT_DIR / name).is_file()
        or (OUT_DIR / name).read_text(encoding="utf-8") != text
    ]
    stray = [p.name for p in OUT_DIR.glob("*.txt") if p.name not in files]
    return stale + stray


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, verify) the stop-word files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify, do not write")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        lists, licence, version = justext_lists()
    except PackageNotFoundError:
        log.error("jusText is not installed: pip install -e .[dev]")
        return 1
    unmapped = sorted(set(lists) - set(CODES))
    if unmapped or not lists or not licence:
        log.error("cannot map jusText lists %s (licence found: %s)", unmapped, bool(licence))
        return 1
    files = render(lists, licence, version)
    if args.check:
        stale = stale_files(files)
        log.info("stale: %s", stale if stale else "none")
        return 1 if stale else 0
    for name, text in files.items():
        (OUT_DIR / name).write_text(text, encoding="utf-8", newline="\n")
    log.info("wrote %d lists and README.md to %s", len(files) - 1, OUT_DIR)
    return 0


if __name__ == "__main__":
    sys.exit(main())
