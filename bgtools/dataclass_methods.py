"""One declaration of a dataclass's fields, its methods made without slowing start-up.

``dataclasses`` compiles a class's ``__init__``, ``__repr__``, ``__eq__`` (and, frozen,
``__hash__``, ``__setattr__`` and ``__delattr__``) from source text when the class is
defined, after reading every annotation: about 0.35 ms a class (0.06 ms with ``init=False,
repr=False, eq=False``), paid by every run of the command line for every class it imports.
The classes of the start-up path (the records, the positions, the batch's reports, the
grammars' terminals) declare each field once, as an annotation with its default, under
:func:`lazy_dataclass` instead: a dataclass with slots (``dataclasses.fields``, ``replace``
and ``asdict`` work) whose ``__init__`` is compiled on its first call, and which inherits
the rest from :class:`FieldMethods` or :class:`FrozenFieldMethods` (frozen: the hash of its
fields, no assignment). Those do what the generated methods do (``tests/test_record_methods.py``
compares each class with a twin whose methods dataclasses generates). A class whose
``__init__`` does more than set its fields (``Position`` checks and completes its sides)
writes it, and the decorator keeps it.

The classes of the modules mypyc compiles (``setup.py``) write their ``__init__``: mypyc reads
only ``dataclasses.dataclass``, whose generated ``__init__`` it leaves interpreted, compiled
from source at every import and called through Python from the compiled readers and replayer.
They are declared ``@dataclass(slots=True, init=False, repr=False, eq=False)``, call the
functions below for their other methods (a compiled class cannot inherit them), and declare
their fields ``Final``, which the compiled class enforces.
"""

from __future__ import annotations

import sys
from dataclasses import _FIELD, MISSING, Field, FrozenInstanceError, field  # type: ignore[attr-defined]
from reprlib import recursive_repr

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it so)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from typing import Any, TypeVar, dataclass_transform

    C = TypeVar("C", bound=type)
else:
    def dataclass_transform(**_: object) -> object:
        """What tells type checkers that :func:`lazy_dataclass` makes dataclasses (nothing
        at run time)."""
        return lambda decorator: decorator

__all__ = ["FACTORY", "FACTORY_LIST", "FieldMethods", "FrozenFieldMethods", "fields_eq",
           "fields_hash", "fields_reduce", "fields_repr", "field_values", "lazy_dataclass"]


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


@dataclass_transform(field_specifiers=(field,))
def lazy_dataclass(cls: C) -> C:
    """Make ``cls`` a dataclass with slots whose ``__init__`` is compiled on its first call.

    ``cls`` inherits :class:`FieldMethods` (its ``__repr__`` and ``__eq__``) or, frozen,
    :class:`FrozenFieldMethods`, and declares each field once, as an annotation with its
    default or a ``dataclasses.field(default_factory=...)``, in ``__init__``'s order. It
    gets what ``@dataclass(slots=True, init=False, repr=False, eq=False)`` gives, the fields
    (``__dataclass_fields__``), ``__match_args__`` and ``__slots__`` (a new class, as
    dataclasses makes), without resolving what the annotations name (most of what
    dataclasses costs): a ``ClassVar``, ``InitVar`` or ``KW_ONLY`` annotation,
    ``field(init=False)``, ``kw_only`` and a dataclass base are refused instead. The
    ``__init__`` dataclasses would generate, with its signature, is compiled on the first
    instance (a run pays for the classes it makes, and the hot path then calls a plain
    function); until then ``inspect.signature``, ``help()`` and Sphinx find the signature
    through the placeholder's ``__wrapped__``. A class that writes its own ``__init__``
    keeps it.
    """
    if not issubclass(cls, FieldMethods):
        raise TypeError(f"{cls.__qualname__}: a lazy dataclass inherits FieldMethods")
    if any("__dataclass_fields__" in base.__dict__ for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__qualname__}: a lazy dataclass has no dataclass base")
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
            raise TypeError(f"{cls.__qualname__}.{name}: not a field a lazy dataclass takes")
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
    metaclass: Any = type(cls)  # the class again, with slots (as dataclasses makes it)
    made: C = metaclass(cls.__name__, cls.__bases__, {
        **body, "__slots__": tuple(fields), "__dataclass_fields__": fields,
        "__qualname__": cls.__qualname__})
    if "__init__" not in body:
        made.__init__ = _placeholder(made)  # type: ignore[misc]
    return made


