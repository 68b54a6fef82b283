"""Coordinate frames: conversions on known numbers, and through the CLI."""

from __future__ import annotations

import pytest
from lxml import etree

from convertables import read, registry
from convertables.diagnostics import Diagnostics
from convertables.files import read_document
from convertables.geometry import PageFrame, convert_box
from convertables.model import BBox, Cell, Document, Frame, Region, Table
from convertables.options import WriteOptions
from tests.acceptance.test_cli import invoke
from tests.conftest import ROOT

A4 = PageFrame(dpi=300, page_height_pt=842)


def test_a_300_dpi_pixel_box_on_an_a4_page():
    # 300 dpi: 1 px = 0.24 pt. Pixel box (100, 200)-(400, 300), origin top-left.
    pdf = convert_box(BBox(100, 200, 400, 300, Frame.IMAGE), Frame.PDF, A4)
    assert (pdf.x1, pdf.y1, pdf.x2, pdf.y2) == pytest.approx((24, 842 - 72, 96, 842 - 48))
    assert pdf.frame is Frame.PDF
    back = convert_box(pdf, Frame.IMAGE, A4)
    assert (back.x1, back.y1, back.x2, back.y2) == pytest.approx((100, 200, 400, 300))


def test_polygons_convert_point_by_point():
    quad = ((0, 0), (300, 0), (300, 150), (0, 150))
    pdf = convert_box(BBox(0, 0, 300, 150, Frame.IMAGE, quad), Frame.PDF, A4)
    flat = [v for point in pdf.polygon for v in point]
    assert flat == pytest.approx([0, 842, 72, 842, 72, 806, 0, 806])


def test_the_cli_converts_frames_when_told_how(tmp_path):
    sample = ROOT / "samples" / "ctdar" / "sample.xml"
    out = tmp_path / "sample-str.xml"
    result = invoke("ctdar2icdar", sample, "-o", out, "--dpi", "300", "--page-height", "842")
    assert result.exit_code == 0 and "frame-foreign" not in result.output
    box = etree.parse(str(out)).find(".//region/bounding-box")
    assert float(box.get("x1")) == pytest.approx(24) and float(box.get("y2")) == pytest.approx(842 - 196 * 0.24)
    back = tmp_path / "back.xml"
    assert invoke("icdar2ctdar", out, "-o", back, "--dpi", "300", "--page-height", "842").exit_code == 0
    points = etree.parse(str(back)).find(".//table/Coords").get("points").split()
    # ICDAR 2013 keeps boxes, not polygons: the outline comes back as the envelope
    assert [tuple(round(float(v), 6) for v in p.split(",")) for p in points] == [
        (100, 196), (702, 196), (702, 404), (100, 404)]
    # without what a conversion needs, the file keeps its frame and says so
    result = invoke("ctdar2icdar", sample, "-o", tmp_path / "raw-str.xml")
    assert result.exit_code == 0 and "frame-foreign" in result.output


def _png(width: int, height: int, dpi: float) -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ppm = round(dpi / 0.0254)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)) + chunk(b"IDAT", zlib.compress(b"\0" * (width + 1)))
            + chunk(b"IEND", b""))


def test_the_page_image_gives_height_and_dpi(tmp_path):
    from convertables.images import image_info

    image = tmp_path / "page.png"
    image.write_bytes(_png(2480, 3508, 300))  # A4 at 300 dpi
    info = image_info(image)
    assert (info.width, info.height, info.dpi) == (2480, 3508, 300)
    out = tmp_path / "sample-str.xml"
    sample = ROOT / "samples" / "ctdar" / "sample.xml"
    assert invoke("ctdar2icdar", sample, "-o", out, "--image", image).exit_code == 0
    box = etree.parse(str(out)).find(".//region/bounding-box")
    # page height 3508 px = 842.0 pt; the table's top at 196 px -> 842 - 47.04 pt
    assert float(box.get("y2")) == pytest.approx(3508 * 0.24 - 196 * 0.24)
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not an image")
    result = invoke("ctdar2icdar", sample, "-o", tmp_path / "x-str.xml", "--image", bad)
    assert result.exit_code == 1 and "image-unreadable" in result.output


def test_the_library_converts_frames_as_the_cli_does(tmp_path):
    from convertables import WriteOptions, dumps, read, write

    doc = read(ROOT / "samples" / "ctdar" / "sample.xml")
    options = WriteOptions(dpi=300, page_height=842)
    for data in (dumps(doc, "icdar", options), (write(doc, tmp_path / "s-str.xml", options=options),
                                                (tmp_path / "s-str.xml").read_bytes())[1]):
        box = etree.fromstring(data).find(".//region/bounding-box")
        assert float(box.get("x1")) == pytest.approx(24) and float(box.get("y2")) == pytest.approx(842 - 196 * 0.24)
        assert b"not PDF points" not in data
    assert b"not PDF points" in dumps(doc, "icdar")  # not told how: the frame is kept, and said


@pytest.mark.parametrize("value, text", [
    (5.0, "5"), (-3, "-3"), (-0.0, "0"), (2.5, "2.5"), (0.1, "0.1"), (999999999999999.0, "999999999999999"),
    (1e15, "1000000000000000.0"), (1e300, "1e+300")])
