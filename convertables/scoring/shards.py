"""Scoring a corpus in shards, on as many machines as there are, and merging the reports.

``score --shard K/N`` scores the documents whose name falls in shard K of N
(:func:`shard_of`: a hash of the document's name, the same on every machine and
in every run), and its JSON report carries a ``shard`` object: where each of
its records, errors and unpaired files stands in the whole run.
:func:`merge_reports` puts the N reports together into the report one run over
the whole corpus gives, byte for byte: records, errors and unpaired files in the
whole run's order, totals and means computed again from the records by the
metric itself. This is how any scheduler (a Slurm array, a Kubernetes job) runs
a corpus across machines.
"""

from __future__ import annotations

import math
import zlib
from typing import Any, Iterable, Mapping

from ..diagnostics import UsageError
from .report import SHARD_DIGEST as _DIGEST, parts_digest  # noqa: F401 (parts_digest: merge-reports checks it)


def shard_of(document: str, count: int) -> int:
    """The shard (0 to count - 1) of a document, by its name: CRC-32 of its UTF-8
    bytes, which no machine, run or hash seed changes."""
    return zlib.crc32(document.encode("utf-8", "surrogatepass")) % count


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` -> ``(K, N)``, 1 <= K <= N (UsageError otherwise)."""
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise UsageError(f"--shard is K/N (shard K of N, e.g. 2/8), not {text!r}") from None
    if not 1 <= index <= count:
        raise UsageError(f"--shard {text}: K must be 1 to N")
    return index, count


def _part(report: Mapping, name: str) -> Any:
    try:
        return report[name]
    except (KeyError, TypeError):
        raise UsageError(f"not a shard's score report (no {name!r}): score with --shard K/N --format json") from None


def _check_shard(report: Mapping, shard: Any) -> None:
    """A shard's report whose parts say where they stand, one place each (UsageError otherwise)."""
    def whole_numbers(value) -> bool:
        return isinstance(value, list) and all(type(v) is int and v >= 0 for v in value)

    if not isinstance(shard, dict) or any(type(shard.get(k)) is not int for k in ("index", "count", "documents")):
        raise UsageError("a malformed shard report: its shard's index, count and documents are not numbers")
    for parts, positions in (("documents", "positions"), ("errors", "error_positions")):
        if not whole_numbers(shard.get(positions)) or not isinstance(report.get(parts), list) or (
                len(shard[positions]) != len(report[parts])):
            raise UsageError(f"shard {shard['index']} of {shard['count']}: its {parts} and their places in the "
                             "whole run disagree (an edited or cut report?)")
    for side in ("gt", "result"):
        listed = report.get("unpaired", {}).get(side) if isinstance(report.get("unpaired"), dict) else None
        if not whole_numbers(shard.get(f"unpaired_{side}_positions")) or not isinstance(listed, list) or (
                len(listed) != len(shard[f"unpaired_{side}_positions"])):
            raise UsageError(f"shard {shard['index']} of {shard['count']}: its unpaired files and their places "
                             "disagree (an edited or cut report?)")


_COUNTS = ("correct", "gt", "detected")


def _check_record(record: Any, where: str) -> None:
    """A record as score writes one: an object naming its document, its numbers
    finite, its counts whole and consistent (no more correct than there are)."""
    if not isinstance(record, dict) or not isinstance(record.get("document"), str):
        raise UsageError(f"{where}: a document's record is not an object naming its document (an edited report?)")

    def count(value) -> bool:
        return type(value) in (int, float) and value >= 0

    def walk(value, at: str) -> None:
        if isinstance(value, dict):
            # counts (or areas); None where there is none; cTDaR's correct: a count at each threshold
            counts = {k: value[k] for k in _COUNTS if value.get(k) is not None}
            for key, found in counts.items():
                if not (count(found) or (isinstance(found, dict) and all(map(count, found.values())))):
                    raise UsageError(f"{where}: {at}{key} is {found!r}, not a count (an edited report?)")
            correct = counts.get("correct")
            correct = correct.values() if isinstance(correct, dict) else [] if correct is None else [correct]
            for key in ("gt", "detected"):
                if count(counts.get(key)) and any(c > counts[key] for c in correct):
                    raise UsageError(f"{where}: {at}correct {max(correct)} is more than there are ({key} "
                                     f"{counts[key]}; an edited report?)")
            for key, item in value.items():
                walk(item, f"{at}{key}.")
        elif isinstance(value, list):
            for item in value:
                walk(item, at)
        elif isinstance(value, float) and not math.isfinite(value):
            raise UsageError(f"{where}: {at.rstrip('.')} is {value}, which JSON does not have (an edited report?)")

    walk(record, f"document {record['document']!r}: ")


def merge_reports(reports: Iterable[Mapping]):
    """The report of the whole run from the reports of its shards (the JSON
    objects of ``score --shard K/N --format json``), every shard once."""
    from .metric import ScoreSettings, get_metric
    from .report import ScoreReport

    reports = list(reports)
    if not all(isinstance(r, Mapping) for r in reports):
        raise UsageError("not a shard's score report (not a JSON object)")
    if not reports:
        raise UsageError("no reports to merge")
    first = reports[0]
    shards = [_part(r, "shard") for r in reports]
    for report, shard in zip(reports, shards):
        _check_shard(report, shard)
        if not isinstance(report.get("settings"), dict):
            raise UsageError(f"shard {shard['index']} of {shard['count']}: its settings are not an object (an "
                             "edited report?)")
    count = shards[0]["count"]
    for report, shard in zip(reports, shards):
        for key in ("metric", "settings"):
            if _part(report, key) != first[key]:
                raise UsageError(f"the reports were not made alike: {key} {report[key]!r} against {first[key]!r}")
        if shard["count"] != count or shard["documents"] != shards[0]["documents"]:
            raise UsageError("the reports are shards of different runs (their shard counts or corpora differ)")
    for report, shard in zip(reports, shards):
        where = f"shard {shard['index']} of {shard['count']}"
        if shard.get("inputs") != shards[0].get("inputs"):
            raise UsageError(f"{where} is of another run: its inputs (the files scored, by name and size) differ "
                             f"from shard {shards[0]['index']}'s")
        if shard.get(_DIGEST) != parts_digest(report):
            raise UsageError(f"{where}: its records, errors or places do not match its digest (an edited or cut "
                             "report?)")
        for record in report["documents"]:
            _check_record(record, where)
    indices = sorted(s["index"] for s in shards)
    if len(set(indices)) != len(indices):
        raise UsageError(f"shard {next(i for i in indices if indices.count(i) > 1)} of {count} is given twice")
    missing = sorted(set(range(1, count + 1)) - set(indices))
    if missing:
        raise UsageError(f"shard(s) {', '.join(map(str, missing))} of {count} missing: the merged report would "
                         "leave their documents out")

    def in_order(key: str, positions: str) -> list:
        placed = [(position, n, value) for report, shard in zip(reports, shards)
                  for n, (position, value) in enumerate(zip(shard[positions], _part(report, key)))]
        return [value for *_, value in sorted(placed, key=lambda item: item[:2])]

    records = in_order("documents", "positions")
    names = [r.get("document") if isinstance(r, dict) else None for r in records]
    if len(set(names)) != len(names):
        raise UsageError("a document is in two shards' reports")
    positions = [p for s in shards for p in s["positions"]]
    if (len(set(positions)) != len(positions) or len(records) != shards[0]["documents"]
            or any(p >= shards[0]["documents"] for p in positions)):
        raise UsageError(f"the shards hold {len(records)} documents in {len(set(positions))} places; the whole run "
                         f"had {shards[0]['documents']} (an edited or cut report?)")
    errors = in_order("errors", "error_positions")
    unpaired = {side: [value for *_, value in sorted(
        (position, n, value) for report, shard in zip(reports, shards)
        for n, (position, value) in enumerate(zip(shard[f"unpaired_{side}_positions"], report["unpaired"][side])))]
        for side in ("gt", "result")}
    metric = get_metric(first["metric"])
    settings = ScoreSettings(first["metric"], **{k: v for k, v in first["settings"].items() if k != "metric"})
    keys = list(first)
    description = {k: first[k] for k in keys[keys.index("metric") + 1:keys.index("settings")]}
    try:  # (the totals and means computed again, from the records' counts)
        aggregate = metric.aggregate([r for r in records if r.get("counted")], settings)
    except (KeyError, TypeError, ValueError, ArithmeticError, AttributeError) as exc:
        raise UsageError(f"a counted document's record lacks what the {first['metric']} metric totals "
                         f"({type(exc).__name__}: {exc}; an edited report?)") from None
    return ScoreReport(first["metric"], description, dict(first["settings"]), records, aggregate,
                       unpaired["gt"], unpaired["result"], error_lines=errors)