class _PendingInit:
    """The ``__init__`` a lazy dataclass will have: made, and put on the class, when first
    called or when its signature is first asked for."""

    __slots__ = ("cls", "init")

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.init: Callable[..., None] | None = None

    def install(self) -> Callable[..., None]:
        """The class's ``__init__``, compiled and put on the class the first time."""
        if self.init is None:
            self.init = _generated_init(self.cls)
            self.cls.__init__ = self.init  # type: ignore[misc]
        return self.init

    @property
    def __signature__(self) -> object:
        """The signature ``inspect.signature`` finds by following ``__wrapped__``."""
        import inspect  # here: asked by whoever already uses inspect

        return inspect.signature(self.install())

    @property
    def __globals__(self) -> dict[str, Any]:
        """Where ``typing.get_type_hints`` resolves the annotations (the class's module)."""
        return self.install().__globals__


def _placeholder(cls: type) -> Callable[..., None]:
    """The ``__init__`` of a lazy dataclass until its first call, which compiles the real
    one, puts it on the class and runs it."""
    pending = _PendingInit(cls)

    def __init__(self: object, /, *args: object, **kwargs: object) -> None:  # noqa: N807
        pending.install()(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    __init__.__annotations__ = _annotations(cls)
    __init__.__wrapped__ = pending  # type: ignore[attr-defined]  # inspect.unwrap follows it
    return __init__


def _annotations(cls: type) -> dict[str, Any]:
    """The annotations of the ``__init__`` dataclasses would generate for ``cls``."""
    return {**{f.name: f.type for f in cls.__dataclass_fields__.values()},  # type: ignore[attr-defined]
            "return": None}


def _generated_init(cls: type) -> Callable[..., None]:
    """Compile the ``__init__`` dataclasses would generate for the lazy dataclass ``cls``:
    one statement a field (``self.name = name``; frozen, one call that sets them all), a
    factory's field made when its argument is :data:`FACTORY`."""
    fields = list(cls.__dataclass_fields__.values())  # type: ignore[attr-defined]
    names = [f.name for f in fields]
    helpers: dict[str, object] = {"__factory": FACTORY}
    values = []
    for f in fields:
        if f.default_factory is MISSING:
            values.append(f.name)
        else:
            helpers[f"__make_{f.name}"] = f.default_factory
            values.append(f"__make_{f.name}() if {f.name} is __factory else {f.name}")
    if issubclass(cls, FrozenFieldMethods):
        helpers["__set_fields"] = _frozen_setter(cls, names)
        body = f"  __set_fields(self, ({', '.join(values)},))"
    else:
        body = "\n".join(f"  self.{name} = {value}" for name, value in zip(names, values))
    source = (f"def __create_fn__({', '.join(helpers)}):\n"
              f" def __init__(self, {', '.join(names)}):\n{body}\n return __init__\n")
    made: dict[str, Any] = {}
    exec(source, sys.modules[cls.__module__].__dict__, made)  # as dataclasses does
    init: Callable[..., None] = made["__create_fn__"](*helpers.values())
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = _annotations(cls)
    init.__defaults__ = tuple(
        FACTORY if f.default is MISSING else f.default for f in fields
        if f.default is not MISSING or f.default_factory is not MISSING) or None
    return init


def _frozen_setter(cls: type, names: list[str]) -> Callable[[object, tuple[object, ...]], None]:
    """What sets the fields of a frozen instance, past its ``__setattr__``: the slots' own
    setters (as fast as a call of ``object.__setattr__`` a field, and compiled once)."""
    setters = tuple(cls.__dict__[name].__set__ for name in names)

    def set_fields(instance: object, values: tuple[object, ...]) -> None:
        for setter, value in zip(setters, values):
            setter(instance, value)

    return set_fields
