"""Checks of the whole project: the architecture, typing, style, documentation, builds, grammars,
start-up imports, the dataclasses' hand-written methods and the format registries."""
