"""Files that hold many documents: containers (SPEC 2.8), such as a PubTabNet
JSONL file, one table a line, each a document named by its ``filename``.

A container format declares :attr:`Format.members <convertables.registry.Format.members>`:
given the file, the documents it holds, each with its name and where its bytes
lie, found in one pass that holds no more than one record at a time. A
container is never held whole: :func:`index` keeps each document's name,
offset and length (a :class:`MemberRef`), and :func:`read_member` reads one
document's bytes when it is needed (in a worker process too: a reference is
small and opens the file itself). So commands run in memory flat in the
container's size: ``convert`` writes one output a document, ``score`` pairs
documents by name across containers and folders, ``check`` checks each record.

Findings on a member name the container and the line its record starts on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, Sequence

from . import files, registry
from .diagnostics import Diagnostic, Diagnostics, InputError, Severity
from .model import Document
from .options import ReadOptions
from .registry import Format, Member
from .sniffing import SNIFF_BYTES

MAX_MEMBER_BYTES = 256 << 20
"""The largest document of a container read (256 MiB, as :data:`convertables.jsonsafe.MAX_JSON_BYTES`):
a larger one is indexed (and reported ``too-large`` when read), never held."""


@dataclass(frozen=True, slots=True)
class MemberRef:
    """One document of a container: the file, its format, its name there, and
    where its bytes lie. ``name`` is what pairing takes a file's name from (as
    ``Path.name``); ``str()`` says ``container#name``."""

    container: Path
    format: str
    name: str
    offset: int
    length: int
    line: int

    def __str__(self) -> str:
        return f"{self.container}#{self.name}"


Source = Path | MemberRef
"""What a command reads a document from: a file, or one document of a container."""


def file_of(source: Source) -> Path:
    """The file a source's bytes are in."""
    return source.container if isinstance(source, MemberRef) else source


def container_suffixes() -> tuple[str, ...]:
    return tuple(s for fmt in registry.formats().values() if fmt.is_container for s in fmt.suffixes)


def container_format(path: Path, forced: Format | None = None) -> Format | None:
    """The container format of the file ``path`` (``forced``: the one named,
    where it is a container's), or None: not a container, or not a file that
    can be read (its reader says why, later). Only files with a container
    format's suffix are looked at, and their content decides, not the suffix:
    another JSON Lines file (score's --records) is no container of documents."""
    if files.is_stdin(path):
        return None
    if forced is not None:
        return forced if forced.is_container and path.is_file() else None
    if not path.name.lower().endswith(container_suffixes()) or not path.is_file():
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError:
        return None
    found = registry.sniffed(head)
    return found if found is not None and found.is_container else None


def index(path: Path, fmt: Format) -> list[MemberRef]:
    """Every document of the container ``path``, in file order (OSError where it
    cannot be read)."""
    with path.open("rb") as handle:
        return [MemberRef(path, fmt.name, m.name, m.offset, m.length, m.line) for m in fmt.members(handle)]


def expand(paths: Sequence, forced: Format | None = None) -> Sequence:
    """``paths`` (Paths, or paths as text) with each container replaced by its
    documents (a container that cannot be indexed, or holds none, stays a file:
    its reader says why)."""
    suffixes = container_suffixes()
    if forced is None and not any(str(path).lower().endswith(suffixes) for path in paths):
        return paths  # (no container: the list as it is, however compactly it holds its paths)
    out: list = []
    for path in paths:
        if forced is None and not str(path).lower().endswith(suffixes):  # (most files: no Path made)
            out.append(path)
            continue
        fmt = container_format(Path(path), forced)
        members: list[MemberRef] = []
        if fmt is not None:
            try:
                members = index(Path(path), fmt)
            except OSError:
                pass
        out.extend(members or [path])
    return out


def _placed(diagnostic: Diagnostic, ref: MemberRef) -> Diagnostic:
    """A finding on a member's bytes, put at its place in the container: the
    lines of the record counted from the line it starts on."""
    from dataclasses import replace

    line = ref.line if diagnostic.line is None else ref.line + diagnostic.line - 1
    return replace(diagnostic, file=str(ref.container), line=line)