def test_coordinates_are_written_as_integers_where_integral_and_short(value, text):
    from convertables.geometry import coordinate_text

    assert coordinate_text(value) == text


@pytest.mark.parametrize("option, value", [("--dpi", "nan"), ("--dpi", "inf"), ("--page-height", "inf")])
def test_a_frame_option_that_is_no_finite_number_is_a_usage_error(tmp_path, option, value):
    options = {"--dpi": "300", "--page-height": "842", option: value}
    result = invoke("ctdar2icdar", ROOT / "samples" / "ctdar" / "sample.xml", "-o", tmp_path / "s-str.xml",
                    *[part for pair in options.items() for part in pair])
    assert result.exit_code == 2 and f"error: {option} must be a finite number, not {value}" in result.output
    assert not (tmp_path / "s-str.xml").exists()


@pytest.mark.parametrize("head", [b"\x89PNG\r\n\x1a\n", b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00",
                                  b"\xff\xd8\xff\xc0\x00\x03\x08", b"\xff\xd8\xff"])
def test_a_truncated_page_image_is_named_as_unreadable(tmp_path, head):
    from convertables.diagnostics import InputError
    from convertables.images import image_info

    image = tmp_path / "page.png"
    image.write_bytes(head)
    with pytest.raises(InputError) as error:
        image_info(image)
    assert error.value.diagnostic.code == "image-unreadable" and error.value.diagnostic.file == str(image)


@pytest.mark.parametrize("raw, points, problem", [
    ("1,2 3.5,-4", ((1, 2), (3.5, -4)), None),
    ("\t1,2\n1e1,+3 ", ((1, 2), (10, 3)), None),
    ("1 ,2", None, "point '1' is not a pair of finite numbers"),  # (a space splits pairs)
    ("", None, "has no points"),
    ("1,2 3", None, "point '3' is not a pair of finite numbers"),
    ("1,2,3", None, "point '1,2,3' is not a pair of finite numbers"),
    ("1e999,2", None, "point '1e999,2' is not a pair of finite numbers"),
    ("1_0,2", None, "point '1_0,2' is not a pair of finite numbers"),  # (float() would take it)
])
def test_points_are_pairs_of_finite_numbers(raw, points, problem):
    from convertables.geometry import parse_points

    assert parse_points(raw) == (points, problem)


_NATIVE_EXAMPLES = {
    "icdar": lambda: (ROOT / "samples" / "icdar" / "sample-str.xml").read_bytes(),
    "ctdar": lambda: (ROOT / "samples" / "ctdar" / "sample.xml").read_bytes(),
    "marmot": lambda: (ROOT / "samples" / "marmot" / "sample.xml").read_bytes(),
    "pod": lambda: __import__("tests.unit.test_pod", fromlist=["SPANS"]).SPANS,
    "abbyy": lambda: (ROOT / "samples" / "abbyy" / "sample.xml").read_bytes(),
    "textract": lambda: (ROOT / "tests" / "cases" / "textract" / "merged-cells-headers-title-footer" / "input.json")
    .read_bytes(),
    "docai": lambda: (ROOT / "tests" / "cases" / "docai" / "normalized-vertices-omitted-zeros" / "input.json")
    .read_bytes(),
    "docling": lambda: (ROOT / "tests" / "cases" / "docling" / "spans-and-headers" / "input.json").read_bytes(),
    "pubtables1m": lambda: (ROOT / "tests" / "cases" / "pubtables1m" / "spans-headers-projected-row-header"
                            / "input.xml").read_bytes(),
    "pubtabnet": lambda: (ROOT / "tests" / "cases" / "pubtabnet" / "thead-spans-inline-tags" / "input.jsonl")
    .read_bytes(),
    "pagexml": lambda: (ROOT / "tests" / "cases" / "pagexml" / "transkribus-2013-spans-and-text" / "input.xml")
    .read_bytes(),
    "doctags": lambda: (ROOT / "tests" / "cases" / "doctags" / "smoldocling-page-spans-and-cell-locations"
                        / "input.doctags").read_bytes(),
    "wtw": lambda: (ROOT / "tests" / "cases" / "wtw" / "two-tables-quadrilaterals-and-spans" / "input.xml")
    .read_bytes(),
    "mineru": lambda: (ROOT / "tests" / "cases" / "mineru" / "content-list-v2-pages" / "input.json").read_bytes(),
    "unstructured": lambda: (ROOT / "tests" / "cases" / "unstructured" / "elements-table-as-cells-spans"
                             / "input.json").read_bytes(),
    "marker": lambda: (ROOT / "tests" / "cases" / "marker" / "json-table-group-caption-cell-boxes" / "input.json")
    .read_bytes(),
    "paddleocr": lambda: (ROOT / "tests" / "cases" / "paddleocr" / "table-recognition-layout-box-cell-boxes"
                          / "input.json").read_bytes(),
    "upstage": lambda: (ROOT / "tests" / "cases" / "upstage" / "document-parse-response-pages" / "input.json")
    .read_bytes(),
    "dpbench": lambda: (ROOT / "tests" / "cases" / "dpbench" / "reference-entry" / "input.json").read_bytes(),
    "llamaparse": lambda: (ROOT / "tests" / "cases" / "llamaparse" / "result-html-and-rows-pages" / "input.json")
    .read_bytes(),
}


