"""Reading and writing documents as files (the commands' functions, which use
these, are in :mod:`convertables.api`).

``read`` and ``write`` pick the format (given, or from content and suffix),
call the format's module, and turn every failure into an :class:`InputError`
that names the file. Outputs are written atomically (a temporary file in the
same folder, then a rename) and never replace an existing file unless
``force`` is set; an interrupted write leaves nothing behind.
"""

from __future__ import annotations

import os
from pathlib import Path
from array import array
from typing import Callable, Iterable, Iterator, Sequence, TextIO

from . import registry
from .diagnostics import Diagnostic, Diagnostics, InputError, Severity, UsageError
from .grid import validate_document
from .model import Document, Reading
from .options import ReadOptions, WriteOptions
from .registry import Format
from .sniffing import page_file

_UMASK = os.umask(0o022)
os.umask(_UMASK)  # read once at import: os.umask is process-wide, not thread-safe

MAX_INPUT_BYTES = 1 << 30
"""Inputs larger than this (1 GiB) are refused rather than read into memory."""


def _error(code: str, message: str, file: Path | str) -> InputError:
    return InputError(Diagnostic(code, Severity.ERROR, message, str(file)))


STDIN = Path("-")
"""The input ``-``: standard input."""


def is_stdin(path) -> bool:
    """Whether ``path`` is ``-``. (Compared as text: comparing Path objects makes
    each keep a list of its parts, a cost that a corpus of a million files feels.)"""
    return path is STDIN or str(path) == "-"


def display_name(path: Path) -> str:
    """How diagnostics name an input (standard input as ``<stdin>``)."""
    return "<stdin>" if is_stdin(path) else str(path)