def read_member(ref: MemberRef, options: ReadOptions = ReadOptions(),
                diagnostics: Diagnostics | None = None) -> Document:
    """One document of a container, read on its own: its bytes alone are read
    (another record's faults are none of its business). Its findings go to
    ``diagnostics``, at the container's lines; InputError where it cannot be read."""
    fmt = registry.get(ref.format)
    own = Diagnostics(str(ref.container))
    try:
        if ref.length > MAX_MEMBER_BYTES:
            raise own.fail("too-large", f"document {ref.name!r} has {ref.length:,} bytes, more than the "
                                        f"{MAX_MEMBER_BYTES:,} read")
        try:
            with ref.container.open("rb") as handle:
                handle.seek(ref.offset)
                data = handle.read(ref.length)
        except OSError as exc:
            raise own.fail("read-failed", f"cannot be read: {exc.strerror or exc}") from None
        return files.read_document(data, fmt, str(ref.container), options, own, document_name=ref.name)
    except InputError as exc:
        raise InputError(_placed(exc.diagnostic, ref)) from None
    finally:
        if diagnostics is not None:
            diagnostics.items.extend(_placed(d, ref) for d in own.items)


def read_documents(path, format: str | None = None,
                   options: ReadOptions = ReadOptions()) -> Iterator[tuple[str, Document]]:
    """Each document of a file as ``(name, document)``, read as it is asked for:
    a container's documents by their names there, any other file's one by the
    file's name without its suffix. InputError for a document that cannot be
    read (the next ones can still be asked for)."""
    path = Path(path)
    fmt = container_format(path, registry.get(format) if format else None)
    if fmt is None:
        yield registry.without_suffix(path.name), files.read(path, format, options)
        return
    try:
        refs = index(path, fmt)
    except OSError as exc:
        raise InputError(Diagnostic("read-failed", Severity.ERROR, f"cannot be read: {exc.strerror or exc}",
                                    str(path))) from None
    if not refs:  # (an empty file: its reader says so)
        yield registry.without_suffix(path.name), files.read(path, fmt.name, options)
    for ref in refs:
        yield ref.name, read_member(ref, options)


# -- JSON Lines ------------------------------------------------------------------------------

_SKIP_CHUNK = 1 << 20


def jsonl_members(handle: BinaryIO, name_of: Callable[[bytes], str | None]) -> Iterator[Member]:
    """The records of a JSON Lines file, one a non-blank line, each named by
    ``name_of(line)`` (or ``line-<n>`` where it gives none). A line longer than
    :data:`MAX_MEMBER_BYTES` is passed over a chunk at a time, never held: it
    is a member of that length, named from its start, which reading refuses."""
    offset = number = 0
    while True:
        line = handle.readline(MAX_MEMBER_BYTES + 1)
        if not line:
            return
        number += 1
        size = len(line)
        if size > MAX_MEMBER_BYTES and not line.endswith(b"\n"):
            rest = line
            while rest and not rest.endswith(b"\n"):
                rest = handle.readline(_SKIP_CHUNK)
                size += len(rest)
        if not line.isspace():
            yield Member(name_of(line) or f"line-{number}", offset, size, number)
        offset += size


_UNSAFE_NAME = re.compile(r"^\.*$|[\x00-\x1f\x7f]")


def name_from_filename(filename: str) -> str | None:
    """A document's name from a file name a record gives (``PMC4840965_004_00.png``
    -> ``PMC4840965_004_00``): its last part without its suffix. None where that
    leaves nothing a file could be named by (outputs are named after documents:
    a name never climbs out of a folder)."""
    last = re.split(r"[\\/]", filename)[-1]
    stem = last.rsplit(".", 1)[0] if "." in last.lstrip(".") else last
    return None if _UNSAFE_NAME.search(stem) else stem


# -- one JSON object, an entry a document ----------------------------------------------------------

_CHUNK = 1 << 20
_IN_STRING = re.compile(rb'["\\]')
_STRUCTURE = re.compile(rb'["{}\[\],:]')
_MAX_KEY_BYTES = 1 << 16


