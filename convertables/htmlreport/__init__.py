"""The HTML report of a scoring run: one self-contained page (docs/scoring.md, "The HTML report").

The page holds its CSS and JavaScript (``page.css``, ``page.js`` beside this
module) and no reference to anything outside it; a Content-Security-Policy
forbids loading anything. At the top: the settings, the totals, a histogram of
the documents' headline figure (F1, TEDS, GriTS_Con...: each metric's name for
it; SVG, drawn here) and a sortable table of the documents. Then
a collapsed section a document; each document's detail (what
:meth:`~convertables.scoring.metric.Metric.explain` found, see
:mod:`convertables.scoring.explain`) is embedded as JSON text and drawn by the
script only when its section is opened, so a page of a thousand documents opens
as fast as its tables. Every text from the documents is escaped here or set as
text by the script, never parsed as markup.
"""

from __future__ import annotations

import html
import json
import os
import re
from importlib import resources
from pathlib import Path
from typing import Iterator, Mapping, TextIO

HISTOGRAM_BINS = 10
"""Bars of the headline histogram: [0, 0.1), [0.1, 0.2) ... [0.9, 1.0]."""

_LAST_COLUMNS = ("precision", "recall", "f1")
_KIND = re.compile(r'\{\s*"kind"\s*:\s*"(\w+)"')
_PAGES = re.compile(r'"pages"\s*:\s*\[\s*\{')
_NOT_COLUMNS = {"counted", "missing_result"}


def _esc(value) -> str:
    return html.escape(str(value), quote=True)


def _number(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}"
    return "" if value is None else str(value)


