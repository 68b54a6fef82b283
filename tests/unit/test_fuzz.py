"""Fuzzing smoke test: random byte mutations of real files give a clean error or
a valid model, never anything else. CI runs 300 mutations; a longer run:
``CONVERTABLES_FUZZ_EXAMPLES=20000 .venv/bin/python -m pytest tests/unit/test_fuzz.py``."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from convertables import registry
from convertables.diagnostics import Diagnostics, InputError
from convertables.files import read_document
from convertables.grid import overlapping_cells
from tests.conftest import ROOT

SEEDS = sorted(p for p in (ROOT / "samples").rglob("*") if p.is_file())


@st.composite
def mutated(draw):
    seed = draw(st.sampled_from(SEEDS))
    data = bytearray(seed.read_bytes())
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["flip", "cut", "insert", "duplicate"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            del data[at : at + draw(st.integers(1, 64))]
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from([b"<", b"&", b"'", b'"', b"-1", b"1e999", b"\x00", b"\xff", b"<![CDATA[", b"]]>", b"</cell>", b"{", b"]"]))
        else:
            data[at:at] = data[at : at + draw(st.integers(1, 200))]
    return seed, bytes(data)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("CONVERTABLES_FUZZ_EXAMPLES", 300)), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutations_give_a_clean_error_or_a_valid_model(case):
    seed, data = case
    fmt = registry.detect(seed, data) or registry.FORMATS["icdar"]
    if not fmt.reads:
        return
    diagnostics = Diagnostics(seed.name)
    try:
        doc = read_document(data, fmt, seed.name, diagnostics=diagnostics)
    except InputError as exc:
        assert exc.diagnostic.file == seed.name and exc.diagnostic.code
        return
    for region in doc.regions():
        assert region.page >= 1
        for cell in region.cells:
            assert cell.end_row >= cell.start_row and cell.end_col >= cell.start_col
            if cell.bbox is not None:
                assert cell.bbox.is_ordered
        overlapping_cells(region.cells)  # must not blow up either