def read_bytes_of(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a file (``-``: standard input) of at most ``limit`` bytes
    (by default MAX_INPUT_BYTES; InputError otherwise, or where it cannot be read)."""
    limit = MAX_INPUT_BYTES if limit is None else limit
    if is_stdin(path):
        import sys

        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise _error("too-large", f"the input has more than {limit:,} bytes, the limit", "<stdin>")
        return data
    try:
        size = path.stat().st_size
        if size <= limit:
            with path.open("rb") as handle:  # (no more than the limit: a pipe or device says size 0)
                # A buffer of the limit's size for a small file costs more than the
                # read: a file as large as it says, then the rest, if it grew.
                data = handle.read(size + 1) if size else b""
                if len(data) > size or not size:
                    data += handle.read(limit + 1 - len(data))
            size = len(data)
        if size > limit:
            raise _error("too-large", f"the file has more than {limit:,} bytes, the limit", path)
        return data
    except IsADirectoryError:
        raise _error("read-failed", "is a directory, not a file", path) from None
    except FileNotFoundError:
        raise _error("read-failed", "no such file", path) from None
    except OSError as exc:
        raise _error("read-failed", f"cannot be read: {exc.strerror or exc}", path) from None


def input_files(folder: Path, suffixes: Iterable[str] | None = None) -> list[Path]:
    """The files under ``folder`` (read recursively, sorted) whose names end in
    one of ``suffixes`` (any case; by default those of the formats taken from
    folders), hidden ones left out."""
    return [Path(name) for name in input_names(folder, suffixes)]


def input_names(folder: Path | str, suffixes: Iterable[str] | None = None) -> PathList:
    """:func:`input_files` as text, held compactly (a :class:`PathList`): in the
    same order, that of the paths' parts, which is each folder's entries by name,
    a subfolder's files at its place. Links to folders are not followed (as
    ``Path.rglob``); folders that cannot be read are passed over."""
    wanted = tuple(s.lower() for s in (registry.folder_suffixes() if suffixes is None else suffixes))
    found = PathList()

    def walk(directory: str) -> None:
        try:
            with os.scandir(directory) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except (PermissionError, NotADirectoryError, FileNotFoundError):
            return
        names: list[str] = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    found.add(directory, names)  # (this folder's files before the subfolder's)
                    names = []
                    walk(entry.name if directory == "." else entry.path)
                elif (entry.name.lower().endswith(wanted) and not entry.name.startswith(".")
                      and entry.is_file()):
                    names.append(entry.name)
            except OSError:
                continue
        found.add(directory, names)

    walk(str(folder))
    return found


class PathList(Sequence[str]):
    """File paths as text, held compactly: each folder's path once, and its
    files' names in one string. A corpus's file list is held for a whole run: a
    million paths as Path objects take gigabytes, as strings hundreds of
    megabytes, and so a few tens. ``paths[i]`` is the path as text (``x.xml``
    for a file in ``.``, as ``Path`` writes it)."""

    def __init__(self, paths: Iterable[str] = ()):
        self._prefixes: list[str] = []  # a folder's path and a separator ("" for ".")
        self._blobs: list[str] = []  # its files' names, end to end
        self._blob = array("I")  # each path's blob
        self._start = array("Q")  # where its name starts there (and ends: the next name's start, or the end)
        prefix, names = None, []
        for path in paths:  # (a folder's paths that come together: one blob)
            folder, name = os.path.split(path)
            folder = os.path.join(folder, "") if folder else ""
            if folder != prefix:
                if names:
                    self._add(prefix, names)
                prefix, names = folder, []
            names.append(name)
        if names:
            self._add(prefix, names)

    def add(self, folder: str, names: list[str]) -> None:
        """The files ``names`` of ``folder``, after those already held."""
        self._add("" if folder == "." else os.path.join(folder, ""), names)

    def _add(self, prefix: str, names: list[str]) -> None:
        if not names:
            return
        self._prefixes.append(prefix)
        self._blobs.append("".join(names))
        blob = len(self._blobs) - 1
        at = 0
        for name in names:
            self._blob.append(blob)
            self._start.append(at)
            at += len(name)

    def __len__(self) -> int:
        return len(self._blob)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if index < 0:
            index += len(self)
        blob = self._blob[index]
        last = index + 1 == len(self._blob) or self._blob[index + 1] != blob
        end = len(self._blobs[blob]) if last else self._start[index + 1]
        return self._prefixes[blob] + self._blobs[blob][self._start[index]:end]

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(len(self)))

    def where(self, keep: Callable[[str], bool]) -> PathList:
        """The paths that ``keep`` takes, in their order, as a :class:`PathList` too."""
        kept = PathList()
        names: list[str] = []
        blob = -1
        for i in range(len(self)):
            if self._blob[i] != blob:
                if names:
                    kept._add(self._prefixes[blob], names)
                blob, names = self._blob[i], []
            path = self[i]
            if keep(path):
                names.append(path[len(self._prefixes[blob]):])
        if names:
            kept._add(self._prefixes[blob], names)
        return kept


def _refuse_page_file(data: bytes, name: str) -> None:
    """A PDF or a page image is refused, naming what turns it into a format convertables reads."""
    kind = page_file(data[:1024])
    if kind is not None:
        raise InputError(Diagnostic(
            "pdf-or-image", Severity.ERROR, f"{kind}: it holds no table structure convertables can read", name,
            hint="a table extractor turns it into a format convertables reads: " + ", ".join(registry.extractors())))


def detect_format(path: Path, data: bytes) -> Format:
    _refuse_page_file(data, display_name(path))  # (whatever its name: a PDF saved as .xml is no ICDAR 2013 file)
    fmt = registry.detect(path, data[: registry.SNIFF_BYTES])
    if fmt is None:
        raise _error("unknown-format", "cannot tell its format; pass --from (convert) or name a file with its "
                                       "suffix", display_name(path))
    return fmt


def _mismatch(data: bytes, fmt: Format, doc: Document, diagnostics: Diagnostics) -> None:
    """Where ``fmt`` was asked for and the content is plainly another format's
    (its sniffer recognises it, ``fmt``'s does not): a document with no text is
    refused (read so, the file gave empty cells), any other is warned about."""
    found = registry.sniffed(data[: registry.SNIFF_BYTES])  # (where two sniffers take it, the first decides)
    if found is None or found is fmt or found.name in fmt.reads_files_of:
        return
    message = f"asked to read it as {fmt.name}, but its content is {found.name} ({found.title})"
    hint = f"drop --from, or pass --from {found.name}"
    if not any(cell.content for table in doc.tables for cell in table.cells()):
        raise diagnostics.fail("format-mismatch", message + ": nothing was read", hint=hint)
    diagnostics.warning("format-mismatch", message, hint=hint)


def read_document(
    data: bytes,
    fmt: Format,
    name: str,
    options: ReadOptions = ReadOptions(),
    diagnostics: Diagnostics | None = None,
    asked: bool = False,
    document_name: str | None = None,
) -> Document:
    """Read bytes already in memory with the given format; the grid check
    (:func:`~convertables.grid.validate_document`) runs here for every reader.
    ``asked``: the format was named, not found from the content (``--from``):
    a content plainly of another format is said, and refused if nothing was read.
    ``document_name``: the document's name where the format gives none (a
    container's member: its name there), else the file's name."""
    diagnostics = diagnostics if diagnostics is not None else Diagnostics(name)
    diagnostics.file = diagnostics.file or name
    reader = fmt.reader()
    if asked:
        _refuse_page_file(data, diagnostics.file)
    try:
        found = reader(data, diagnostics, options)
        reading = found if found.__class__ is Reading else Reading(found)  # (a reader may return a Document)
        doc = reading.document
        validate_document(doc, diagnostics, reading.source_lines, regions=reading.regions_to_check)
        if asked:
            _mismatch(data, fmt, doc, diagnostics)
        if doc.filename is None and document_name is not None:
            doc.filename = document_name
        elif doc.filename is None and name and not name.startswith("<"):
            doc.filename = Path(name).name  # formats without a document name: the file's
        return doc
    except InputError:
        raise
    except RecursionError:
        raise diagnostics.fail("too-deep", "the input nests too deeply to read") from None
    except MemoryError:
        pass
    # Only an exhausted memory comes here, said outside the handler: there the
    # error's traceback still holds what the reading had built.
    raise diagnostics.fail("too-large", "out of memory: the input needs more memory than is available")


def read(
    path: str | os.PathLike,
    format: str | None = None,
    options: ReadOptions = ReadOptions(),
    diagnostics: Diagnostics | None = None,
) -> Document:
    """Read one file into the canonical model."""
    path = Path(path)
    data = read_bytes_of(path)
    fmt = registry.get(format) if format else detect_format(path, data)
    return read_document(data, fmt, str(path), options, diagnostics, asked=format is not None)


def dumps(
    doc: Document,
    format: str,
    options: WriteOptions = WriteOptions(),
    diagnostics: Diagnostics | None = None,
) -> bytes:
    """The bytes of ``doc`` written in ``format``, its boxes first converted to
    the format's own frame where ``options`` say how; what the format cannot hold
    of the document is said (``lossy-*`` warnings, :mod:`convertables.losses`)."""
    from .grid import GridTooLarge
    from .losses import warn_losses

    fmt = registry.get(format)
    diagnostics = diagnostics if diagnostics is not None else Diagnostics()
    try:
        data = fmt.writer()(_in_native_frame(doc, fmt, options, diagnostics), diagnostics, options)
    except GridTooLarge as exc:  # (a skeleton made from the grid)
        raise diagnostics.fail("too-large", str(exc)) from None
    warn_losses(doc, fmt, options, diagnostics)
    return data


def _in_native_frame(doc: Document, to_format: Format, options: WriteOptions, diagnostics: Diagnostics) -> Document:
    """``doc`` with its boxes in the target format's frame, where the options say
    how: image pixels need the DPI (``dpi``, or an ``image`` that says it) and the
    page height (``page_height``, ``pdf`` or ``image``); fractions of the page need
    the page's size (``pdf``, ``image``, or ``page_width`` with ``page_height``).
    Boxes that cannot be converted stay as they are (the writer says which frame
    it wrote), with a warning."""
    from .geometry import PageFrame, convert_document
    from .model import Frame

    if to_format.native_frame is None or not any(
            (options.dpi, options.image, options.pdf, options.page_height, options.page_width)):
        return doc
    target = Frame(to_format.native_frame)
    frames = {box.frame for table in doc.tables for region in table.regions
              for box in (region.bbox, *(c.bbox for c in region.cells)) if box is not None} - {target}
    if not frames:
        return doc
    sizes: dict[int, tuple[float | None, float]] = {}
    dpi = options.dpi
    if options.image:
        from .images import image_info

        info = image_info(options.image)
        dpi = dpi or info.dpi
        if dpi is None:
            diagnostics.warning("frame-unknown", f"{options.image} does not say its DPI: pass --dpi")
            return doc
        sizes = {1: (info.width * 72.0 / dpi, info.height * 72.0 / dpi)}
    elif options.pdf:
        from .pdf import page_sizes

        sizes = {i + 1: size for i, size in enumerate(page_sizes(options.pdf))}
    elif options.page_height is None:
        diagnostics.warning("frame-unknown", "--dpi needs --page-height or --pdf to convert coordinates"
                            if Frame.IMAGE in frames else "fractions of the page need --pdf or --page-width "
                            "and --page-height to convert coordinates")
        return doc
    for frame, needs, flag in ((Frame.IMAGE, dpi, "--dpi"), (Frame.PAGE, sizes or options.page_width, "--page-width")):
        if frame in frames and needs is None:
            diagnostics.warning("frame-unknown", f"boxes in {frame.value} coordinates stay as they are: they need "
                                                 f"{flag} to convert")

    def frame_of_page(page: int):
        width, height = sizes.get(page, (options.page_width, options.page_height))
        return PageFrame(dpi, height, width) if height else None

    converted, left = convert_document(doc, target, frame_of_page)
    if left and sizes:
        pages = "other than the image's (page 1)" if options.image else "the PDF does not have"
        diagnostics.warning("frame-unknown", f"{left} box(es) on pages {pages} were not converted")
    return converted


def output_format(path: Path) -> Format:
    """The writable format an output file's suffix names (``.xml`` is ICDAR 2013)."""
    suffix = path.suffix.lower()
    if suffix in registry.FALLBACK_BY_SUFFIX:
        return registry.get(registry.FALLBACK_BY_SUFFIX[suffix])
    for fmt in registry.FORMATS.values():
        if suffix in fmt.suffixes and fmt.writes:
            return fmt
    raise UsageError(f"cannot tell the output format from {path.name!r}; pass --to")


def write(
    doc: Document,
    path: str | os.PathLike,
    format: str | None = None,
    options: WriteOptions = WriteOptions(),
    force: bool = False,
    diagnostics: Diagnostics | None = None,
) -> None:
    """Write ``doc`` to ``path`` atomically; refuse to replace a file unless ``force``."""
    path = Path(path)
    fmt = registry.get(format) if format else output_format(path)
    diagnostics = diagnostics if diagnostics is not None else Diagnostics(str(path))
    write_atomic(path, dumps(doc, fmt.name, options, diagnostics), force=force)


class AtomicLines:
    """A file written a piece at a time, as the pieces come (into a temporary
    file beside it), and put in place whole by :meth:`close`, as write_atomic
    does: until then readers see the old file or none. Memory holds no more
    than a piece (a JSONL container of any size is written so)."""

    def __init__(self, path: Path, force: bool = False):
        self.path, self.force = path, force
        if not force and path.exists():
            raise _error("output-exists", "exists already; pass --force to replace it", path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.handle, self.tmp = _temporary_beside(path)
        except OSError as exc:
            raise _error("write-failed", f"cannot be written: {exc.strerror or exc}", path) from None

    def write(self, line: str) -> None:
        """A line of text (UTF-8), its line end added."""
        self.write_bytes((line + "\n").encode("utf-8"))

    def write_bytes(self, data: bytes) -> None:
        try:
            self.handle.write(data)
            self.handle.flush()
        except OSError as exc:
            raise _error("write-failed", f"cannot be written: {exc.strerror or exc}", self.path) from None

    def close(self) -> None:
        """Put the file in place (InputError where it cannot be)."""
        try:
            os.fsync(self.handle.fileno())
            self.handle.close()
            _put_in_place(self.tmp, self.path, self.force)
        except OSError as exc:
            raise _error("write-failed", f"cannot be written: {exc.strerror or exc}", self.path) from None
        finally:
            self.discard()

    def discard(self) -> None:
        if not self.handle.closed:
            try:
                self.handle.close()
            except OSError:  # (what a full disk kept in the buffer: going anyway)
                pass
        _remove_temporary(self.tmp)


def write_text_atomic(path: Path, write: Callable[[TextIO], None], force: bool = False) -> None:
    """``write(out)`` writes text (UTF-8) a piece at a time into a file put in
    place whole, as :class:`AtomicLines` does (InputError where it cannot be)."""
    import io

    target = AtomicLines(Path(path), force=force)
    try:
        # (a lone surrogate, which a name from JSON may hold, is written as its escape: UTF-8 has none)
        text = io.TextIOWrapper(target.handle, encoding="utf-8", errors="backslashreplace", newline="")
        write(text)
        text.flush()
        text.detach()
    except OSError as exc:  # (a full disk, a file too large)
        target.discard()
        raise _error("write-failed", f"cannot be written: {exc.strerror or exc}", path) from None
    except BaseException:
        target.discard()
        raise
    target.close()


def _put_in_place(tmp: Path, path: Path, force: bool) -> None:
    """Rename the finished temporary file ``tmp`` to ``path``; without ``force``
    an existing file is left alone (checked atomically: ``tmp`` is hard-linked
    into place). OSError where the file system refuses."""
    os.chmod(tmp, 0o666 & ~_UMASK)
    if force:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise _error("output-exists", "exists already; pass --force to replace it", path) from None
    except OSError:  # file systems without hard links: best effort
        if path.exists():
            raise _error("output-exists", "exists already; pass --force to replace it", path) from None
        os.replace(tmp, path)


def write_atomic(path: Path, data: bytes, force: bool = False) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole
    new one, never a part; without ``force`` an existing file is left alone
    (checked atomically: the new file is hard-linked into place)."""
    if not force and path.exists():
        raise _error("output-exists", "exists already; pass --force to replace it", path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = _temporary_beside(path)
    except OSError as exc:
        raise _error("write-failed", f"cannot be written: {exc.strerror or exc}", path) from None
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        _put_in_place(tmp, path, force)
    except OSError as exc:
        raise _error("write-failed", f"cannot be written: {exc.strerror or exc}", path) from None
    finally:
        _remove_temporary(tmp)


_TEMPORARIES: set[str] = set()
"""The temporary files being written now: :func:`discard_temporaries` removes
them where a run is interrupted at any point, even before their writer could
note them."""


def signals_held():
    """A context in which Ctrl-C, SIGTERM and SIGHUP wait (they are delivered
    when it ends): a temporary file is made and noted as one step."""
    import signal
    from contextlib import contextmanager

    @contextmanager
    def held():
        names = ("SIGINT", "SIGTERM", "SIGHUP")
        signals = {getattr(signal, name) for name in names if hasattr(signal, name)}
        if not hasattr(signal, "pthread_sigmask"):
            yield
            return
        before = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)

    return held()


def _temporary_beside(path: Path):
    """A new temporary file in ``path``'s folder, open for writing, and its path."""
    import tempfile  # (here: imports that scoring to the screen does not need)

    with signals_held():
        # (the name's start only: the temporary name must stay within 255 bytes too)
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:40]}.", suffix=".part")
        _TEMPORARIES.add(name)
        handle = os.fdopen(fd, "wb")
    return handle, Path(name)


