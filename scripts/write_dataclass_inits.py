"""Write ``bgtools/dataclass_inits.py``: the ``__init__`` of every prebuilt dataclass.

    python scripts/write_dataclass_inits.py [--check]

:func:`bgtools.dataclass_methods.prebuilt_dataclass` takes a class's ``__init__`` from that
file, by the shape of its fields, so that no run of the command line compiles one (about a
third of a millisecond a class). Run this after adding, removing, renaming or reordering a
field of such a class, or changing a default to a factory; ``--check`` only says whether the
file is current (``tests/project/test_record_methods.py`` checks it too). Until it is, a class whose
shape the file lacks compiles its ``__init__`` when it is defined: correct, slower to start.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET = REPO / "bgtools" / "dataclass_inits.py"

HEADER = '''"""The ``__init__`` of bgtools' prebuilt dataclasses, one maker a shape of fields (see
:func:`bgtools.dataclass_methods.prebuilt_dataclass`), compiled with the package so that no
run compiles them.

Written by ``python scripts/write_dataclass_inits.py`` from the classes' fields: do not edit.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it so)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from typing import Any

__all__ = ["MAKERS"]
'''


def declaring_modules() -> list[str]:
    """The modules of bgtools that declare a prebuilt dataclass."""
    found = []
    for path in sorted((REPO / "bgtools").rglob("*.py")):
        if "\n@prebuilt_dataclass\n" in path.read_text("utf-8"):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def generated_text() -> str:
    """What ``bgtools/dataclass_inits.py`` holds for the classes as they are now."""
    sys.path.insert(0, str(REPO))
    from bgtools.dataclass_methods import SHAPES, init_source

    for module in declaring_modules():
        importlib.import_module(module)
    # By class name, not module: moving a class to another module changes nothing here.
    named = {shape: sorted(owner.rsplit(".", 1)[1] for owner in owners
                           if owner.startswith("bgtools."))
             for shape, owners in SHAPES.items()}
    makers: dict[str, str] = {}
    for shape, classes in sorted(named.items(), key=lambda item: item[1]):
        if not classes:
            continue  # only classes of the tests
        name = "_" + re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", classes[0]).lower()
        while name in makers.values():
            name += "_"
        makers[shape] = name
    parts = [HEADER]
    for shape, name in makers.items():
        source = init_source(shape, name)
        parts.append(f"\n\n# {', '.join(named[shape])}\n{source}")
    parts.append("\n\nMAKERS: dict[str, Callable[..., Callable[..., None]]] = {\n")
    parts.extend(f'    "{shape}": {name},\n' for shape, name in makers.items())
    parts.append('}\n"""The maker of each shape (see dataclass_methods.init_shape)."""\n')
    return "".join(parts)


def main() -> int:
    """Write the file, or with ``--check`` say whether it is current (exit 1 if not)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the file")
    args = parser.parse_args()
    text = generated_text()
    if args.check:
        current = TARGET.exists() and TARGET.read_text("utf-8") == text
        print(f"{TARGET.name} is {'current' if current else 'out of date'}")
        return 0 if current else 1
    TARGET.write_text(text, "utf-8")
    print(f"wrote {TARGET.relative_to(REPO)}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
