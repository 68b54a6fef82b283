"""What a metric is: the interface the runner calls, and the settings it declares.

Each metric module (structure, ctdar, region, marmot, teds...) ends with ``METRICS``, the
:class:`Metric` objects it defines. A metric declares the settings it takes
(:class:`~convertables.options.Option` values with ``direction="score"``); the
command line builds ``score``'s options from those declarations, and a setting
the chosen metric does not declare is refused, naming the metrics that take it.
:class:`ScoreSettings` holds the metric's name and the settings given.
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from ..diagnostics import Diagnostic, Severity, UsageError
from ..grid import GridTooLarge
from ..options import DeclaredSettings, Option
from .declarations import COMMON_SETTINGS, COMPAT, IGNORE_PAGE, PDF_DIR, RESULT_FORMAT, VARIANT  # noqa: F401 (theirs)

if TYPE_CHECKING:
    from ..model import Document
    from ..options import ReadOptions
    from .pairing import Pairing
    from .presentation import Summary

METRIC_MODULES = ("structure", "region", "marmot", "ctdar", "teds", "grits", "table_accuracy", "table_facts", "teds_edit")
"""The modules of ``convertables.scoring`` that declare metrics (``METRICS``), in the order listed."""



class MetricError(ValueError):
    """A document a metric cannot score (its record says so under the error's
    ``code``, documented in docs/diagnostics.md, and the other documents are
    still scored). Metrics raise subclasses of it, each with its code."""

    code: str = "metric-error"


class TableTooLarge(MetricError, GridTooLarge):
    """A table whose grid is too large to scan (or, GriTS, to align)."""

    code = "table-too-large"


class Scored(dict):
    """One document's record as :meth:`Metric.score` gives it (a JSON-ready dict),
    with ``findings`` beside it, not in it: what the metric found to say about
    the document (:class:`Diagnostic` values; where it cannot give the official
    tool's figures, errors), which the runner puts with the document's problems."""

    __slots__ = ("findings",)

    def __init__(self, record=(), findings=()):
        super().__init__(record)
        self.findings: list[Diagnostic] = list(findings)


class Metric:
    """A metric, as the runner calls it. Subclasses set the attributes and
    implement :meth:`score`, :meth:`aggregate`, :meth:`describe` and :meth:`summary`."""

    name: str
    title: str = ""
    gt_model: str | None = None
    """The ICDAR 2013 model of its ground-truth files (``structure``, ``region``), or None."""
    variants: tuple[str, ...] = ()
    """The variants it knows, the default first."""
    settings: tuple[Option, ...] = ()
    """The settings it takes besides :data:`COMMON_SETTINGS`."""
    read_options: ReadOptions | None = None
    """How its documents are read (None: as by default)."""
    headline: str = "f1"
    """The key of the figure a document is judged by (a record's ``f1`` holds it too)."""
    names: dict[str, str] = {"f1": "F1"}
    """What the reports call its figures, by key (others go by their keys)."""
    no_result: str = "no result (left out in compat mode)"
    """What the record of a document says where :meth:`score` leaves it out for want of a result."""

    def reading(self, settings: ScoreSettings) -> ReadOptions | None:
        """How its documents are read under these settings (None: as by default)."""
        return self.read_options

    def name_of(self, key: str) -> str:
        """What the reports call the figure of that key."""
        return self.names.get(key, key)

    # -- settings ----------------------------------------------------------------------------

    def check(self, settings: ScoreSettings) -> None:
        """Refuse (UsageError) values of its settings that cannot work together."""

    def check_pairing(self, pairing: Pairing, settings: ScoreSettings) -> None:
        """Refuse (UsageError) settings that cannot apply to these documents."""

    def describe(self, settings: ScoreSettings) -> dict:
        """``variant``, ``normalisation`` and ``aggregation``: what the report says it used."""
        raise NotImplementedError

    # -- pairing -----------------------------------------------------------------------------

    def has_alternatives(self, settings: ScoreSettings) -> bool:
        """Whether ground truths named ``eu-009a``/``eu-009b`` are alternatives of one PDF."""
        return False

    def has_result_variants(self, settings: ScoreSettings) -> bool:
        """Whether results named ``PMC1_1``, ``PMC1_2`` are variants of ``PMC1``'s."""
        return False

    def has_result_repeats(self, settings: ScoreSettings) -> bool:
        """Whether results named ``doc_pg1_repeat1``, ``doc_pg1_repeat2`` are
        repeats of ``doc_pg1``'s: each is scored, and :meth:`combined` makes the
        document's record of them all."""
        return False

    def combined(self, records: list[dict], settings: ScoreSettings) -> dict:
        """A document's record from its repeats' records (:meth:`has_result_repeats`)."""
        raise NotImplementedError

    def preference(self, record: dict, settings: ScoreSettings) -> tuple:
        """Of a document's candidates (alternatives, variants), the one with the
        greatest preference is kept (the first on ties)."""
        return (record["f1"],)

    # -- scoring -----------------------------------------------------------------------------

    def score(self, gt: Document, result: Document | None, settings: ScoreSettings,
              unreadable: bool = False, gt_file: Path | None = None) -> dict | None:
        """One document's record (JSON-ready, with ``f1``); ``result`` None where
        there is none (``unreadable``: it could not be read). None: the document
        is left out (compat modes). What the metric finds to say about the
        document (where it cannot give the official tool's figures) it returns
        as a :class:`Scored` record's ``findings``. A document it cannot score
        raises a :class:`MetricError` (its subclass saying the code)."""
        raise NotImplementedError

    def reading_findings(self, findings: list[Diagnostic], settings: ScoreSettings) -> list[Diagnostic]:
        """Of what the readers found in a document's files, what its report says:
        warnings and errors (an error makes the run's exit code 1). A metric
        leaves out what does not touch its figures, and raises what makes them
        differ from the official tool's to an error."""
        return [d for d in findings if d.severity is not Severity.INFO]

    def aggregate(self, records: list[dict], settings: ScoreSettings) -> dict:
        """``total`` (and ``document_mean`` where the metric has one) from the records counted."""
        raise NotImplementedError

    # -- presenting --------------------------------------------------------------------------

    def summary(self, report: Mapping) -> Summary:
        """The summary table of a report: a row a document, the totals, the notes."""
        raise NotImplementedError

    def csv_rows(self, report: Mapping) -> Iterator[list]:
        """The per-document CSV: its header, then a row a document."""
        raise NotImplementedError

    def explain(self, gt: Document, result: Document | None, settings: ScoreSettings, record: dict | None = None,
                gt_file: Path | None = None) -> dict:
        """What it found in one document, cell by cell, for the HTML report
        (JSON-ready; :mod:`convertables.scoring.explain` describes the dict);
        ``record`` is the document's record as :meth:`score` made it. By
        default the tables side by side, paired as the record's ``tables``
        entries name them (``gt_table``, ``result_table``), with each entry's
        figures and no cell outcomes."""
        from .explain import default_explain

        return default_explain(gt, result, record)


def page_needed(findings: list[Diagnostic], drop: tuple[str, ...] = ()) -> list[Diagnostic]:
    """Reading findings for a metric whose official tool reads every region's page
    (the ICDAR 2013 tool's): a region without one, read as page 1, is an error
    (the tool fails on it); infos and the codes in ``drop`` are left out."""
    return [replace(d, severity=Severity.ERROR) if d.code == "no-page" else d for d in findings
            if d.code == "no-page" or (d.severity is not Severity.INFO and d.code not in drop)]


ENTRY_POINT_GROUP = "convertables.metrics"
"""The entry-point group of metric plugins: each entry names a :class:`Metric`
(``name = "package.module:METRIC"``), a sequence of them, or a module whose
``METRICS`` holds them."""

_METRICS: dict[str, Metric] | None = None
_DECLARATIONS: dict | None = None
_REGISTERED: list[Metric] = []


def register(metric: Metric) -> Metric:
    """Add a metric (a plugin's, or one made at run time) after the built-in
    ones and those of installed plugins; a metric of a name already known
    replaces it. Returns ``metric``."""
    if not isinstance(metric, Metric):
        raise TypeError(f"register() takes a Metric, not {type(metric).__name__}")
    _REGISTERED.append(metric)
    _forget()
    return metric


def _forget() -> None:
    global _METRICS, _DECLARATIONS, _DECLARED
    _METRICS = _DECLARATIONS = _DECLARED = None


def _plugin_metrics() -> list[Metric]:
    from ..plugins import entry_points, load

    found = [metric for entry in entry_points(ENTRY_POINT_GROUP) for metric in load(entry, "METRICS", Metric)]
    return [*found, *_REGISTERED]


def metric_declarations() -> dict:
    """Every metric's :class:`~convertables.scoring.declarations.MetricDeclaration`
    by name: the built-in ones read without importing their modules, then the
    plugins' and those registered, from the objects."""
    global _DECLARATIONS
    if _DECLARATIONS is None:
        from .declarations import DECLARED, MetricDeclaration

        found = {d.name: d for d in DECLARED}
        for metric in _plugin_metrics():
            found[metric.name] = MetricDeclaration(metric.name, tuple(metric.variants), tuple(metric.settings), None)
        _DECLARATIONS = found
    return _DECLARATIONS


def metrics() -> dict[str, Metric]:
    """Every metric by name (each metric module imported)."""
    global _METRICS
    if _METRICS is None:
        found: dict[str, Metric] = {}
        for module in METRIC_MODULES:
            for metric in importlib.import_module(f"convertables.scoring.{module}").METRICS:
                found[metric.name] = metric
        for metric in _plugin_metrics():
            found[metric.name] = metric
        _METRICS = found
    return _METRICS


def get_metric(name: str) -> Metric:
    """The metric of that name, its module imported (that one alone, for a built-in metric)."""
    if _METRICS is None:
        declared = metric_declarations().get(name)
        if declared is not None and declared.module is not None:
            for metric in importlib.import_module(declared.module).METRICS:
                if metric.name == name:
                    return metric
    try:
        return metrics()[name]
    except KeyError:
        raise UsageError(f"unknown metric {name!r} (known: {', '.join(metric_declarations())})") from None


_DECLARED: dict[str, Option] | None = None


def declared_settings() -> dict[str, Option]:
    """Every setting some metric takes, by name (common ones first; worked out once)."""
    global _DECLARED
    if _DECLARED is None:
        found = {o.name: o for o in COMMON_SETTINGS}
        for metric in metric_declarations().values():
            for option in metric.settings:
                known = found.setdefault(option.name, option)
                if known != option:
                    raise AssertionError(f"{metric.name} declares {option.name} otherwise than another metric")
        _DECLARED = found
    return _DECLARED


class ScoreSettings(DeclaredSettings):
    """How to score: the metric's name and the settings given, by the names the
    metrics declare (``ScoreSettings(metric="ctdar-b", compat=True)``). A setting
    not given reads as its declared default. Whether the metric takes each one is
    checked when scoring starts (:meth:`check_for`)."""

    __slots__ = ("metric",)

    def __init__(self, metric: str = "structure", **values: Any):
        known = declared_settings()
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise UsageError(f"unknown score setting(s) {', '.join(map(repr, unknown))}; known: {', '.join(known)}")
        parsed = {}
        for name, value in values.items():
            option = known[name]
            if option.parse is not None and value is not None:
                if isinstance(value, (list, tuple, set, frozenset)):  # (as the command line's text would list them)
                    value = ",".join(map(str, value))
                try:
                    value = option.parse(value if isinstance(value, str) else str(value))
                except ValueError as exc:
                    raise UsageError(f"{option.flag} is {exc}") from None
            elif isinstance(value, Path):
                value = str(value)
            if value != option.default:  # (given as its default: as not given, in equality too)
                parsed[name] = value
        object.__setattr__(self, "metric", metric)
        object.__setattr__(self, "_values", parsed)

    def _declared(self) -> dict[str, Option]:
        return declared_settings()

    def _key(self) -> tuple:
        return (self.metric, *super()._key())

    def given(self) -> dict[str, Any]:
        """The settings given, as a dict."""
        return dict(self._values)

    def check_for(self, metric: Metric) -> None:
        """Refuse (UsageError) a setting given that ``metric`` does not take,
        naming the metrics (or the variant) that do."""
        own = {o.name for o in (*COMMON_SETTINGS, *metric.settings)}
        for name, value in self._values.items():
            option = declared_settings()[name]
            if value is None or value == option.default:
                continue
            takers = [m.name for m in metric_declarations().values() if any(o.name == name for o in m.settings)]
            named = f"the {', '.join(takers)} metric{'s' if len(takers) > 1 else ''}"
            if option.variants is not None and (
                    name not in own or (self.variant or metric.variants[0]) not in option.variants):
                raise UsageError(f"{option.flag} applies to --variant {' or '.join(option.variants)} only "
                                 f"(of {named})")
            if name not in own:
                raise UsageError(f"{option.flag} applies to {named} only, not to {metric.name}")
            option.check(value)

    def as_dict(self, metric: Metric) -> dict[str, Any]:
        """The report's ``settings``: the metric's name, then every setting it takes, given or default."""
        return {"metric": self.metric, **{o.name: self[o.name] for o in (*COMMON_SETTINGS, *metric.settings)}}

    def __repr__(self) -> str:
        given = "".join(f", {k}={v!r}" for k, v in self._values.items())
        return f"ScoreSettings(metric={self.metric!r}{given})"

    def __reduce__(self):  # (worker processes receive them pickled)
        return (_settings, (self.metric, self._values))


def _settings(metric: str, values: dict) -> ScoreSettings:
    return ScoreSettings(metric, **values)
