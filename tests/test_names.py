"""File names: what a document is called (to pair results with ground truth),
which model a name says it holds, and what a conversion names its output."""

from __future__ import annotations

from pathlib import Path

import pytest

from convertables import registry
from convertables.convert import output_name
from convertables.score.pairing import document_key, model_of


@pytest.mark.parametrize("name, key, model", [
    ("eu-001-str.xml", "eu-001", "structure"),
    ("eu-001-str-result.xml", "eu-001", "structure"),
    ("eu-001-reg.XML", "eu-001", "region"),
    ("eu-001-reg-result.json", "eu-001", "region"),
    ("eu-001.xml", "eu-001", None),
    ("eu-001.pdf.xml", "eu-001", None),
    ("cTDaR_t10001.jpg.xml", "cTDaR_t10001", None),
    ("page.html", "page", None),
    ("page.htm", "page", None),
    ("book.xlsm", "book", None),
    ("notes.txt", "notes.txt", None),  # no format's suffix: the whole name
])
def test_a_name_gives_the_document_and_the_model(name, key, model):
    assert document_key(Path(name)) == key
    assert model_of(Path(name)) == model


@pytest.mark.parametrize("name, target, has_cells, output", [
    ("eu-001-str.xml", "json", True, "eu-001-str.json"),
    ("page.html", "icdar", True, "page-str.xml"),
    ("page.html", "icdar", False, "page-reg.xml"),
    ("eu-001-reg.json", "icdar", True, "eu-001-reg.xml"),  # the name already says the model
    ("EU-001-STR.JSON", "icdar", True, "EU-001-STR.xml"),
    ("sheet.xlsx", "html", True, "sheet.html"),
])
def test_a_conversion_names_its_output_after_its_input(name, target, has_cells, output):
    assert output_name(Path("sub") / name, registry.get(target), has_cells) == Path("sub") / output


def test_the_input_files_of_a_folder(tmp_path: Path):
    from convertables.files import input_files

    for name in ("a.xml", "B.XML", ".hidden.xml", "notes.txt", "sub/c.json", "sub/d.xlsx"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "folder.xml").mkdir()  # a folder is no file, whatever its name
    assert [p.relative_to(tmp_path).as_posix() for p in input_files(tmp_path)] == [
        "B.XML", "a.xml", "sub/c.json", "sub/d.xlsx"]
    assert input_files(tmp_path, (".json",)) == [tmp_path / "sub" / "c.json"]
