"""Marmot dataset page XML (docs/formats.md, `marmot`): tables as regions, and the page's unit objects.

    Page[@CropBox,@PageNum]/Contents/(Leafs[@Label]/Leaf[@BBox,@Label,@LID,@PLID,...],
                                      Composites[@Label]/Composite[@BBox,@Label,@LID,@PLID,@CLIDs,...])

Every ``BBox`` and the ``CropBox`` are four numbers (x_left, y_top, x_right,
y_bottom) in PDF points, y upwards: each written as 16 hexadecimal digits of a
big-endian IEEE-754 double, or as a plain decimal (accepted too). Attributes are
read by name, in any order.

Tables are the composites labelled ``TableBody``; each becomes a table with one
region on the page ``PageNum`` (1-based; a 0 reads as page 1 and says so). With
``ReadOptions.extra["with_caption"]`` / ``["with_footnote"]`` the region is
widened to enclose the ``TableCaption`` / ``TableFootnote`` composites of the
same table: those with the same parent (``PLID``) as the body. The ``Char``
leaves become the page's unit objects (``Page.items``), which the region and
Marmot metrics use instead of a PDF.

Marmot gives regions, not cells: the document is a region-model document.
"""

from __future__ import annotations

import math
import re
import struct

from ..diagnostics import Diagnostics
from ..geometry import envelope
from ..grid import non_negative_int
from ..model import BBox, Document, Frame, Page, Region, Table, TextItem
from ..options import ReadOptions
from .declarations import DECLARED
from ..sniffing import xml_root
from ..xmlsafe import local_name, parse_xml

_HEX = re.compile(r"^[0-9A-Fa-f]{16}$")


def parse_number(token: str) -> float:
    """A Marmot number: 16 hex digits of a big-endian double, or a decimal."""
    if _HEX.match(token):
        return struct.unpack(">d", bytes.fromhex(token))[0]
    return float(token)


def parse_box(raw: str | None) -> BBox | None:
    if raw is None:
        return None
    tokens = raw.replace(",", " ").split()
    if len(tokens) != 4:
        return None
    try:
        left, top, right, bottom = (parse_number(t) for t in tokens)
    except ValueError:
        return None
    if not all(math.isfinite(v) for v in (left, top, right, bottom)):
        return None
    return BBox(min(left, right), min(top, bottom), max(left, right), max(top, bottom), Frame.PDF)


def read(data: bytes, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()) -> Document:
    root = parse_xml(data, diagnostics)
    if local_name(root.tag) != "Page":
        raise diagnostics.fail("marmot-root", f"root element is <{local_name(root.tag)}>, not <Page>",
                               line=root.sourceline)
    page_number = non_negative_int(root.get("PageNum"))
    if page_number is None:
        page_number = 1
    if page_number == 0:
        diagnostics.info("marmot-page", "PageNum is 0; read as page 1")
        page_number = 1
    crop = parse_box(root.get("CropBox"))
    page = Page(page_number, crop.width if crop else None, crop.height if crop else None, Frame.PDF)
    doc = Document(pages=[page])
    composites = []
    for el in root.iter():
        name = local_name(el.tag)
        if name not in ("Leaf", "Composite"):
            continue
        box = parse_box(el.get("BBox"))
        if box is None:
            diagnostics.error("bad-number", f"<{name}> BBox={el.get('BBox')!r} is not four numbers; left out",
                              line=el.sourceline)
            continue
        label = el.get("Label") or ""
        if name == "Leaf" and label == "Char":
            page.items.append(TextItem(box, el.text or ""))
        elif name == "Composite":
            composites.append((label, el.get("PLID"), box))
    widen = {"TableCaption": bool(options.with_caption), "TableFootnote": bool(options.with_footnote)}
    for label, parent, box in composites:
        if label != "TableBody":
            continue
        parts = [box] + [b for lab, par, b in composites if widen.get(lab) and par is not None and par == parent]
        region = Region(0, page_number, bbox=envelope(parts))
        doc.tables.append(Table(len(doc.tables), [region]))
    if not doc.tables:
        diagnostics.info("marmot-no-table", "the page has no TableBody composite")
    return doc


# -- the format ------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    return xml_root(head) == "Page"


FORMAT = DECLARED["marmot"]
