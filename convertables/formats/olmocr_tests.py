"""olmOCR-bench's test files (docs/formats.md, `olmocr-tests`): JSON Lines, one
test a line, each naming its PDF and page (``{"pdf": "doc.pdf", "page": 1,
"id": "doc_table00", "type": "table", "cell": "3.32T", "left": "3.71T"}``).
Read only; its table tests are the ground truth of the ``table-facts`` metric.

The file is a container (:mod:`convertables.containers`): each page its tests
name is a document, named as olmOCR names the page's Markdown files less their
``_repeat<N>`` (``doc_pg1`` for ``doc_pg1_repeat1.md``): the PDF's name without
folders and ``.pdf``, ``_pg`` and the page. A page's member runs from its first
test's line to its last; reading it keeps the lines of that page. Tests of
other types (present, absent, order, math...) are passed over. The document
holds its tests in ``metadata["olmocr_tests"]`` (a JSON list, as written).

A line that is not a JSON object is refused (``olmocr-test-invalid``); so is a
table test without a text ``cell`` or ``id``. A file whose first line is not
one, with more than MAX_BAD_LINES such lines, or without a table test is no
test file: it is refused whole, in one finding (``not-olmocr-tests``). What olmOCR-bench itself refuses
when it loads the file, and scores here all the same, is a warning
(``olmocr-test-refused``): a key a table test does not have, a ``max_diffs``
that is not a whole number of zero or more, a neighbour or heading that is
neither text nor null.
"""

from __future__ import annotations

import json
import os
import re
from typing import BinaryIO, Iterator

from ..containers import MAX_MEMBER_BYTES
from ..diagnostics import Diagnostics, Severity
from ..jsonsafe import parse_json
from ..model import Document
from ..options import ReadOptions
from ..registry import Member
from .declarations import DECLARED

TEXT_KEYS = ("up", "down", "left", "right", "top_heading", "left_heading")
"""A table test's facts beside its cell: the texts of its neighbours and headings."""
_KEYS = frozenset({"pdf", "page", "id", "type", "max_diffs", "checked", "url", "cell", "ignore_markdown_tables",
                   *TEXT_KEYS})


def page_name(pdf: str, page) -> str:
    """The name of the document a test's page is: ``doc_pg1`` (olmOCR's Markdown files' names, less ``_repeat<N>``)."""
    return f"{os.path.splitext(os.path.basename(pdf.replace(chr(92), '/')))[0]}_pg{page}"


def _record(line: bytes) -> dict | None:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if value.__class__ is dict else None


def _page_of(record: dict | None) -> str | None:
    if record is None or record.get("type") != "table" or record.get("pdf").__class__ is not str:
        return None
    return page_name(record["pdf"], record.get("page"))


MAX_BAD_LINES = 20
"""Bad lines a test file may hold and still be read page by page, each refused
on its own; a file with more, or whose first line is bad, is refused whole."""


