"""docs/cli.md, the command-line reference, is what the commands give (tools/cli_reference.py),
and documents every command."""

from __future__ import annotations

import re

import typer

from convertables.cli import app
from tests.conftest import ROOT, load_script

cli_reference = load_script(ROOT / "tools" / "cli_reference.py")

DOC = ROOT / "docs" / "cli.md"
REGENERATE = f"run `{cli_reference.WRITE_COMMAND}`"


def _doc() -> str:
    assert DOC.is_file(), f"docs/cli.md is missing: {REGENERATE}"
    return DOC.read_text(encoding="utf-8")


def _sections(text: str) -> dict[tuple[str, str], list[str]]:
    """The table rows of the page by (## heading, ### subheading)."""
    sections: dict[tuple[str, str], list[str]] = {}
    heading = subheading = ""
    for line in text.splitlines():
        if line.startswith("## "):
            heading, subheading = line[3:], ""
        elif line.startswith("### "):
            subheading = line[4:]
        elif line.startswith("|"):
            sections.setdefault((heading, subheading), []).append(line)
    return sections


def _rows_of(text: str, flag: str) -> list[tuple[str, str, str]]:
    """(heading, subheading, row) of every option row whose flags include ``flag``."""
    return [(heading, subheading, row) for (heading, subheading), rows in _sections(text).items() for row in rows
            if f"`{flag}`" in row.split(" | ")[0]]


def test_docs_cli_md_is_what_the_commands_give():
    assert _doc() == cli_reference.render(), f"docs/cli.md is stale: {REGENERATE}"


def test_the_reference_is_the_same_whatever_the_terminal(monkeypatch):
    first = cli_reference.render()
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("TERM", "dumb")
    assert cli_reference.render() == first
    assert str(ROOT) not in first


def test_every_command_is_documented_by_name():
    text = _doc()
    names = [name for name in typer.main.get_command(app).commands]
    assert {"convert", "check", "score", "formats", "icdar2json"} <= set(names)
    headings = set(re.findall(r"^## convertables (\S+)$", text, flags=re.MULTILINE))
    shortcut_rows = set(re.findall(r"^\| `([^`]+)` \| `convertables convert --from", text, flags=re.MULTILINE))
    missing = [name for name in names if name not in headings | shortcut_rows]
    assert not missing, f"not in docs/cli.md: {missing}; {REGENERATE}"
    assert {"convert", "check", "score", "formats"} <= headings
    assert "icdar2json" in shortcut_rows
    assert "| `icdar2json` | `convertables convert --from icdar --to json` |" in text


def test_the_reference_says_what_the_options_are():
    text = _doc()
    assert text.startswith(cli_reference.HEADER + "\n")
    assert "```\nconvertables convert [OPTIONS] INPUTS...\n```" in text
    examples = re.findall(r"^```sh\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)
    assert any("convertables convert gt/ --from icdar --to json -o gt-json/\n" in block for block in examples)

    [(heading, panel, _)] = _rows_of(text, "--split-blank-rows")
    assert heading == "convertables convert"
    assert panel.startswith("Input options: ") and "xlsx" in panel.removeprefix("Input options: ").split(", ")

    [(heading, panel, row)] = _rows_of(text, "--matching")
    assert heading == "convertables score" and panel.startswith("Settings of ")
    assert "`greedy\\|optimal`" in row and "`greedy`" in row  # choices, and the default

    [(heading, panel, _)] = _rows_of(text, "--penalties")
    assert heading == "convertables score"
    assert "marmot" in panel.removeprefix("Settings of ").split(", ")

    [(heading, _, row)] = _rows_of(text, "--jobs")
    assert heading == "convertables score" and "`-j`" in row and "`INTEGER >= 1`" in row
    assert "| `--version` | `flag` |" in text


def test_check_and_write(tmp_path, monkeypatch, capsys):
    doc = tmp_path / "docs" / "cli.md"
    monkeypatch.setattr(cli_reference, "DOC", doc)
    assert cli_reference.main(["--check"]) == 1
    assert cli_reference.main(["--write"]) == 0
    assert doc.read_text(encoding="utf-8") == cli_reference.render()
    assert cli_reference.main(["--check"]) == 0
    doc.write_text(doc.read_text(encoding="utf-8").replace("--matching", "--matchng"), encoding="utf-8")
    capsys.readouterr()
    assert cli_reference.main(["--check"]) == 1
    message = capsys.readouterr().err
    assert message == f"docs/cli.md is stale: {REGENERATE}\n"