def _remove_temporary(tmp: Path) -> None:
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    _TEMPORARIES.discard(str(tmp))


def discard_temporaries() -> None:
    """Remove every temporary file still being written (an interrupted run)."""
    for name in list(_TEMPORARIES):
        _remove_temporary(Path(name))


# -- the paths a command is given ------------------------------------------------------

FILE, FOLDER, ANY = "file", "folder", "file or folder"


class PathArg:
    """A path a command was given, and what it must be.

    ``option`` names it in messages (``-o``, ``--html``, ``--pdf-dir``, ``the
    input``); ``value`` is as given: text keeps a trailing slash, which says a
    folder (``Path`` drops it). ``wants`` is :data:`FILE`, :data:`FOLDER` or
    :data:`ANY`. An input folder's ``reads`` are the suffixes of the files read
    from it (None: every file), so that an output beside them that no one reads
    is allowed."""

    __slots__ = ("option", "value", "wants", "output", "reads", "takes")

    def __init__(self, option: str, value, wants: str = ANY, *, output: bool = False,
                 reads: Iterable[str] | None = None, takes: str | None = None):
        self.option, self.value, self.wants, self.output = option, value, wants, output
        self.reads = None if reads is None else tuple(s.lower() for s in reads)
        self.takes = takes
        """What the option takes, in words, for the message where it is given something else."""

    @property
    def given(self) -> bool:
        return self.value is not None and not is_stdin(self.value)

    @property
    def path(self) -> Path:
        return Path(self.value)

    @property
    def names_folder(self) -> bool:
        """Given with a trailing slash: a folder, whether or not it exists."""
        text = os.fspath(self.value)
        return isinstance(text, str) and text.endswith(("/", os.sep))