@pytest.mark.parametrize("name", [f.name for f in registry.FORMATS.values() if f.native_frame])
def test_a_formats_declared_frame_is_the_one_its_reader_gives_and_its_writer_expects(name):
    """registry.Format.native_frame (used to convert frames for a writer) and
    the format module itself must not drift apart."""
    fmt = registry.FORMATS[name]
    native = Frame(fmt.native_frame)
    doc = read_document(_NATIVE_EXAMPLES[name](), fmt, f"example.{name}")
    frames = {box.frame for table in doc.tables for region in table.regions
              for box in [region.bbox, *(c.bbox for c in region.cells)] if box is not None}
    assert frames == {native}
    if not fmt.writes:
        return
    other = Frame.PDF if native is Frame.IMAGE else Frame.IMAGE
    for frame, warned in ((native, False), (other, True)):
        cell = Cell(0, 0, 0, 0, "A", bbox=BBox(10, 10, 20, 20, frame))
        one = Document("d.pdf", [Table(0, [Region(0, 1, bbox=BBox(5, 5, 30, 30, frame), cells=[cell])])])
        diagnostics = Diagnostics("d")
        fmt.writer()(one, diagnostics, WriteOptions())
        assert any(d.code == "frame-foreign" for d in diagnostics) is warned, (frame, list(diagnostics))


def test_fractions_of_the_page_convert_to_points_and_pixels_with_the_page_size(tmp_path):
    """Frame.PAGE (Textract's and Document AI's normalised coordinates): x by the page width, y flipped."""
    from convertables.files import dumps

    box = BBox(0.1, 0.2, 0.5, 0.25, Frame.PAGE, ((0.1, 0.2), (0.5, 0.2), (0.5, 0.25), (0.1, 0.25)))
    letter = PageFrame(dpi=144, page_height_pt=792, page_width_pt=612)
    points = convert_box(box, Frame.PDF, letter)
    assert points.frame is Frame.PDF
    assert (points.x1, points.y1, points.x2, points.y2) == pytest.approx((61.2, 594.0, 306.0, 633.6))
    assert points.polygon[0] == pytest.approx((61.2, 633.6))
    pixels = convert_box(box, Frame.IMAGE, letter)  # 1224 x 1584 pixels at 144 dpi
    assert (pixels.x1, pixels.y1, pixels.x2, pixels.y2) == pytest.approx((122.4, 316.8, 612.0, 396.0))
    back = convert_box(points, Frame.PAGE, letter)
    assert (back.x1, back.y1, back.x2, back.y2) == pytest.approx((0.1, 0.2, 0.5, 0.25))
    assert not PageFrame(None, 792).can_convert(Frame.PAGE, Frame.PDF)  # no width: not convertible
    doc = Document(tables=[Table(0, [Region(0, 1, box, cells=[Cell(0, 0, 0, 0, "a", bbox=box)])])])
    diagnostics = Diagnostics()
    xml = dumps(doc, "icdar", WriteOptions(page_width=612, page_height=792), diagnostics)
    assert b'x1="61.2" y1="594" x2="306" y2="633.6"' in xml and "frame-foreign" not in diagnostics.codes()
    diagnostics = Diagnostics()
    kept = dumps(doc, "icdar", WriteOptions(page_height=792), diagnostics)  # no width: written as they are, said
    assert b'x1="0.1"' in kept and {"frame-unknown", "frame-foreign"} <= set(diagnostics.codes())


def test_the_frame_pixels_hint_is_a_command_that_fixes_the_file(tmp_path):
    """ICDAR 2013 boxes written in pixels, origin top-left, as some tools do: check says so and names
    the command; --box-frame image with --dpi and --page-height converts them to points."""
    from convertables.checks import check_paths

    source = tmp_path / "px-str.xml"
    source.write_text('<document filename="px.pdf"><table id="1"><region id="1" page="1">'
                      '<bounding-box x1="300" y1="600" x2="1500" y2="900"/>'
                      '<cell id="1" start-col="0" start-row="0"><bounding-box x1="300" y1="600" x2="900" y2="900"/>'
                      '<content>a</content></cell></region></table></document>')
    (finding,) = [f for f in check_paths([source]) if f.code == "frame-pixels"]
    assert "--box-frame image --dpi DPI --page-height POINTS" in finding.hint
    fixed = tmp_path / "fixed-str.xml"
    result = invoke("convert", source, "--box-frame", "image", "--dpi", "300", "--page-height", "792", "--to", "icdar",
                    "-o", fixed)
    assert result.exit_code == 0, result.output
    cell = read(fixed).tables[0].regions[0].cells[0]
    assert (cell.bbox.x1, cell.bbox.y1, cell.bbox.x2, cell.bbox.y2) == (72, 576, 216, 648)  # 300 dpi, y flipped
    assert [f.code for f in check_paths([fixed]) if f.severity.value != "info"] == []
