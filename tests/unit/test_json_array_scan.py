"""The members of a file holding one JSON array (containers.json_array_members):
the same wherever the file's chunks are cut, whether an element is passed over
by the standard library's scanner (whole and valid) or bracket by bracket."""

import io

import pytest

from convertables import containers
from convertables.registry import Member

ELEMENTS = [
    b'{"name": "a", "text": "[not {a bracket}]", "poly": [1, 2.5, 3]}',
    b'{"name": "b",\n "rows": [{"x": "\\"quoted\\" \\\\"}, [[]]],\n "z": null}',
    b'{"name": "c", "bad": tru}',  # not JSON: its brackets still close it
    b'[1, 2, 3]',
    b'{"name": "\xe4\xb8\xad\xe6\x96\x87", "n": [{"t": "\\u4e2d}"}]}',
    b'{"name": "d", "raw": "a\x01b", "deep": [[[[{"k": []}]]]]}',
]
SEPARATORS = [b"[\n  ", b",\n  ", b" ,", b",\n\n", b"\t,", b", ", b"\n]\n"]


def _file() -> tuple[bytes, list[Member]]:
    data = b""
    expected = []
    for k, element in enumerate(ELEMENTS):
        data += SEPARATORS[k]
        expected.append(Member(f"{len(element)}", len(data), len(element), data.count(b"\n") + 1))
        data += element
    return data + SEPARATORS[-1], expected


def _members(data: bytes, chunk: int, monkeypatch) -> list[Member]:
    monkeypatch.setattr(containers, "_CHUNK", chunk)
    return list(containers.json_array_members(io.BytesIO(data), lambda element: str(len(element))))


@pytest.mark.parametrize("chunk", [1, 2, 5, 17, 64, 1 << 20])
def test_each_element_its_offset_length_and_line_however_the_chunks_fall(chunk, monkeypatch):
    data, expected = _file()
    assert _members(data, chunk, monkeypatch) == expected


def test_an_element_the_file_ends_inside_is_a_member_to_its_end(monkeypatch):
    data, expected = _file()
    cut = data[:expected[4].offset + 10]
    found = _members(cut, 1 << 20, monkeypatch)
    assert found[:4] == expected[:4]
    assert found[4] == Member("element-5", expected[4].offset, 10, expected[4].line)
