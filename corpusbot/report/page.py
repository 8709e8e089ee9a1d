"""The report as one self-contained HTML page: inline SVG charts, tables, escaped samples.

No script, no external stylesheet, font or image: the file opens offline
and can be mailed or archived as it is. Every string from the corpus
(URLs, titles, texts, reasons, domains) is escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from corpusbot.report import charts, funnel
from corpusbot.report.tally import PROB_BINS, WORD_EDGES, Tally

TOP_DOMAINS = 25
TOP_LANGUAGES_PLOTTED = 10
_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.15em .7em;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}tr:nth-child(even){background:#f6f6f6}
tr.loss td{color:#a33}svg{max-width:100%;height:auto}.doc{border-left:3px solid #ccd;
padding:.2em .8em;margin:.8em 0}.doc pre{white-space:pre-wrap;font:13px/1.4 serif}
.meta{color:#666;font-size:.9em;word-break:break-all}
"""


def render(folder: str, manifest: dict[str, Any], crawls: list[dict[str, Any]],
           tally: Tally) -> str:
    """The whole page."""
    sections = [_overview(folder, manifest, tally), _languages(tally), _distributions(tally),
                _funnel(manifest, crawls), _dedup(manifest), _domains(tally),
                _sites(crawls), _runs(manifest), _samples(tally)]
    body = "\n".join(section for section in sections if section)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width">'
            f"<title>corpus report: {escape(folder)}</title><style>{_CSS}</style></head>"
            f"<body>\n{body}\n</body></html>\n")


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]],
           classes: Iterable[str] = ()) -> str:
    numeric = [h.startswith("#") for h in head]
    cells = "".join(f'<th class="n">{escape(h[1:])}</th>' if n else f"<th>{escape(h)}</th>"
                    for h, n in zip(head, numeric, strict=True))
    lines = [f"<table><tr>{cells}</tr>"]
    for row, css in zip(rows, [*classes] or _forever(""), strict=False):
        tds = "".join(f'<td class="n">{_number(v)}</td>' if n else f"<td>{escape(str(v))}</td>"
                      for v, n in zip(row, numeric, strict=True))
        lines.append(f'<tr class="{css}">{tds}</tr>' if css else f"<tr>{tds}</tr>")
    return "\n".join([*lines, "</table>"])


def _forever(value: str) -> Iterable[str]:
    while True:
        yield value


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.1%}" if value <= 1 else f"{value:,.1f}"
    return f"{value:,}" if isinstance(value, int) else escape(str(value))


def _overview(folder: str, manifest: dict[str, Any], tally: Tally) -> str:
    words = sum(t.words for t in tally.languages.values())
    rows = [("documents", manifest.get("documents", 0)), ("words", words),
            ("languages", len(tally.languages)), ("pages processed", manifest.get("pages", 0)),
            ("domains", len(tally.domains)), ("records read from the shards",
                                              sum(t.documents for t in tally.languages.values())),
            ("updated", manifest.get("updated", "?")),
            ("corpusbot", manifest.get("corpusbot", "?"))]
    return (f"<h1>Corpus report: {escape(folder)}</h1>"
            + _table(["what", "#value"], rows))


def _ordered(tally: Tally) -> list[str]:
    return sorted(tally.languages, key=lambda lang: (-tally.languages[lang].documents, lang))


def _languages(tally: Tally) -> str:
    langs = _ordered(tally)
    if not langs:
        return "<h2>Languages</h2><p>No documents yet.</p>"
    total = sum(tally.languages[lang].documents for lang in langs) or 1
    rows = [(lang, t.documents, t.documents / total, t.words, t.words / max(t.documents, 1))
            for lang in langs for t in [tally.languages[lang]]]
    chart = charts.panels(langs, {"documents per language": [r[1] for r in rows],
                                  "words per language": [r[3] for r in rows]})
    return ("<h2>Languages</h2>" + chart
            + _table(["language", "#documents", "#share", "#words", "#words per document"], rows))


def _distributions(tally: Tally) -> str:
    langs = _ordered(tally)[:TOP_LANGUAGES_PLOTTED]
    if not langs:
        return ""
    edges = [0.5, *WORD_EDGES, WORD_EDGES[-1] * 2]
    lengths = charts.histograms(edges, {lang: tally.languages[lang].lengths for lang in langs},
                                "Words per document", "words (log scale)", log_x=True)
    prob_edges = [i / PROB_BINS for i in range(PROB_BINS + 1)]
    probs = charts.histograms(prob_edges, {lang: tally.languages[lang].probs for lang in langs},
                              "Language probability (lang_prob)", "lang_prob")
    return f"<h2>Lengths</h2>{lengths}<h2>Language probability</h2>{probs}"