def check_command_paths(arguments: Iterable[PathArg], force: bool | None = None, force_flag: str = "--force") -> None:
    """Check every path a command was given before any work: inputs exist and
    are what they must be (a folder where a folder is read); no output is a
    folder where a file is written, or a file (or a name with a format's suffix
    that does not exist yet) where a folder is; none is one of the inputs, or a
    file that would be read from an input folder, by resolved path (links and
    ``..`` followed), with or without ``force``; no two outputs are one file.
    ``force`` False: an existing output file is refused too (None: the caller
    checks each as it writes; ``force_flag`` is how the message names it).
    :class:`UsageError` for the first found."""
    arguments = [a for a in arguments if a.given]
    inputs = [a for a in arguments if not a.output]
    for arg in inputs:
        path = arg.path
        if not path.exists():
            raise UsageError(f"{_named(arg)}: no such {'file or folder' if arg.wants == ANY else arg.wants}")
        if arg.wants == FOLDER and not path.is_dir():
            raise UsageError(f"{_named(arg)}: is a file; {arg.takes or f'{arg.option} takes a folder'}")
        if arg.wants == FILE and path.is_dir():
            raise UsageError(f"{_named(arg)}: is a folder; {arg.takes or f'{arg.option} takes a file'}")
    read = [(a.path.resolve(), a) for a in inputs]
    written: dict[Path, PathArg] = {}
    for arg in (a for a in arguments if a.output):
        path = arg.path
        target = path.resolve()
        for source, of in read:
            if _reads(source, of, target):
                read_as = f" (read as {of.option})" if of.option.startswith("-") else ""
                raise UsageError(f"{_named(arg)}: is one of the inputs; refused even with --force{read_as}")
        if arg.wants == FILE:
            if arg.names_folder:
                raise UsageError(f"{_named(arg)}: names a folder (it ends in a slash); {arg.option} writes a file")
            if path.is_dir():
                raise UsageError(f"{_named(arg)}: is a folder; {arg.option} writes a file")
        elif arg.wants == FOLDER:
            if path.exists() and not path.is_dir():
                raise UsageError(f"{_named(arg)}: is a file; {arg.option} writes into a folder here")
            if not path.exists() and not arg.names_folder and _names_a_file(path):
                raise UsageError(f"{_named(arg)}: names a file (its suffix is {path.suffix}); {arg.option} writes "
                                 "into a folder here (end it with a slash for a folder of that name)")
        if target in written:
            raise UsageError(f"{_named(arg)}: named by both {written[target].option} and {arg.option}")
        written[target] = arg
        if force is False and arg.wants == FILE and path.exists():
            raise UsageError(f"{os.fspath(arg.value)} exists already; pass {force_flag} to replace it")


def _named(arg: PathArg) -> str:
    return f"{arg.option} {os.fspath(arg.value)}" if arg.option.startswith("-") else os.fspath(arg.value)


def _names_a_file(path: Path) -> bool:
    """Whether ``path``'s suffix is a writable format's (``single.json``)."""
    suffix = path.suffix.lower()
    return bool(suffix) and any(suffix in f.suffixes for f in registry.formats().values() if f.writes)


def _reads(source: Path, arg: PathArg, target: Path) -> bool:
    """Whether writing ``target`` replaces something the input ``arg`` (at
    ``source``, resolved) is read from."""
    if target == source:
        return True
    if source.is_dir():
        return source in target.parents and (arg.reads is None or target.name.lower().endswith(arg.reads))
    try:  # the same file by another name (a hard link)
        return target.exists() and os.path.samefile(source, target)
    except OSError:
        return False
