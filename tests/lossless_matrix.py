"""The round-trip matrix: every readable file x every writable format x structure, TEDS and GriTS.

Each file X is converted to each format W with ``convertables convert`` and the
output Y scored against X with ``convertables score --metric M`` (the real
commands, in this process). A pair is

* ``held``: every figure of M is what X scored against itself gives (1.0, or
  below only where the metric itself gives less, e.g. GriTS_Loc of cells
  without boxes);
* ``named``: a figure is lower, and the conversion warned (``lossy-*``) and
  the score named, for a document, the part of M the loss affects;
* ``silent``: a figure is lower and nothing said so (what must not happen);
* ``failed``: the conversion wrote nothing (it said why).

``python -m tests.lossless_matrix [FILE...]`` prints the table (the test's
inputs without arguments).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from typer.testing import CliRunner

from convertables import read_documents
from convertables.cli import app
from convertables.registry import formats

ROOT = Path(__file__).resolve().parent.parent
METRICS = {
    "structure": ("precision", "recall", "f1"),
    "teds": ("teds", "teds_struct"),
    "grits": ("grits_top", "grits_con"),
}
"""The figures checked. GriTS_Loc is left out: what it gives for cells without boxes,
and for boxes in another frame, is its own matter (a box lost on the way is still
said: ``lossy-box``)."""
WRITERS = tuple(f.name for f in formats().values() if f.writes)
_runner = CliRunner()


def invoke(*args) -> tuple[int, str]:
    result = _runner.invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        import traceback

        return result.exit_code, "".join(traceback.format_exception(result.exception))
    return result.exit_code, result.stdout


@dataclass
class Pair:
    source: str
    writer: str
    metric: str
    outcome: str
    figures: dict = field(default_factory=dict)
    """The figures below what the source scored against itself: name -> (result, itself)."""
    warned: tuple[str, ...] = ()
    """The conversion's lossy-* codes."""
    notes: tuple[str, ...] = ()
    """What the score said of the losses."""
    error: str = ""
    below_one_itself: tuple[str, ...] = ()
    """The figures of M below 1.0 where the source is scored against itself (the metric's own matter)."""


def _score(gt: Path, result: Path, metric: str, result_format: str | None = None) -> dict | None:
    given = ("--result-format", result_format) if result_format else ()
    if result_format and formats()[result_format].is_container:
        given += ("--join",)  # a document of several tables is a record a table, named by page and table
    code, out = invoke("score", "--gt", gt, "--result", result, "--metric", metric, "--format", "json", "--jobs", 1,
                       *given)
    try:
        return json.loads(out)
    except ValueError:
        print(f"score {gt} {result} {metric}: exit {code}: {out[:300]!r} ... {out[-300:]!r}", file=sys.stderr)
        return None


def _figures(report: dict | None, names: tuple[str, ...]) -> dict:
    total = (report or {}).get("total") or {}
    return {name: total[name] for name in names if isinstance(total.get(name), (int, float))}


def has_cells(report: dict | None) -> bool:
    return bool(report) and bool((report.get("total") or {}).get("tables") or (report.get("total") or {}).get("gt"))


def run_source(source: Path, work: Path, name: str | None = None) -> list[Pair]:
    """Every writer x metric for one source file (``name``: how the table names it)."""
    name = name or source.name
    if not any(doc.has_cells for _name, doc in read_documents(source)):
        return []  # a region-model file: none of these metrics scores its tables' regions
    itself = {metric: _score(source, source, metric) for metric in METRICS}
    pairs = []
    for writer in WRITERS:
        out = work / writer / source.name.replace(".", "_")
        out.mkdir(parents=True, exist_ok=True)
        code, text = invoke("convert", source, "--to", writer, "-o", f"{out}/", "--format", "json")
        try:
            converted = json.loads(text)
        except ValueError:
            converted = {"files": []}
        warned = tuple(sorted({d["code"] for f in converted.get("files", ()) for d in f.get("diagnostics", ())
                               if d["code"].startswith("lossy-")}))
        if not any(out.iterdir()):
            said = [d["message"] for f in converted.get("files", ()) for d in f.get("diagnostics", ())
                    if d["severity"] == "error"]
            for metric in METRICS:
                pairs.append(Pair(name, writer, metric, "failed", warned=warned,
                                  error="; ".join(said) or text.strip()[:200]))
            continue
        for metric, names in METRICS.items():
            if not has_cells(itself[metric]):
                continue
            written = list(out.iterdir())
            report = _score(source, written[0] if len(written) == 1 else out, metric, writer)
            expected = _figures(itself[metric], names)
            got = _figures(report, names)
            lower = {name: (got.get(name), value) for name, value in expected.items()
                     if got.get(name) is None or got[name] < value - 1e-9}
            notes = tuple(note for record in (report or {}).get("documents", ()) for note in record.get("losses", ()))
            noted = {code for code in warned for note in notes if note.endswith(f"({code})")}
            if not lower:
                outcome = "held"
            elif noted:  # the conversion said what it lost, and the score which part of the metric it affects
                outcome = "named"
            else:
                outcome = "silent"
            pairs.append(Pair(name, writer, metric, outcome, lower, warned, notes,
                              "; ".join((report or {}).get("errors", ())),
                              tuple(k for k, v in expected.items() if v < 1 - 1e-9)))
    return pairs


def table(pairs: list[Pair]) -> str:
    """The counts, then each pair that did not hold."""
    counts = {o: sum(1 for p in pairs if p.outcome == o) for o in ("held", "named", "silent", "failed")}
    lines = [f"{len(pairs)} pairs: " + ", ".join(f"{n} {o}" for o, n in counts.items())]
    by_writer: dict[str, dict[str, int]] = {}
    for p in pairs:
        by_writer.setdefault(p.writer, {}).setdefault(p.outcome, 0)
        by_writer[p.writer][p.outcome] += 1
    for writer, seen in by_writer.items():
        lines.append(f"  {writer:10} " + ", ".join(f"{n} {o}" for o, n in sorted(seen.items())))
    below = sorted({(p.source, p.metric, k) for p in pairs for k in p.below_one_itself})
    if below:
        lines.append("below 1.0 against itself (compared with that figure, not 1.0): "
                     + ", ".join(f"{s} {m} {k}" for s, m, k in below))
    for p in pairs:
        if p.outcome != "held":
            figures = ", ".join(f"{k} {v[0] if v[0] is None else round(v[0], 4)}" for k, v in p.figures.items())
            lines.append(f"  {p.outcome:6} {p.source} -> {p.writer} / {p.metric}: {figures} "
                         f"{list(p.warned)} {p.error}".rstrip())
    return "\n".join(lines)


def main(paths: list[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        tempfile.tempdir = tmp  # (the score's record files too: nothing else on the machine cleans them away)
        pairs = [pair for k, path in enumerate(paths) for pair in run_source(Path(path), Path(tmp) / str(k), path)]
    print(table(pairs))


if __name__ == "__main__":
    main(sys.argv[1:])
