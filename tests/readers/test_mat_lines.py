"""The scanned-line values of the .mat reader (``LineCell``, ``ScannedLine``) compare, hash
and print by their fields, as the NamedTuples they replaced did."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bgtools.readers.mat_lines import LineCell, ScannedLine

_NAMESPACE = {"LineCell": LineCell, "ScannedLine": ScannedLine}

_CELL_FIELDS = st.tuples(
    st.sampled_from(["roll", "double", "take", "win"]), st.integers(0, 99), st.integers(0, 99),
    st.sampled_from(["", "31", "66"]), st.sampled_from(["", "play", "illegal"]),
    st.integers(-1, 99), st.integers(-1, 99), st.none() | st.integers(1, 64), st.booleans())
_CELLS = _CELL_FIELDS.map(lambda fields: LineCell(*fields))
_LINE_FIELDS = st.tuples(
    st.sampled_from(["action", "comment", "length", "game"]), st.none() | st.integers(0, 99),
    st.none() | st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(1, 99)),
    st.lists(_CELLS, max_size=2).map(tuple))


@given(_CELL_FIELDS, _CELL_FIELDS)
def test_cells_are_equal_exactly_when_their_fields_are(a: tuple[object, ...],
                                                        b: tuple[object, ...]) -> None:
    first, second = LineCell(*a), LineCell(*b)  # type: ignore[arg-type]
    assert first.fields() == a
    assert (first == second) is (a == b)
    assert (first != second) is (a != b)
    if a == b:
        assert hash(first) == hash(second)
    assert first != a  # a value of its own type, not a tuple


@given(_LINE_FIELDS, _LINE_FIELDS)
def test_lines_are_equal_exactly_when_their_fields_are(a: tuple[object, ...],
                                                        b: tuple[object, ...]) -> None:
    first, second = ScannedLine(*a), ScannedLine(*b)  # type: ignore[arg-type]
    assert first.fields() == a
    assert (first == second) is (a == b)
    if a == b:
        assert hash(first) == hash(second)
    assert first != a


@given(_LINE_FIELDS)
def test_repr_names_every_field_as_the_constructor_does(fields: tuple[object, ...]) -> None:
    """``repr`` is ``Name(field=value, ...)`` with the constructor's keywords, so it reads
    back as an equal value."""
    line = ScannedLine(*fields)  # type: ignore[arg-type]
    assert eval(repr(line), _NAMESPACE) == line
    for cell in line.cells:
        assert eval(repr(cell), _NAMESPACE) == cell
        assert repr(cell).startswith(f"LineCell(kind={cell.kind!r}, start={cell.start}, ")


def test_default_fields() -> None:
    assert LineCell("take", 3, 8) == LineCell("take", 3, 8, "", "", -1, -1, None, False)
    assert ScannedLine("comment") == ScannedLine("comment", None, None, ())
    assert repr(ScannedLine("game", 2)) == "ScannedLine(kind='game', number=2, row=None, cells=())"
