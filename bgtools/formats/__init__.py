"""The old package of the readers and writers; only :mod:`bgtools.formats.jsonfmt` remains,
as a compatibility alias (see docs/library.md, "Module paths")."""