def _asset(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


class _Names:
    """What the metric calls its figures (:attr:`~convertables.scoring.metric.Metric.names`):
    the headline's name and key, and any key's name."""

    def __init__(self, metric_name: str):
        from ..scoring.metric import metrics

        metric = metrics().get(metric_name)
        self.names = dict(metric.names) if metric is not None else {"f1": "F1"}
        self.key = metric.headline if metric is not None else "f1"
        self.headline = self.of(self.key)

    def of(self, key: str) -> str:
        return self.names.get(key, key)


# -- the documents' table ---------------------------------------------------------------------------

def _columns(records: list[Mapping], names: _Names) -> list[tuple[str, str]]:
    """The documents' figures shown, as (key, heading): cTDaR's per threshold; any
    other metric's numbers as its records have them, precision, recall and F1 last
    (``f1`` left out where it repeats the headline of another key)."""
    if any("iou" in r for r in records):
        thresholds = next(list(r["iou"]) for r in records if "iou" in r)
        return ([("iou/" + thresholds[0] + "/gt", "gt"), ("iou/" + thresholds[0] + "/detected", "detected")]
                + [(f"iou/{t}/correct", f"correct@{t}") for t in thresholds]
                + [(f"iou/{t}/f1", f"F1@{t}") for t in thresholds] + [("f1", names.of("f1"))])
    keys: list[str] = []
    for record in records:
        for key, value in record.items():
            if (isinstance(value, (int, float)) and not isinstance(value, bool) and key not in keys
                    and key not in _NOT_COLUMNS and not (key == "f1" and names.key != "f1")):
                keys.append(key)
    keys = [k for k in keys if k not in _LAST_COLUMNS] + [k for k in _LAST_COLUMNS if k in keys]
    return [(k, names.of(k)) for k in keys]


def _value(record: Mapping, key: str):
    value = record
    for part in key.split("/"):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _status(record: Mapping) -> str:
    if "error" in record and not record.get("counted"):
        return "error"
    if "skipped" in record:
        return "skipped"
    if "error" in record:
        return "read error"
    return "" if record.get("counted") else "not counted"


def _documents_table(records: list[Mapping], columns: list[tuple[str, str]]) -> Iterator[str]:
    yield '<table class="sortable" id="documents-table"><thead><tr><th data-type="text">document</th>'
    for key, heading in columns:
        yield f'<th data-type="number" data-key="{_esc(key)}">{_esc(heading)}</th>'
    yield '<th data-type="text">status</th></tr></thead><tbody>'
    for i, record in enumerate(records):
        yield f'<tr data-i="{i}"><td><a href="#doc-{i}" data-open="{i}">{_esc(record["document"])}</a></td>'
        for key, _ in columns:
            value = _value(record, key)
            sort = "" if not isinstance(value, (int, float)) or isinstance(value, bool) else f' data-v="{value!r}"'
            yield f"<td{sort}>{_esc(_number(value))}</td>"
        yield f"<td>{_esc(_status(record))}</td></tr>"
    yield "</tbody></table>"


# -- totals and histogram ---------------------------------------------------------------------------

def _scalar_items(values: Mapping) -> list[tuple[str, object]]:
    return [(k, v) for k, v in values.items() if not isinstance(v, (dict, list))]


def _totals(report: Mapping, names: _Names) -> Iterator[str]:
    rows = [("total", "total", report.get("total") or {})]  # (its rule: the aggregation above)
    if report.get("document_mean") is not None:
        rows.append(("document_mean", "document mean", report["document_mean"]))
    if report.get("page_mean") is not None:
        rows.append(("page_mean", "mean over every page", report["page_mean"]))
    keys: list[str] = []
    for _, _, values in rows:
        for key, _ in _scalar_items(values):
            if key not in keys:
                keys.append(key)
    keys = [k for k in keys if k not in _LAST_COLUMNS] + [k for k in _LAST_COLUMNS if k in keys]
    yield '<table class="totals" id="totals"><thead><tr><th></th>'
    yield "".join(f"<th>{_esc(names.of(k))}</th>" for k in keys) + "</tr></thead><tbody>"
    for name, heading, values in rows:
        yield f'<tr data-row="{name}"><th>{_esc(heading)}</th>'
        yield "".join(f'<td data-key="{_esc(k)}">{_esc(_number(values.get(k)))}</td>' for k in keys) + "</tr>"
    yield "</tbody></table>"
    for key, nested in (report.get("total") or {}).items():
        if isinstance(nested, dict) and nested and all(isinstance(v, dict) for v in nested.values()):
            inner = [k for v in nested.values() for k in v]
            inner = list(dict.fromkeys(inner))
            yield f'<table class="totals" data-of="{_esc(key)}"><thead><tr><th>{_esc(key)}</th>'
            yield "".join(f"<th>{_esc(k)}</th>" for k in inner) + "</tr></thead><tbody>"
            for name, values in nested.items():
                yield f'<tr data-row="{_esc(name)}"><th>{_esc(name)}</th>'
                yield "".join(f'<td data-key="{_esc(k)}">{_esc(_number(values.get(k)))}</td>' for k in inner)
                yield "</tr>"
            yield "</tbody></table>"
        elif isinstance(nested, dict):
            listed = ", ".join(f"{k} {v}" for k, v in sorted(nested.items())) or "none"
            yield f'<p class="nested">{_esc(key)}: {_esc(listed)}</p>'


def histogram_counts(records: list[Mapping], bins: int = HISTOGRAM_BINS) -> list[int]:
    """How many counted documents' headline figures (their ``f1``) fall in each bin (1.0 in the last)."""
    counts = [0] * bins
    for record in records:
        value = record.get("f1")
        if record.get("counted") and isinstance(value, (int, float)):
            counts[min(bins - 1, max(0, int(value * bins)))] += 1
    return counts


def _histogram(records: list[Mapping], headline: str) -> str:
    counts = histogram_counts(records)
    top = max(counts) or 1
    width, height, left, bottom = 420, 160, 34, 22
    bar = (width - left - 6) / len(counts)
    parts = [f'<svg class="histogram" id="histogram" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" role="img" aria-label="histogram of the documents\' {_esc(headline)}">']
    plot = height - bottom - 14
    for i, n in enumerate(counts):
        h = plot * n / top
        x, y = left + i * bar, height - bottom - h
        low, high = i / len(counts), (i + 1) / len(counts)
        span = f"[{low:.1f}, {high:.1f}{']' if i == len(counts) - 1 else ')'}"
        parts.append(f'<rect class="bar" data-n="{n}" x="{x + 1:.1f}" y="{y:.1f}" width="{bar - 2:.1f}" '
                     f'height="{h:.1f}"><title>{_esc(headline)} in {span}: {n} document{"s" if n != 1 else ""}</title>'
                     '</rect>')
        if n:
            parts.append(f'<text class="count" x="{x + bar / 2:.1f}" y="{y - 3:.1f}">{n}</text>')
    axis = height - bottom
    parts.append(f'<line x1="{left}" y1="{axis}" x2="{width - 6}" y2="{axis}" class="axis"/>')
    for tick in (0, 0.5, 1):
        x = left + tick * (width - left - 6)
        parts.append(f'<text class="tick" x="{x:.1f}" y="{axis + 15}">{tick:g}</text>')
    parts.append(f'<text class="label" x="4" y="{axis - plot / 2:.1f}">docs</text>')
    parts.append("</svg>")
    return "".join(parts)


# -- the page ---------------------------------------------------------------------------------------

def _json_in_script(text: str) -> str:
    """JSON text safe inside a <script> element: no '<' can end it or open a comment."""
    return text.replace("<", "\\u003c")


def _files(record: Mapping, names: _Names) -> str:
    lines = [f"ground truth: {record.get('gt_file') or '(in memory)'}",
             f"result: {record.get('result_file') or ('none' if record.get('gt_file') else '(in memory)')}"]
    for candidate in record.get("alternatives") or ():
        lines.append(f"candidate: {candidate.get('gt_file')} / {candidate.get('result_file')}: "
                     f"{names.headline} {_number(candidate.get('f1'))}")
    for note in record.get("losses") or ():
        lines.append(f"lost in the result's format: {note}")
    if record.get("error"):
        lines.append(record["error"])
    if record.get("skipped"):
        lines.append(str(record["skipped"]))
    return "".join(f"<li>{_esc(line)}</li>" for line in lines)


# -- each document's pairing of tables --------------------------------------------------------------

def _table_id(value) -> str:
    return "none" if value is None else str(value)


def _pairing_rule(settings: Mapping) -> str:
    where = "in the document" if settings.get("ignore_page") else "on each page"
    pooled = settings.get("aggregate") == "pooled"
    if settings.get("pairing") == "joined":
        return (f"joined: the tables {where} made one tree a side and scored once; a page whose ground truth has "
                "no table is not scored, so a result table there costs nothing")
    how = ("one to one, the greatest summed similarity (Hungarian)" if settings.get("pairing") == "hungarian"
           else "greedily, each ground-truth table in turn taking the most similar result table left")
    if pooled:
        cost = ("a missed ground-truth table adds its grid positions to the true side (recall), an extra result "
                "table its positions to the predicted side (precision)")
    else:
        cost = ("a missed ground-truth table and an extra result table each score 0 and count in the mean "
                "(against recall and precision)")
    return f"paired {where}, {how}; {cost}"


def _pairing(record: Mapping, settings: Mapping, names: _Names) -> str:
    """Which result table went with which ground-truth table, with its similarity, and what an
    unpaired one cost, from the record's tables and detection counts ('' where it has none)."""
    tables = record.get("tables")
    if not record.get("counted") or not isinstance(tables, list) or not all(
            isinstance(t, Mapping) and "gt_table" in t for t in tables):
        return ""
    key, pooled = names.key, settings.get("aggregate") == "pooled"
    rows, listed = [], set()
    for table in tables:
        gt, result, joined = table.get("gt_table"), table.get("result_table"), table.get("joined")
        figure = _number(table.get(key))
        if isinstance(joined, Mapping):
            gts, results = joined.get("gt_tables") or [], joined.get("result_tables") or []
            listed.update(results)
            kind = "joined" if results else "missed"
            cost = (f"{len(gts)} ground-truth and {len(results)} result table(s) as one tree a side"
                    if results else "no result table on its page: scores 0, counted")
            gt, result = ", ".join(map(str, gts)), ", ".join(map(str, results)) or "none"
        elif gt is not None and result is not None:
            listed.add(result)
            kind, cost = "paired", "counted in the mean"
            if pooled and "true_positions" in table:
                cost = (f"its matched similarity over {table['true_positions']} true and {table['pred_positions']} "
                        "predicted positions, pooled")
        elif result is None:
            kind = "missed"
            cost = (f"its {table.get('positions', '?')} positions count against recall" if pooled
                    else "scores 0, counted in the mean")
        else:
            listed.add(result)
            kind = "extra"
            cost = (f"its {table.get('positions', '?')} positions count against precision" if pooled
                    else "scores 0, counted in the mean")
        rows.append(f'<tr class="{kind}" data-gt="{_esc(_table_id(gt))}" data-result="{_esc(_table_id(result))}">'
                    f"<td>{_esc(_table_id(gt))}</td><td>{_esc(_table_id(result))}</td>"
                    f'<td data-key="{_esc(key)}">{_esc(figure)}</td><td>{_esc(kind)}</td><td>{_esc(cost)}</td></tr>')
    detection = record.get("detection") or {}
    detected = detection.get("detected")
    if settings.get("pairing") == "joined" and isinstance(detected, int):
        left = [r for r in range(detected) if r not in listed] if all(
            isinstance(r, int) for r in listed) else []
        for result in left:  # on a page without ground-truth tables: not scored
            rows.append(f'<tr class="extra" data-gt="none" data-result="{result}"><td>none</td><td>{result}</td>'
                        "<td></td><td>extra</td><td>free: its page has no ground-truth table</td></tr>")
    counts = ", ".join(f"{k} {_number(detection[k])}" for k in ("gt", "detected", "correct", "precision", "recall")
                       if k in detection)
    return (f'<div class="pairing"><p class="pairing-rule"><strong>Tables paired:</strong> {_esc(_pairing_rule(settings))}'
            f'</p><table class="pairing"><thead><tr><th>ground truth</th><th>result</th><th>{_esc(names.of(key))}'
            f'</th><th></th><th>what it counts</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
            + (f'<p class="detection">detection: {_esc(counts)}</p>' if counts else "") + "</div>")


def _sections(report, has_detail: set[int], names: _Names) -> Iterator[str]:
    settings = report.get("settings") or {}
    for i, record in enumerate(report["documents"]):
        f1 = record.get("f1")
        figure = f"{names.headline} {_number(f1)}" if isinstance(f1, (int, float)) and record.get("counted") else _status(record)
        yield (f'<details class="doc" id="doc-{i}" data-i="{i}"><summary><span class="name">'
               f'{_esc(record["document"])}</span> <span class="figure">{_esc(figure)}</span></summary>'
               f'<ul class="files">{_files(record, names)}</ul>{_pairing(record, settings, names)}')
        if i not in has_detail:
            why = ("not scored" if not record.get("counted") else
                   "no detail was recorded (score with --html, or html= in Python)")
            yield f'<p class="note">{_esc(why)}</p>'
        yield '<div class="detail"></div></details>'


def write_page(report, out: TextIO) -> None:
    """The page of ``report`` (a :class:`~convertables.scoring.report.ScoreReport`;
    its ``details`` where it has them), written to ``out`` piece by piece."""
    from .. import __version__

    records = report["documents"]
    names = _Names(report["metric"])
    title = f"{report['metric']} ({report.get('variant', '')})"
    counted = sum(1 for r in records if r.get("counted"))
    out.write('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
              '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
              "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
              '<meta name="viewport" content="width=device-width, initial-scale=1">'
              f"<title>convertables score: {_esc(title)}</title><style>{_asset('page.css')}</style></head><body>")
    out.write(f'<header><h1>convertables score: {_esc(title)}</h1><p class="sub">{len(records)} document'
              f'{"s" if len(records) != 1 else ""}, {counted} counted; convertables {_esc(__version__)}</p></header>')
    out.write('<section id="settings"><h2>Settings</h2><dl class="settings">')
    for key, value in report.get("settings", {}).items():
        if key == "variant" and value is None:
            value = report.get("variant")
        shown = _number(value) if value is not None else "none"
        out.write(f'<div><dt>{_esc(key)}</dt><dd data-key="{_esc(key)}">{_esc(shown)}</dd></div>')
    out.write("</dl>")
    for key in ("normalisation", "aggregation"):
        if report.get(key):
            out.write(f'<p class="described"><strong>{key}:</strong> {_esc(report[key])}</p>')
    out.write('</section><section id="summary" class="overview"><div><h2>Totals</h2>')
    out.writelines(_totals(report, names))
    out.write(f'</div><div><h2>{_esc(names.headline)} of the documents</h2>' + _histogram(records, names.headline)
              + "</div></section>")
    unpaired = report.get("unpaired") or {}
    problems = [("errors", report.get("errors") or []), ("ground truth without a result", unpaired.get("gt") or []),
                ("results without a ground truth", unpaired.get("result") or [])]
    for heading, lines in problems:
        if lines:
            out.write(f'<details class="listing"><summary>{_esc(heading)}: {len(lines)}</summary><ul>')
            out.writelines(f"<li>{_esc(line)}</li>" for line in lines)
            out.write("</ul></details>")
    out.write('<section id="documents"><h2>Documents</h2><p class="hint">Click a heading to sort; a name opens '
              "its section below.</p>")
    out.writelines(_documents_table(records, _columns(records, names)))
    out.write("</section>")
    details = getattr(report, "details", None)
    with_detail = set(details.positions()) if details is not None else set()
    out.write('<section id="details"><h2>Each document</h2><div id="legend"></div>')
    out.writelines(_sections(report, with_detail, names))
    out.write("</section>")
    kinds, boxes = set(), False
    for i in sorted(with_detail):  # one at a time: a corpus's details are not all held in memory
        text = details.text(i)
        kind = _KIND.match(text)
        if kind:
            kinds.add(kind.group(1))
        boxes = boxes or _PAGES.search(text) is not None
        out.write(f'<script type="application/json" id="detail-{i}">{_json_in_script(text)}</script>\n')
    meta = json.dumps({"metric": report["metric"], "kinds": sorted(kinds), "boxes": boxes, "names": names.names})
    out.write(f'<script type="application/json" id="report-meta">{_json_in_script(meta)}</script>')
    out.write(f"<script>{_asset('page.js')}</script></body></html>\n")


def page(report) -> str:
    """The page of ``report`` as one string."""
    import io

    out = io.StringIO()
    write_page(report, out)
    return out.getvalue()


def write_html(report, path: str | os.PathLike, force: bool = False) -> None:
    """Write the page of ``report`` to ``path``, put in place whole (a reader
    sees the old file or the new one); without ``force`` an existing file is
    left alone (InputError ``output-exists``)."""
    from ..files import write_text_atomic

    write_text_atomic(Path(path), lambda out: write_page(report, out), force=force)
