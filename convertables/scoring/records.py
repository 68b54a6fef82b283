"""A run's records kept on disk, so that memory stays flat in the number of documents.

A corpus of a million documents makes a million records of a few kilobytes
each: the command line keeps them in a :class:`RecordStore`, a temporary file of
JSON lines with the offset of each, and reads them back each time the report is
walked (the aggregate, then the report itself). The library's
:func:`~convertables.score` keeps a plain list unless asked (``spill``).
"""

from __future__ import annotations

import json
import os
import tempfile
import weakref
from array import array
from collections.abc import Sequence
from typing import Iterator


class RecordStore(Sequence):
    """Records appended one at a time, read back in order as often as wanted.
    ``counted()`` is the same walk over the counted records only."""

    def __init__(self):
        fd, name = tempfile.mkstemp(prefix="convertables-records-", suffix=".jsonl")
        self._path = name
        self._file = os.fdopen(fd, "wb")
        # The file goes with the store, or at the latest when the process ends.
        self._finalizer = weakref.finalize(self, _remove, self._file, name)
        self._offsets = array("q")
        self._counted = 0
        self._end = 0

    def append(self, record: dict) -> None:
        line = json.dumps(record, separators=(",", ":")).encode("utf-8") + b"\n"
        self._file.write(line)
        self._offsets.append(self._end)
        self._end += len(line)
        if record.get("counted"):
            self._counted += 1

    def __len__(self) -> int:
        return len(self._offsets)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        self._file.flush()
        with open(self._path, "rb") as reader:
            reader.seek(self._offsets[index])
            return json.loads(reader.readline())

    def __iter__(self) -> Iterator[dict]:
        self._file.flush()
        end = self._end  # (records appended while this walk goes on are not part of it)
        with open(self._path, "rb") as reader:
            position = 0
            for line in reader:
                if position >= end:
                    break
                position += len(line)
                yield json.loads(line)

    def counted(self) -> Counted:
        return Counted(self)

    def __reduce__(self):  # (a report sent to another process carries its records)
        return (list, (list(self),))

    def close(self) -> None:
        self._finalizer()


def _remove(handle, path: str) -> None:
    handle.close()
    try:
        os.unlink(path)
    except OSError:
        pass


class Counted(Sequence):
    """The counted records of a store, walked from its file each time."""

    def __init__(self, store: RecordStore):
        self._store = store

    def __len__(self) -> int:
        return self._store._counted

    def __iter__(self) -> Iterator[dict]:
        return (record for record in self._store if record.get("counted"))

    def __getitem__(self, index):
        return list(self)[index]
