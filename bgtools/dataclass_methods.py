"""The methods a dataclass would generate, written once for the classes that write their own.

``dataclasses`` compiles a class's ``__init__``, ``__repr__``, ``__eq__`` (and, frozen,
``__hash__``, ``__setattr__`` and ``__delattr__``) from source text when the class is
defined: about a millisecond a class, paid by every run of the command line for every class
it imports. The classes of the start-up path (the records, the positions, the batch's
reports, the grammars' terminals) are declared ``@dataclass(..., init=False, repr=False,
eq=False)``, never ``frozen=True``, write their ``__init__`` by hand and inherit the rest
from :class:`FieldMethods` or :class:`FrozenFieldMethods` (a class mypyc compiles calls the
functions instead, and declares its fields ``Final``, which the compiled class enforces),
which do what the generated methods do (``tests/project/test_record_methods.py`` compares each class
with a twin whose methods dataclasses generates).
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from reprlib import recursive_repr

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it so)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

__all__ = ["FACTORY", "FACTORY_LIST", "FieldMethods", "FrozenFieldMethods", "fields_eq",
           "fields_hash", "fields_reduce", "fields_repr", "field_values"]


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
