"""convertables: table-recognition formats in one canonical model, checked and scored.

The library API mirrors the command line::

    from convertables import check, convert, read, score, write, dumps
    convert("gt/", "gt-json/", to_format="json")  # a ConvertReport
    check(["submission/"], gt="gt/")               # a CheckReport (.findings, .error_count)
    score("gt/", "results/", metric="ctdar-b", compat=True)  # a ScoreReport (.total, .documents)
    doc = read("eu-001-str.xml")                   # format from content and suffix
    for name, doc in read_documents("val.jsonl"):  # each document of a container, read as asked for
        ...
    write(doc, "eu-001-str.json")                  # atomic; refuses to replace without force=True
    xml = dumps(doc, "icdar")                      # bytes in any writable format

The model lives in :mod:`convertables.model`, the formats in
:mod:`convertables.registry`, the metrics in :mod:`convertables.scoring`.
"""

from .diagnostics import Diagnostic, Diagnostics, InputError, Severity, UsageError
from .model import BBox, Cell, Document, Frame, Instruction, Page, Region, Table
from .options import ReadOptions, WriteOptions

# The functions are imported on first use, and the version looked up then: the
# command line's first keystroke (--help, --version) needs neither.
_FUNCTIONS = {"check": "api", "convert": "api", "score": "api", "read_documents": "containers",
              "dumps": "files", "read": "files", "write": "files"}


def __getattr__(name: str):
    if name in _FUNCTIONS:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_FUNCTIONS[name]}"), name)
    if name == "__version__":
        from .plugins import version_of

        found = version_of("convertables")  # (its metadata folder's name: importlib.metadata costs more)
        if found is not None:
            return found
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
