"""Dataclasses whose fields are declared once and whose methods cost no start-up time.

``dataclasses`` compiles a class's ``__init__``, ``__repr__``, ``__eq__`` (and, frozen,
``__hash__``, ``__setattr__`` and ``__delattr__``) from source text when the class is
defined, after resolving every annotation: about 0.35 ms a class (0.06 ms even with
``init=False, repr=False, eq=False``), paid by every run of the command line for every class
it imports. Compiling only the ``__init__``, even on a class's first instance, costs about as
much (half a million instructions for eight fields). So the classes of the start-up path
(the records, the positions, the batch's reports, the grammars' terminals) are declared
:func:`prebuilt_dataclass`: each field once, as an annotation with its default; the fields,
``__match_args__`` and slots made without resolving the annotations; and the ``__init__``
dataclasses would generate taken from ``bgtools/dataclass_inits.py``, which
``scripts/write_dataclass_inits.py`` generates from the classes' fields (one maker a shape
of fields, compiled with the package; ``tests/project/test_record_methods.py`` fails when it is not
current, and a class whose shape it lacks compiles its ``__init__`` when defined). They
inherit the rest from :class:`FieldMethods` or :class:`FrozenFieldMethods`, which do what the
generated methods do (the test compares each class with a twin whose methods dataclasses
generates). A ``validate`` of one file runs 4.5 million fewer instructions than with the
hand-written ``__init__`` of before (``benchmarks/bench_startup.py --callgrind``). A class
whose ``__init__`` does more than set its fields (``Position`` checks and completes its
sides) writes it, and the decorator keeps it.

The classes of the modules mypyc compiles (``setup.py``) write their ``__init__``: mypyc reads
only ``dataclasses.dataclass``, and the ``__init__`` dataclasses generates for it stays
interpreted: compiled from source at every import (4.5 million instructions more to import
``bgtools.replay.model`` with its three classes' generated) and called through Python from the
compiled replayer (about 10% slower to replay with events). They are declared
``@dataclass(slots=True, init=False, repr=False, eq=False)``, call the functions below for
their other methods (a compiled class cannot inherit them), and declare their fields
``Final``, which the compiled class enforces.
"""

from __future__ import annotations

import sys
from dataclasses import _FIELD, MISSING, Field, FrozenInstanceError, field  # type: ignore[attr-defined]
from reprlib import recursive_repr
from types import FunctionType

from bgtools.dataclass_inits import MAKERS  # generated from SHAPES

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it so)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from typing import Any, TypeVar, dataclass_transform

    C = TypeVar("C", bound=type)
else:
    def dataclass_transform(**_: object) -> object:
        """What tells type checkers that :func:`prebuilt_dataclass` makes dataclasses
        (nothing at run time)."""
        return lambda decorator: decorator

__all__ = ["FACTORY", "FACTORY_LIST", "FieldMethods", "FrozenFieldMethods", "fields_eq",
           "fields_hash", "fields_reduce", "fields_repr", "field_values", "init_shape",
           "init_source", "prebuilt_dataclass", "SHAPES"]


class _Factory:
    """The default of a field made by a factory, shown as dataclasses shows it."""

    def __repr__(self) -> str:
        return "<factory>"


FACTORY: Any = _Factory()
"""The default of an ``__init__`` parameter whose field has a ``default_factory``: the
``__init__`` calls the factory when it receives this (dataclasses does the same with a
sentinel shown as ``<factory>``)."""


class _FactoryList(list):  # type: ignore[type-arg]  # holds nothing: only its identity counts
    """The default of a list field made by a factory, for a compiled class: a list, as the
    parameter's type says (mypyc checks it), shown as dataclasses shows a factory."""

    def __repr__(self) -> str:
        return "<factory>"


FACTORY_LIST: list[Any] = _FactoryList()
""":data:`FACTORY` for a list parameter of a class that mypyc compiles (which refuses a
default that is not of the parameter's type): the ``__init__`` makes a new list when it
receives this one."""


def field_values(instance: Any) -> tuple[object, ...]:
    """The values of a dataclass instance's fields, in order."""
    return tuple([getattr(instance, name) for name in instance.__match_args__])


@recursive_repr()
def fields_repr(instance: Any) -> str:
    """``Name(field=value, ...)``, as a dataclass's generated ``__repr__`` (``...`` for an
    instance that holds itself)."""
    fields = ", ".join([f"{name}={getattr(instance, name)!r}"
                        for name in instance.__match_args__])
    return f"{instance.__class__.__qualname__}({fields})"


def fields_eq(instance: Any, other: object) -> bool:
    """Equal fields in an instance of the same class, as a dataclass's generated ``__eq__``
    (``NotImplemented`` for an instance of another class)."""
    if other.__class__ is instance.__class__:
        return field_values(instance) == field_values(other)
    return NotImplemented  # type: ignore[no-any-return]  # what __eq__ returns for others