def json_object_members(handle: BinaryIO, name_of: Callable[[bytes], str | None]) -> Iterator[Member]:
    """The entries of a file holding one JSON object (``{"a.png": ..., "b.png": ...}``),
    each a member from its key's opening quote to its value's end (the bytes
    ``"a.png": ...``), named by ``name_of(the key's JSON string, quotes included)``
    (or ``entry-<n>``). Scanned a chunk at a time, strings skipped by a search
    for their closing quote, never parsed: memory holds a chunk and a key. An
    entry the file ends inside is a member to its end (reading it says what is
    wrong); a file that is no object has none."""
    base = 0  # the file offset of the chunk
    line = 1  # the line the chunk starts on
    depth = 0
    in_string = escaped = False
    # at depth 1: "key" (expected, or being read), "colon" (after it), "colon-done" (a value expected, or a
    # number, true, false or null being passed), "value" (a string), "nested" (an object or list), "after"
    state = "key"
    key = bytearray()
    start = start_line = -1
    count = 0

    def member(end: int) -> Member:
        nonlocal count
        count += 1
        name = name_of(bytes(key)) if len(key) <= _MAX_KEY_BYTES else None
        return Member(name or f"entry-{count}", start, end - start, start_line)

    while True:
        chunk = handle.read(_CHUNK)
        if not chunk:
            if start >= 0 and state != "after" and depth >= 1:
                yield member(base)  # (a file cut inside an entry)
            return
        pos, size = 0, len(chunk)
        while pos < size:
            if in_string:
                if escaped:
                    escaped = False
                    if state == "key" and depth == 1 and len(key) <= _MAX_KEY_BYTES:
                        key += chunk[pos:pos + 1]
                    pos += 1
                    continue
                found = _IN_STRING.search(chunk, pos)
                end = size if found is None else found.start()
                if state == "key" and depth == 1 and len(key) <= _MAX_KEY_BYTES:
                    key += chunk[pos:end + (found is not None)]
                if found is None:
                    pos = size
                    break
                pos = end + 1
                if chunk[end] == 0x5C:  # a backslash: the next byte is escaped
                    escaped = True
                    continue
                in_string = False
                if depth == 1 and state == "key":
                    state = "colon"
                elif depth == 1 and state == "value":
                    yield member(base + pos)
                    state = "after"
                continue
            found = _STRUCTURE.search(chunk, pos)
            if found is None:
                break
            at, mark = found.start(), chunk[found.start()]
            pos = at + 1
            if depth == 0:
                if mark != 0x7B:  # "{": the file is no object
                    return
                depth = 1
                continue
            if mark == 0x22:  # '"'
                in_string = True
                if depth == 1 and state in ("key", "after"):
                    state, key[:] = "key", b'"'
                    start, start_line = base + at, line + chunk.count(b"\n", 0, at)
                elif depth == 1 and state == "colon-done":
                    state = "value"
            elif mark in (0x7B, 0x5B):  # "{", "["
                if depth == 1 and state == "colon-done":
                    state = "nested"
                depth += 1
            elif mark in (0x7D, 0x5D):  # "}", "]"
                depth -= 1
                if depth == 1 and state == "nested":
                    yield member(base + pos)
                    state = "after"
                elif depth == 0:
                    if state == "colon-done":  # a number, true, false or null last
                        yield member(base + at)
                    return
            elif depth == 1 and mark == 0x3A:  # ":"
                if state == "colon":
                    state = "colon-done"
            elif depth == 1 and mark == 0x2C:  # ","
                if state == "colon-done":  # a number, true, false or null: it ended here
                    yield member(base + at)
                state = "after"
        line += chunk.count(b"\n")
        base += size


def _entry_name(key: bytes) -> str | None:
    try:
        return name_from_filename(json.loads(key))
    except ValueError:
        return None


def json_object_entries(handle: BinaryIO) -> Iterator[Member]:
    """The entries of a JSON object of ``{file name: document}``, each a member
    named by its key's file name (PubTabNet's TEDS JSON, DP-Bench's files)."""
    return json_object_members(handle, _entry_name)


# -- one JSON array, an element a document ---------------------------------------------------------

_ARRAY_TOKEN = re.compile(rb'(?:[^"\[\]{}]+|"[^"\\]*(?:\\.[^"\\]*)*")+|"|\[[^\[\]{}"]*\]|[\[\]{}]')
"""A run of text and whole strings without a bracket outside them, a quote whose
string goes on past what is held, an array with no string or bracket inside
(passed over whole: lists of numbers), or a bracket."""


_BRACKETS = frozenset(b"[]{}")

_ELEMENT_START = re.compile(rb"[\s,]*[\[{]")
"""What may come before an element that is an object or an array: blanks and a comma."""

