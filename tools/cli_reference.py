"""The command-line reference, docs/cli.md, generated from the commands themselves.

    python tools/cli_reference.py            # print it
    python tools/cli_reference.py --write    # rewrite docs/cli.md
    python tools/cli_reference.py --check    # exit 1 if docs/cli.md is stale

A development script of the source checkout (not part of the installed package):
it writes into the checkout's docs/.

:func:`render` reads the click objects Typer builds from ``convertables.cli.app``
(the same objects ``--help`` prints) and writes Markdown from their fields: names,
option flags, types, defaults, help texts and help panels. Nothing comes from the
terminal rendering, so the page does not depend on the terminal's width, the
machine or the date; the same commands give the same page, byte for byte.
A test (tests/acceptance/test_cli_reference.py) fails when docs/cli.md differs from it.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

PROGRAM = "convertables"
WRITE_COMMAND = "python tools/cli_reference.py --write"
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # (run from the checkout: its convertables, installed or not)
    sys.path.insert(0, str(ROOT))
DOC = ROOT / "docs" / "cli.md"

HEADER = f"<!-- Generated from the commands by `{WRITE_COMMAND}`: do not edit by hand. -->"

# A shortcut's help says which conversion it is (cli.py, _declare_conversion_commands).
_SHORTCUT = re.compile(r"same as (convert --from (\S+) --to (\S+?))\.?\s*$")

# Value names by click parameter type, looked up along the type's class hierarchy
# (by name: Typer vendors click from 0.28 on, and subclasses its Path).
_TYPE_NAMES = {
    "IntRange": "INTEGER", "FloatRange": "FLOAT", "IntParamType": "INTEGER", "FloatParamType": "FLOAT",
    "BoolParamType": "BOOLEAN", "StringParamType": "TEXT", "UUIDParameterType": "UUID", "Path": "PATH",
    "File": "FILE", "DateTime": "DATETIME", "Tuple": "TUPLE",
}


# -- the commands -----------------------------------------------------------------------

def _root_and_commands():
    """The root group, a context for it, and its visible commands in the order declared."""
    import typer

    from convertables.cli import app

    group = typer.main.get_command(app)
    ctx = typer.Context(group, info_name=PROGRAM, **(group.context_settings or {}))
    commands = []
    for name in list(group.commands):  # (cli.py's _Root builds a command when it is looked up)
        command = group.get_command(ctx, name)
        if command is not None and not getattr(command, "hidden", False):
            commands.append((name, command))
    return group, ctx, commands


# -- help texts -------------------------------------------------------------------------

def _paragraphs(help_text: str | None) -> list[str]:
    text = inspect.cleandoc(help_text or "").split("\f")[0]  # (click: \f ends what help shows)
    return [p for p in re.split(r"\n\s*\n", text) if p.strip()]


def _unwrap(paragraph: str) -> str:
    return " ".join(line.strip() for line in paragraph.replace("\b", "").splitlines() if line.strip())


def _summary(command) -> str:
    if getattr(command, "short_help", None):
        return _unwrap(command.short_help)
    paragraphs = _paragraphs(command.help)
    return _unwrap(paragraphs[0]) if paragraphs else ""


def _help_blocks(help_text: str | None) -> list[str]:
    """The help as Markdown blocks: each paragraph unwrapped, and the indented
    command lines after an ``Examples:`` paragraph as one ``sh`` block."""
    blocks: list[str] = []
    examples: list[str] | None = None

    def close_examples():
        nonlocal examples
        if examples:
            blocks.append("```sh\n" + "\n".join(examples) + "\n```")
        examples = None

    for paragraph in _paragraphs(help_text):
        indented = paragraph[:1].isspace()
        if examples is not None and indented:
            examples.extend(inspect.cleandoc(paragraph).splitlines())
            continue
        close_examples()
        if re.fullmatch(r"examples?:", paragraph.strip(), flags=re.IGNORECASE):
            blocks.append("Examples:")
            examples = []
        elif indented:
            blocks.append("```text\n" + inspect.cleandoc(paragraph) + "\n```")
        else:
            blocks.append(_unwrap(paragraph))
    close_examples()
    return blocks


# -- parameters -------------------------------------------------------------------------

def _number(value) -> str:
    return format(value, "g") if isinstance(value, float) else str(value)


def _type_name(param_type) -> str:
    choices = getattr(param_type, "choices", None)
    if choices:
        return "|".join(str(getattr(c, "value", c)) for c in choices)
    for cls in type(param_type).__mro__:
        if cls.__name__ in _TYPE_NAMES:
            name = _TYPE_NAMES[cls.__name__]
            break
    else:
        name = str(getattr(param_type, "name", "value")).upper()
    low, high = getattr(param_type, "min", None), getattr(param_type, "max", None)
    low_op = ">" if getattr(param_type, "min_open", False) else ">="
    high_op = "<" if getattr(param_type, "max_open", False) else "<="
    if low is not None and high is not None:
        return f"{_number(low)} {'<' if low_op == '>' else '<='} {name} {high_op} {_number(high)}"
    if low is not None:
        return f"{name} {low_op} {_number(low)}"
    if high is not None:
        return f"{name} {high_op} {_number(high)}"
    return name


def _is_flag(param) -> bool:
    return bool(getattr(param, "is_flag", False) or getattr(param, "count", False))


def _value(param) -> str:
    if getattr(param, "count", False):
        return "count"
    if getattr(param, "is_flag", False):
        return "flag"
    value = param.metavar or _type_name(param.type)
    if param.nargs > 1:
        value = " ".join([value] * param.nargs)
    if getattr(param, "multiple", False):
        value += " (repeatable)"
    return value


def _default(param) -> str:
    if param.required:
        return "required"
    show = getattr(param, "show_default", None)
    if isinstance(show, str):
        return show
    default = param.default
    if show is False or default is None or default is False or callable(default):
        return ""
    if _is_flag(param) and default is True:
        return "on"
    if isinstance(default, (list, tuple)):
        return " ".join(_number(getattr(v, "value", v)) for v in default) if default else ""
    return f"`{_number(getattr(default, 'value', default))}`"


def _flags(param) -> list[str]:
    """Long spellings first, then short ones, then the negations (``--no-x``)."""
    opts = sorted(param.opts, key=lambda o: not o.startswith("--"))
    return opts + list(param.secondary_opts)


def _cell(text: str) -> str:
    return _unwrap(text).replace("|", "\\|")


def _help_cell(param) -> str:
    text = param.help or ""
    if getattr(param, "envvar", None):
        names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar)
        text += " (environment: " + ", ".join(f"`{n}`" for n in names) + ")"
    if getattr(param, "deprecated", False):
        text = "Deprecated. " + text
    return text


def _option_row(param) -> str:
    flags = ", ".join(f"`{f}`" for f in _flags(param))
    return f"| {_cell(flags)} | `{_cell(_value(param))}` | {_cell(_default(param))} | {_cell(_help_cell(param))} |"


def _options_table(params) -> list[str]:
    return ["| option | value | default | help |", "|---|---|---|---|", *(_option_row(p) for p in params)]


def _argument_usage(param) -> str:
    piece = param.metavar or param.name.upper()
    if not param.required:
        piece = f"[{piece}]"
    return piece + ("..." if param.nargs == -1 else "")


def _visible(params, kind: str) -> list:
    return [p for p in params if p.param_type_name == kind and not getattr(p, "hidden", False)]


def _usage(words: str, command) -> str:
    """``convertables NAME`` with the required options, ``[OPTIONS]`` and the arguments."""
    params = command.params
    required = [f"{_flags(p)[0]} {_value(p)}" for p in _visible(params, "option") if p.required]
    pieces = [PROGRAM, *words.split(), *required, "[OPTIONS]", *(_argument_usage(p) for p in _visible(params, "argument"))]
    return " ".join(pieces)


def _panels(options) -> list[tuple[str | None, list]]:
    """The options by help panel, panels in the order of their first option; no panel first."""
    panels: dict[str | None, list] = {None: []}
    for option in options:
        panels.setdefault(getattr(option, "rich_help_panel", None) or None, []).append(option)
    return [(name, params) for name, params in panels.items() if params]


# -- the page ---------------------------------------------------------------------------

def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _command_section(name: str, command) -> list[str]:
    lines = [f"## {PROGRAM} {name}", "", "```", _usage(name, command), "```", ""]
    if getattr(command, "deprecated", False):
        lines += ["Deprecated.", ""]
    for block in _help_blocks(command.help):
        lines += [block, ""]
    arguments = _visible(command.params, "argument")
    if arguments:
        lines += ["### Arguments", "", "| argument | value | help |", "|---|---|---|"]
        for p in arguments:
            value = (p.metavar or _type_name(p.type)) + (", one or more" if p.nargs == -1 else "")
            lines.append(f"| `{_cell(_argument_usage(p))}` | {_cell(value)} | {_cell(p.help or '')} |")
        lines.append("")
    for panel, params in _panels(_visible(command.params, "option")):
        lines += [f"### {panel or 'Options'}", "", *_options_table(params), ""]
    return lines


def _shortcut_of(name: str, command, convert) -> tuple[str, list[str]] | None:
    """The equivalent convert command and the format options of a shortcut
    (``icdar2json``), or None where it is not documented by convert's section: its
    help does not say what it is short for, or it has an option that convert
    does not have, with the same row in the reference."""
    match = _SHORTCUT.search(_unwrap(command.help or ""))
    if convert is None or match is None:
        return None
    _, source, target = match.groups()
    convert_rows = {p.name: _option_row(p) for p in _visible(convert.params, "option")}
    fixed = [p.name for p in _visible(convert.params, "option")
             if not getattr(p, "rich_help_panel", None) and p.name not in ("from_", "to")]
    own = _visible(command.params, "option")
    if [p.name for p in own if not getattr(p, "rich_help_panel", None)] != fixed:
        return None
    if any(convert_rows.get(p.name) != _option_row(p) for p in own):
        return None
    if [_argument_usage(p) for p in _visible(command.params, "argument")] != \
            [_argument_usage(p) for p in _visible(convert.params, "argument")]:
        return None
    return f"{PROGRAM} convert --from {source} --to {target}", [
        _flags(p)[0] for p in own if getattr(p, "rich_help_panel", None)]


def _shortcuts_section(shortcuts, convert) -> list[str]:
    fixed = [_flags(p)[0] for p in _visible(convert.params, "option")
             if not getattr(p, "rich_help_panel", None) and p.name not in ("from_", "to")]
    arguments = " ".join(_argument_usage(p) for p in _visible(convert.params, "argument"))
    lines = [
        "## Shortcuts", "",
        "```", f"{PROGRAM} SOURCE2TARGET [OPTIONS] {arguments}".rstrip(), "```", "",
        f"Each shortcut is `{PROGRAM} convert` with `--from` and `--to` fixed. It takes convert's arguments "
        f"and its options other than `--from` and `--to` ({', '.join(f'`{f}`' for f in fixed)}), and the "
        f"format options of its two formats, listed below and documented under "
        f"[convert](#{_anchor(f'{PROGRAM} convert')}).", "",
        "| command | same as | format options |", "|---|---|---|",
    ]
    for name, (equivalent, format_options) in shortcuts:
        options = ", ".join(f"`{f}`" for f in format_options) or "none"
        lines.append(f"| `{name}` | `{equivalent}` | {options} |")
    return lines + ["", "The table lists a few; any `SOURCE2TARGET` works the same way, where SOURCE is a format "
                    f"convertables reads and TARGET one it writes (`{PROGRAM} formats` lists them): "
                    f"`{PROGRAM} textract2icdar` is `{PROGRAM} convert --from textract --to icdar`.", ""]


def render() -> str:
    """docs/cli.md: the root's summary and options, then every command in the order
    declared (the conversion shortcuts together in one table)."""
    group, ctx, commands = _root_and_commands()
    convert = dict(commands).get("convert")
    shortcuts = {name: found for name, command in commands
                 if name != "convert" and (found := _shortcut_of(name, command, convert)) is not None}

    lines = [HEADER, "", f"# Command-line reference: `{PROGRAM}`", ""]
    lines += [block for b in _help_blocks(group.help) for block in (b, "")]
    lines += ["```", f"{PROGRAM} [OPTIONS] COMMAND [ARGS]...", "```", ""]
    help_option = group.get_help_option(ctx)
    root_options = _visible(group.params, "option")
    if root_options:
        lines += ["### Options", "", *_options_table(root_options), ""]
    if help_option is not None:
        spelled = ", ".join(f"`{f}`" for f in _flags(help_option))
        lines += [f"Every command also takes {spelled}, which prints its help and exits.", ""]

    lines += ["### Commands", "", "| command | what it does |", "|---|---|"]
    for name, command in commands:
        anchor = _anchor("Shortcuts" if name in shortcuts else f"{PROGRAM} {name}")
        lines.append(f"| [`{name}`](#{anchor}) | {_cell(_summary(command))} |")
    lines.append("")

    for name, command in commands:
        if name in shortcuts:
            if name == next(iter(shortcuts)):
                lines += _shortcuts_section(shortcuts.items(), convert)
            continue
        lines += _command_section(name, command)
    return "\n".join(lines).rstrip("\n") + "\n"


# -- python tools/cli_reference.py ------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python tools/cli_reference.py", description=__doc__.split("\n")[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="rewrite docs/cli.md")
    what.add_argument("--check", action="store_true", help="exit 1 if docs/cli.md is not what the commands give")
    args = parser.parse_args(argv)
    text = render()
    if not (args.write or args.check):
        sys.stdout.write(text)
        return 0
    if not (ROOT / "pyproject.toml").is_file():
        print(f"error: not a source checkout: no pyproject.toml beside {ROOT / 'convertables'}", file=sys.stderr)
        return 2
    if args.write:
        DOC.parent.mkdir(parents=True, exist_ok=True)
        DOC.write_text(text, encoding="utf-8", newline="\n")
        print("wrote docs/cli.md", file=sys.stderr)
        return 0
    current = DOC.read_text(encoding="utf-8") if DOC.is_file() else None
    if current != text:
        print(f"docs/cli.md is {'missing' if current is None else 'stale'}: run `{WRITE_COMMAND}`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
