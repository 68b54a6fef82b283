"""Seeded generator of ground-truth/result table pairs as HTML strings, for the
tests of TEDS and GriTS against their reference implementations.

The expected numbers in tests/data/*_reference.json were computed by running the
reference code on exactly these strings (``python tests/table_pairs.py N SEED``
prints them as JSON lines); the tests regenerate the strings from the seed.
"""

from __future__ import annotations

import json
import random
import sys
from html import escape

WORDS = ["total", "mean", "SD", "n", "p", "0.05", "12", "3.4", "(95% CI)", "age", "sex", "male", "female",
         "<10", "A & B", "Group 1", "β", "±2.1", "", "", "x"]
INLINE = ["b", "i", "sup", "sub"]


def _text(rng: random.Random) -> str:
    """A cell's inner HTML: words, now and then in an inline tag or with spaces around."""
    parts = []
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
        word = escape(rng.choice(WORDS), quote=False)
        if word and rng.random() < 0.15:
            tag = rng.choice(INLINE)
            word = f"<{tag}>{word}</{tag}>"
        parts.append(word)
    text = " ".join(parts)
    if text and rng.random() < 0.05:
        text = " " + text + " "
    return text


def random_grid(rng: random.Random, rows: int, cols: int) -> list[list[dict]]:
    """Rows of cells ({"text", "colspan", "rowspan", "tag"}) tiling a rows x cols grid."""
    taken = [[False] * cols for _ in range(rows)]
    grid: list[list[dict]] = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if taken[r][c]:
                continue
            colspan = rowspan = 1
            if rng.random() < 0.08:
                while c + colspan < cols and not taken[r][c + colspan] and rng.random() < 0.5:
                    colspan += 1
            if rng.random() < 0.06:
                while r + rowspan < rows and rng.random() < 0.5:
                    if any(taken[r + rowspan][c:c + colspan]):
                        break
                    rowspan += 1
            for dr in range(rowspan):
                for dc in range(colspan):
                    taken[r + dr][c + dc] = True
            row.append({"text": _text(rng), "colspan": colspan, "rowspan": rowspan, "tag": "td"})
        grid.append(row)
    return grid


def render(grid: list[list[dict]], head_rows: int, wrap: bool = True) -> str:
    out = []
    for group, rows in (("thead", grid[:head_rows]), ("tbody", grid[head_rows:])):
        if not rows:
            continue
        out.append(f"<{group}>")
        for row in rows:
            out.append("<tr>")
            for cell in row:
                attrs = ""
                if cell["rowspan"] != 1:
                    attrs += f' rowspan="{cell["rowspan"]}"'
                if cell["colspan"] != 1:
                    attrs += f' colspan="{cell["colspan"]}"'
                out.append(f'<{cell["tag"]}{attrs}>{cell["text"]}</{cell["tag"]}>')
            out.append("</tr>")
        out.append(f"</{group}>")
    table = "<table>" + "".join(out) + "</table>"
    return f"<html><body>{table}</body></html>" if wrap else table


def perturbed(rng: random.Random, grid: list[list[dict]]) -> list[list[dict]]:
    """A result: the grid with some recogniser-like mistakes."""
    grid = [[dict(cell) for cell in row] for row in grid]
    for _ in range(rng.choice([0, 1, 2, 3, 5])):
        kind = rng.random()
        r = rng.randrange(len(grid))
        row = grid[r]
        if kind < 0.35 and row:
            row[rng.randrange(len(row))]["text"] = _text(rng)
        elif kind < 0.5 and len(grid) > 1:
            del grid[r]  # a row lost (spans from above may now reach past the end: as in real output)
        elif kind < 0.6:
            grid.insert(r, [{"text": _text(rng), "colspan": 1, "rowspan": 1, "tag": "td"} for _ in row])
        elif kind < 0.75 and len(row) > 1:
            k = rng.randrange(len(row) - 1)  # two neighbours merged
            a, b = row[k], row.pop(k + 1)
            a["colspan"] += b["colspan"]
            a["text"] = (a["text"] + " " + b["text"]).strip()
        elif kind < 0.85 and row:
            k = rng.randrange(len(row))  # a cell split in two
            cell = row[k]
            row.insert(k + 1, {"text": "", "colspan": 1, "rowspan": 1, "tag": "td"})
            cell["colspan"] = max(1, cell["colspan"] - 1)
        elif row:
            cell = row[rng.randrange(len(row))]
            cell["tag"] = "th" if cell["tag"] == "td" else "td"
    return grid


def pairs(count: int, seed: int, min_rows: int = 2, max_rows: int = 12, min_cols: int = 2,
          max_cols: int = 6) -> list[tuple[str, str]]:
    """(ground truth, result) HTML strings."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        grid = random_grid(rng, rng.randint(min_rows, max_rows), rng.randint(min_cols, max_cols))
        head = rng.choice([0, 1, 1, 2])
        result = perturbed(rng, grid)
        found.append((render(grid, head), render(result, rng.choice([head, head, 0, 1]))))
    return found


if __name__ == "__main__":
    for gt, result in pairs(int(sys.argv[1]), int(sys.argv[2])):
        print(json.dumps([gt, result]))


def pubtabnet_html(record: dict) -> str:
    """A PubTabNet record's table as the reference's ground truth is written:
    the structure tokens with each cell's tokens (characters escaped) inside."""
    structure = list(record["html"]["structure"]["tokens"])
    cells = iter(record["html"]["cells"])
    out = []
    for token in structure:
        out.append(token)
        if token in ("<td>", ">"):
            cell = next(cells)
            out.extend(escape(t, quote=False) if len(t) == 1 else t for t in cell["tokens"])
    return "<html><body><table>" + "".join(out) + "</table></body></html>"


def pubtabnet_pairs(lines: list[str], seed: int) -> list[tuple[str, str]]:
    """(ground truth, result) from real PubTabNet records: the result loses a
    row, has cells' text changed, or a cell's bold dropped."""
    rng = random.Random(seed)
    found = []
    for line in lines:
        gt = pubtabnet_html(json.loads(line))
        rows = gt.split("<tr>")
        result = gt
        choice = rng.random()
        if choice < 0.3 and len(rows) > 3:
            k = rng.randrange(2, len(rows))
            rows[k] = rows[k][rows[k].index("</tr>") + 5:]
            result = "<tr>".join(rows)
        elif choice < 0.6:
            result = result.replace("0", "O", rng.randint(1, 5))
        elif choice < 0.8:
            result = result.replace("<b>", "", 2).replace("</b>", "", 2)
        found.append((gt, result))
    return found
