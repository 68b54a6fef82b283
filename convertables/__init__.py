"""convertables: table-recognition formats in one canonical model, checked and scored.

The library API mirrors the command line::

    from convertables import check, convert, read, score, write, dumps
    convert("gt/", "gt-json/", to_format="json")  # a ConvertReport
    check(["submission/"], gt="gt/")               # a CheckReport (.findings, .errors)
    score("gt/", "results/", metric="ctdar-b", compat=True)  # a ScoreReport (.total, .documents)
    doc = read("eu-001-str.xml")                   # format from content and suffix
    for name, doc in read_documents("val.jsonl"):  # each document of a container, read as asked for
        ...
    write(doc, "eu-001-str.json")                  # atomic; refuses to replace without force=True
    xml = dumps(doc, "icdar")                      # bytes in any writable format

The model lives in :mod:`convertables.model`, the formats in
:mod:`convertables.registry`, the metrics in :mod:`convertables.scoring`.
"""

from .api import check, convert, score
from .containers import read_documents
from .diagnostics import Diagnostic, Diagnostics, InputError, Severity, UsageError
from .files import dumps, read, write
from .model import BBox, Cell, Document, Frame, Instruction, Page, Region, Table
from .options import ReadOptions, WriteOptions


def __getattr__(name: str):
    # The version is looked up on first use: importlib.metadata costs 40 ms at start-up.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("convertables")
        except PackageNotFoundError:  # running from a checkout without installing
            return "0+unknown"
    raise AttributeError(f"module 'convertables' has no attribute {name!r}")

__all__ = [
    "BBox", "Cell", "Diagnostic", "Diagnostics", "Document", "Frame", "InputError", "Instruction",
    "Page", "ReadOptions", "Region", "Severity", "Table", "UsageError", "WriteOptions",
    "check", "convert", "dumps", "read", "read_documents", "score", "write", "__version__",
]