def members(handle: BinaryIO) -> Iterator[Member]:
    """Each page the table tests name, in the order first named: from its first
    test's line to its last (lines of other pages between them are read and passed over).
    None where the first line is no JSON object or more than MAX_BAD_LINES are
    not: the file is then read whole, and refused in one finding."""
    pages: dict[str, list[int]] = {}
    offset = number = bad = 0
    while True:
        line = handle.readline(MAX_MEMBER_BYTES + 1)
        if not line:
            break
        number += 1
        size = len(line)
        while not line.endswith(b"\n") and size > MAX_MEMBER_BYTES:  # (passed over, never held)
            rest = handle.readline(1 << 20)
            if not rest:
                break
            size += len(rest)
            line = rest
        if line.strip():
            record = _record(line) if size <= MAX_MEMBER_BYTES else None
            if record is None:
                bad += 1
                if not pages or bad > MAX_BAD_LINES:
                    return
            name = _page_of(record) if record is not None else f"line-{number}"
            if name is not None:
                span = pages.get(name)
                if span is None:
                    pages[name] = [offset, offset + size, number]
                else:
                    span[1] = offset + size
        offset += size
    for name, (start, end, first_line) in pages.items():
        yield Member(name, start, end - start, first_line)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    tests: list[dict] = []
    page = None
    lines = data.splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = _record(line)
        if record is None:
            _refuse_whole(lines, number, bool(tests), diagnostics)
            parse_json(line, diagnostics)  # (says where the JSON is wrong)
            raise diagnostics.fail("olmocr-test-invalid", "not a JSON object", line=number)
        name = _page_of(record)
        if name is None:
            continue  # another type of test
        if page is None:
            page = name
        elif name != page:
            continue  # another page's test, between this page's lines
        tests.append(_checked(record, diagnostics, number))
    if page is None:
        raise diagnostics.fail("not-olmocr-tests", "the file is not olmOCR-bench's test file (it holds no table test)")
    doc = Document(filename=page)
    doc.metadata["olmocr_tests"] = json.dumps(tests, ensure_ascii=False)
    return doc


def _refuse_whole(lines: list[bytes], number: int, after_tests: bool, diagnostics: Diagnostics) -> None:
    """Refuses in one finding a file whose first line is no JSON object, or
    that holds more than MAX_BAD_LINES such lines (a member holding one bad
    line alone is refused by its caller, line by line)."""
    if not after_tests and sum(1 for line in lines if line.strip()) > 1:
        raise diagnostics.fail("not-olmocr-tests", f"the file is not olmOCR-bench's test file (line {number} "
                                                   "is not a JSON object)", line=number)
    bad = sum(1 for line in lines if line.strip() and _record(line) is None)
    if bad > MAX_BAD_LINES:
        raise diagnostics.fail("not-olmocr-tests", f"the file is not olmOCR-bench's test file ({bad:,} lines are "
                                                   f"not JSON objects, the first line {number})", line=number)


def _checked(record: dict, diagnostics: Diagnostics, line: int) -> dict:
    where = f"test {record.get('id')!r}"
    if record.get("id").__class__ is not str or not record["id"]:
        raise diagnostics.fail("olmocr-test-invalid", "a table test without an id", line=line)
    if record.get("cell").__class__ is not str:
        raise diagnostics.fail("olmocr-test-invalid", f"{where}: its cell is not a text", line=line)
    refused = sorted(set(record) - _KEYS)
    if refused:
        diagnostics.add("olmocr-test-refused", Severity.WARNING, f"{where}: olmOCR-bench refuses a table test "
                        f"with {', '.join(map(repr, refused))} (its loading fails)", line=line)
    max_diffs = record.get("max_diffs", 0)
    if max_diffs.__class__ is not int or max_diffs < 0:
        diagnostics.add("olmocr-test-refused", Severity.WARNING, f"{where}: olmOCR-bench refuses max_diffs "
                        f"{max_diffs!r} (a whole number of zero or more); read as 0", line=line)
        record = {**record, "max_diffs": max_diffs if max_diffs.__class__ is int and max_diffs >= 0 else 0}
    for key in TEXT_KEYS:
        value = record.get(key)
        if value is not None and value.__class__ is not str:
            diagnostics.add("olmocr-test-refused", Severity.WARNING, f"{where}: {key} is not a text (olmOCR-bench "
                            "fails on it); left out", line=line)
            record = {**record, key: None}
    return record


_HEAD = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{[^\n]*"type"\s*:\s*"(?:table|present|absent|order|math|baseline|'
                   rb'format|footnote)"')


def sniff(head: bytes) -> bool:
    """A JSON line with a ``pdf`` and a test ``type``."""
    first = head.split(b"\n", 1)[0]
    return _HEAD.match(first) is not None and b'"pdf"' in first


FORMAT = DECLARED["olmocr_tests"]