def _funnel(manifest: dict[str, Any], crawls: list[dict[str, Any]]) -> str:
    stages = funnel.funnel(manifest, crawls)
    steps = [s for s in stages if not s.loss]
    chart = charts.bars([s.name for s in steps], {"count": [s.count for s in steps]},
                        "From input to kept documents", "count")
    losses = [s for s in stages if s.loss]
    if losses:
        chart += charts.bars([s.name.split(": ", 1)[1] for s in losses],
                             {"count": [s.count for s in losses]},
                             "Why pages were skipped or rejected", "count")
    table = _table(["stage", "#count"], [(s.name, s.count) for s in stages],
                   ["loss" if s.loss else "" for s in stages])
    return f"<h2>Funnel</h2>{chart}{table}"


def _dedup(manifest: dict[str, Any]) -> str:
    rows = [(level, entering, dropped, dropped / entering if entering else 0.0)
            for level, entering, dropped in funnel.dedup_rates(manifest)]
    if not rows:
        return "<h2>Deduplication</h2><p>No dedup level ran.</p>"
    chart = charts.bars([r[0] for r in rows], {"dropped %": [100 * r[3] for r in rows]},
                        "Share dropped at each dedup level", "% of the pages reaching it")
    return ("<h2>Deduplication</h2>" + chart
            + _table(["level", "#pages reaching it", "#dropped", "#rate"], rows))


def _domains(tally: Tally) -> str:
    top = tally.domains.most_common(TOP_DOMAINS)
    if not top:
        return ""
    chart = charts.bars([d for d, _ in top], {"documents": [c for _, c in top]},
                        f"Top {len(top)} domains by documents kept", "documents")
    return f"<h2>Domains</h2><p>{len(tally.domains):,} domains.</p>{chart}"


def _sites(crawls: list[dict[str, Any]]) -> str:
    table = funnel.sites(crawls)
    if not table:
        return ""
    top = list(table.items())[:TOP_DOMAINS]
    chart = charts.bars([site for site, _ in top],
                        {column: [row[column] for _, row in top]
                         for column in funnel.SITE_COLUMNS}, "Crawled sites", "pages")
    rows = [(site, *row.values()) for site, row in table.items()]
    return ("<h2>Crawled sites</h2>" + chart
            + _table(["site", *(f"#{c}" for c in funnel.SITE_COLUMNS)], rows))


def _runs(manifest: dict[str, Any]) -> str:
    runs = funnel.runs(manifest)
    if not runs:
        return ""
    latest = manifest.get("options") or {}
    rows = [(r.get("run", "?"), r["part"], r.get("started") or "", r.get("ended") or "",
             r.get("status", "?"), _mode(r.get("options", latest))) for r in runs]
    return "<h2>Runs</h2>" + _table(["#run", "folder", "started", "ended", "status", "mode"],
                                    rows)


def _mode(options: dict[str, Any]) -> str:
    """The extraction mode of a run: its ``extract`` step's, with the preset beside it."""
    processor = options.get("processor") or {}
    steps = processor.get("steps", []) if isinstance(processor, dict) else []
    modes = [str(s.get("mode", "")) for s in steps if isinstance(s, dict)
             and s.get("step") == "extract"]
    preset = processor.get("preset") if isinstance(processor, dict) else None
    return f"{modes[0]} ({preset})" if modes and preset else (modes[0] if modes else "")


def _samples(tally: Tally) -> str:
    parts = ["<h2>Random documents</h2>"]
    for lang in _ordered(tally):
        parts.append(f"<h3>{escape(lang)}</h3>")
        parts += [_document(sample) for sample in tally.languages[lang].samples]
    return "\n".join(parts)


def _document(sample: dict[str, Any]) -> str:
    url = str(sample.get("url") or "")
    source = sample.get("source") or {}
    where = (f"{source.get('file')} @ {source.get('offset')}"
             if isinstance(source, dict) and source.get("type") == "archive" else "crawl")
    title = escape(str(sample.get("title") or "(no title)"))
    text = escape(sample["text"]) + (" …" if sample["cut"] else "")
    return (f'<div class="doc"><b>{title}</b><div class="meta">{escape(url)}<br>'
            f"{sample.get('n_words')} words · lang_prob {sample.get('lang_prob')} · "
            f"source: {escape(where)} · fetched {escape(str(sample.get('fetched_at')))}</div>"
            f"<pre>{text}</pre></div>")