_SCANNER = json.JSONDecoder(strict=False)


def _value_end(text: str, at: int) -> int | None:
    """Where the JSON value that starts at ``at`` ends, found by the standard
    library's scanner; None where it is not valid JSON there (or the text held
    ends inside it): the bracket scan decides."""
    try:
        return _SCANNER.raw_decode(text, at)[1]
    except (ValueError, RecursionError):
        return None


def json_array_members(handle: BinaryIO, name_of: Callable[[bytes], str | None]) -> Iterator[Member]:
    """The elements of a file holding one JSON array (``[{...}, {...}]``) that are
    objects or arrays, each a member named by ``name_of(its bytes)`` (or
    ``element-<n>``; an element longer than :data:`MAX_MEMBER_BYTES` is named
    so, unread). Read a chunk at a time, strings passed over whole by a regular
    expression: memory holds a chunk and one element. An element the file ends
    inside is a member to its end (reading it says what is wrong); a file that
    is no array has none. An element that the bytes held hold whole and that is
    valid JSON is passed over by the standard library's scanner (in C) instead
    of bracket by bracket: it ends where its brackets close."""
    held = b""  # the bytes from ``held_at`` on, not yet passed over (or of the element being read)
    text = None  # ``held`` as one character a byte (Latin-1, the scanner's offsets the bytes'), once needed
    held_at = 0
    line = 1  # the line ``held`` starts on
    counted, counted_line = 0, 1  # where in ``held`` lines were counted to, and the line there
    depth = 0
    start = start_line = -1
    count = 0
    pos = 0  # where in ``held`` the scan goes on

    def line_of(k: int) -> int:  # the line of byte k of ``held``, counted on from the last one asked
        nonlocal counted, counted_line
        if k < counted:
            counted, counted_line = 0, line
        counted_line += held.count(b"\n", counted, k)
        counted = k
        return counted_line

    while True:
        chunk = handle.read(_CHUNK)
        if chunk:
            held += chunk
            text = None
        while True:
            if depth == 1 and start < 0:
                begins = _ELEMENT_START.match(held, pos)
                end = None
                if begins is not None:
                    if text is None:
                        text = held.decode("latin-1")
                    end = _value_end(text, begins.end() - 1)
                if end is not None:  # a whole element, valid JSON
                    at = begins.end() - 1
                    count += 1
                    yield Member(name_of(held[at:end]) or f"element-{count}", held_at + at, end - at, line_of(at))
                    pos = end
                    continue
            found = _ARRAY_TOKEN.search(held, pos)
            if found is None and not chunk:
                break
            if found is None or held[found.start():found.end()] == b'"':
                break  # (a string that goes on past the bytes held: wait for more)
            pos = found.end()
            mark = held[found.start()]
            if mark not in _BRACKETS:
                continue
            if mark == 0x5B and pos - found.start() > 1:  # a flat array, whole
                if depth == 0:
                    return  # (the file is an array of no object or array)
                if depth == 1:
                    count += 1
                    at = held_at + found.start()
                    yield Member(name_of(found.group(0)) or f"element-{count}", at, pos - found.start(),
                                 line_of(found.start()))
                continue
            if depth == 0:
                if mark != 0x5B:  # "[": the file is no array
                    return
                depth = 1
            elif mark in (0x7B, 0x5B):
                if depth == 1:
                    start, start_line = held_at + found.start(), line_of(found.start())
                depth += 1
            else:
                depth -= 1
                if depth == 1 and start >= 0:
                    length = held_at + pos - start
                    name = name_of(held[start - held_at:pos]) if length <= MAX_MEMBER_BYTES else None
                    count += 1
                    yield Member(name or f"element-{count}", start, length, start_line)
                    start = -1
                elif depth <= 0:
                    return
        if not chunk:
            if start >= 0:
                count += 1
                yield Member(f"element-{count}", start, held_at + len(held) - start, start_line)
            return
        # Keep what a member being read or a string cut by the chunk's end still needs.
        keep = min(pos, start - held_at) if start >= 0 else pos
        if start >= 0 and held_at + len(held) - start > MAX_MEMBER_BYTES:
            keep = pos  # (too long to be named: not held)
        line = line_of(keep)
        counted = 0
        held_at += keep
        held = held[keep:]
        text = None
        pos -= keep