def fields_hash(instance: Any) -> int:
    """The hash of a frozen instance's fields, as a dataclass's generated ``__hash__``."""
    return hash(field_values(instance))


def fields_reduce(instance: Any) -> tuple[type, tuple[object, ...]]:
    """What ``__reduce__`` returns for pickling and copying: the class and its field values,
    so that unpickling calls ``Class(*fields)``.

    A class mypyc compiles needs it: its ``__new__`` calls ``__init__`` (so that its fields
    are always set), and the default pickling, which calls ``Class.__new__(Class)`` and then
    sets the state, fails there (``__init__() missing required argument``). Every class that
    uses it takes its fields, in order, as the parameters of its ``__init__``.
    """
    return (instance.__class__, field_values(instance))


class FieldMethods:
    """The base of a mutable class that writes its own dataclass ``__init__``: the
    ``__repr__`` and ``__eq__`` a dataclass would generate, and no hash (as a mutable
    dataclass with ``eq``). Declare the class ``@dataclass(..., init=False, repr=False,
    eq=False)``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with eq


class FrozenFieldMethods(FieldMethods):
    """:class:`FieldMethods` for a frozen class: the hash of its fields instead of none, and
    no assignment or deletion of a field (``FrozenInstanceError``, as a frozen dataclass).
    Its ``__init__`` sets the fields with ``object.__setattr__``; pickling and copying set
    them the same way."""

    __slots__ = ()
    __hash__ = fields_hash  # type: ignore[assignment]  # frozen: hashable, as a dataclass

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> tuple[object, ...]:
        return field_values(self)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        for name, value in zip(self.__match_args__, state, strict=True):  # type: ignore[attr-defined]
            object.__setattr__(self, name, value)


_NOT_FIELDS = ("ClassVar", "typing.ClassVar", "InitVar", "dataclasses.InitVar", "KW_ONLY",
               "dataclasses.KW_ONLY")
"""The annotations dataclasses reads as something other than a field: not taken here."""

SHAPES: dict[str, set[str]] = {}
"""The shape of every prebuilt dataclass's ``__init__`` (:func:`init_shape`), with the classes
of that shape (``module.qualname``): what ``scripts/write_dataclass_inits.py`` writes
``bgtools/dataclass_inits.py`` from."""


@dataclass_transform(field_specifiers=(field,))
def prebuilt_dataclass(cls: C) -> C:
    """Make ``cls`` a dataclass with slots whose ``__init__`` was compiled with the package.

    ``cls`` inherits :class:`FieldMethods` (its ``__repr__`` and ``__eq__``) or, frozen,
    :class:`FrozenFieldMethods`, and declares each field once, as an annotation with its
    default or a ``dataclasses.field(default_factory=...)``, in ``__init__``'s order. It
    gets what ``@dataclass(slots=True, init=False, repr=False, eq=False)`` gives, the fields
    (``__dataclass_fields__``), ``__match_args__`` and ``__slots__`` (a new class, as
    dataclasses makes), without resolving what the annotations name (most of what
    dataclasses costs): a ``ClassVar``, ``InitVar`` or ``KW_ONLY`` annotation,
    ``field(init=False)``, ``kw_only`` and a dataclass base are refused instead. Its
    ``__init__`` is the one dataclasses would generate, with that signature, taken from
    ``bgtools/dataclass_inits.py`` (generated from the fields' shapes: no code is compiled
    at run time), or compiled now for a shape that file lacks. A class that writes its own
    ``__init__`` keeps it.
    """
    if not issubclass(cls, FieldMethods):
        raise TypeError(f"{cls.__qualname__}: a prebuilt dataclass inherits FieldMethods")
    if any("__dataclass_fields__" in base.__dict__ for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__qualname__}: a prebuilt dataclass has no dataclass base")
    body = dict(cls.__dict__)
    if "__slots__" in body:
        raise TypeError(f"{cls.__qualname__} already specifies __slots__")
    fields: dict[str, Field[Any]] = {}
    defaulted = ""
    for name, annotation in body.get("__annotations__", {}).items():
        spec = body.pop(name, MISSING)
        if not isinstance(spec, Field):
            if spec is not MISSING and spec.__class__.__hash__ is None:
                raise ValueError(f"mutable default {type(spec)} for field {name} is not "
                                 "allowed: use default_factory")
            spec = field(default=spec)
        if not spec.init or spec.kw_only is True or str(annotation).startswith(_NOT_FIELDS):
            raise TypeError(f"{cls.__qualname__}.{name}: not a field a prebuilt dataclass takes")
        if spec.default is not MISSING or spec.default_factory is not MISSING:
            defaulted = name
        elif defaulted:
            raise TypeError(f"non-default argument {name!r} follows default argument")
        spec.name, spec.type, spec.kw_only = name, annotation, False
        spec._field_type = _FIELD  # noqa: SLF001 - what dataclasses.fields() takes
        fields[name] = spec
    for name in ("__dict__", "__weakref__"):
        body.pop(name, None)
    body.setdefault("__match_args__", tuple(fields))
    if "__init__" not in body:
        body["__init__"] = _init(cls, list(fields.values()), issubclass(cls, FrozenFieldMethods))
    metaclass: Any = type(cls)  # the class again, with slots (as dataclasses makes it)
    made: C = metaclass(cls.__name__, cls.__bases__, {
        **body, "__slots__": tuple(fields), "__dataclass_fields__": fields,
        "__qualname__": cls.__qualname__})
    return made


_LITERALS: dict[object, str] = {list: "[]", dict: "{}"}
"""The factories whose new value an ``__init__`` writes as a literal (faster than a call)."""


def init_shape(fields: list[Field[Any]], frozen: bool) -> str:
    """What an ``__init__`` depends on, as a key: ``frozen:`` for a frozen class, then the
    fields in order, a field made by a factory marked ``[]`` (``list``), ``{}`` (``dict``)
    or ``()`` (another)."""
    names = " ".join([f.name if f.default_factory is MISSING
                      else f.name + _LITERALS.get(f.default_factory, "()") for f in fields])
    return f"frozen: {names}" if frozen else names


def init_source(shape: str, maker: str) -> str:
    """The source of the function ``maker`` that makes the ``__init__`` of ``shape``, from
    its helpers: ``__setattr`` (frozen), then ``__factory`` (:data:`FACTORY`) and each
    factory not written as a literal (``__make_NAME``). The ``__init__`` sets one field a
    statement, as dataclasses generates it (frozen: with ``object.__setattr__``)."""
    frozen = shape.startswith("frozen: ")
    marks = shape.removeprefix("frozen: ").split()
    names = [mark.rstrip("()[]{}") for mark in marks]
    made = {name: mark[len(name):] for mark, name in zip(marks, names) if mark != name}
    helpers = (["__setattr"] if frozen else []) + (["__factory"] if made else []) + [
        f"__make_{name}" for name, kind in made.items() if kind == "()"]
    lines = []
    for name in names:
        kind = made.get(name)
        new = f"__make_{name}()" if kind == "()" else kind
        value = name if kind is None else f"{new} if {name} is __factory else {name}"
        lines.append(f"__setattr(self, \"{name}\", {value})" if frozen else
                     f"self.{name} = {value}")
    return "".join([
        *_wrapped(f"def {maker}(", [f"{helper}: Any" for helper in helpers],
                  ") -> Callable[..., None]:", ""),
        *_wrapped("    def __init__(", ["self: Any", *[f"{name}: Any" for name in names]],
                  ") -> None:", "    "),
        *[f"        {line}\n" for line in lines],
        "    return __init__\n",
    ])


def _wrapped(head: str, items: list[str], tail: str, indent: str) -> list[str]:
    """``head`` + the comma-separated ``items`` + ``tail`` in lines of at most 100 columns."""
    lines, line = [], head
    for number, item in enumerate(items):
        text = item + (", " if number < len(items) - 1 else "")
        if len(line) + len(text.rstrip()) > 99 - (len(tail) if number == len(items) - 1 else 0):
            lines.append(line.rstrip() + "\n")
            line = indent + "        "
        line += text
    return [*lines, line + tail + "\n"]


def _init(cls: type, fields: list[Field[Any]], frozen: bool) -> Callable[..., None]:
    """The ``__init__`` dataclasses would generate for ``cls``: made by the maker
    ``bgtools/dataclass_inits.py`` has for its shape, else by one compiled now."""
    shape = init_shape(fields, frozen)
    SHAPES.setdefault(shape, set()).add(f"{cls.__module__}.{cls.__qualname__}")
    maker = MAKERS.get(shape)
    if maker is None:  # a class that is new or changed since the file was written
        made: dict[str, Any] = {}
        exec(init_source(shape, "maker"), {}, made)  # (its annotations stay strings)
        maker = made["maker"]
    helpers: list[object] = [object.__setattr__] if frozen else []
    if any(f.default_factory is not MISSING for f in fields):
        helpers += [FACTORY, *[f.default_factory for f in fields
                               if f.default_factory not in (MISSING, *_LITERALS)]]
    made_init = maker(*helpers)
    # The class's module as its globals, where typing.get_type_hints (Sphinx) looks.
    init: Callable[..., None] = FunctionType(
        made_init.__code__, sys.modules[cls.__module__].__dict__, "__init__",
        tuple(FACTORY if f.default is MISSING else f.default for f in fields
              if f.default is not MISSING or f.default_factory is not MISSING) or None,
        made_init.__closure__)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    return init
