"""The ``bgtools-rules`` directive: the table of the rule ids ``bgtools validate`` reports,
made from the rule table itself (``bgtools rules`` prints the same rows), so that the rule
reference in ``docs/rules.md`` cannot drift from the code."""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

HEADER = ("rule", "severity", "meaning")


def _row(cells: tuple[str, str, str], *, code_first: bool) -> nodes.row:
    row = nodes.row()
    for number, text in enumerate(cells):
        paragraph = nodes.paragraph()
        if code_first and number == 0:
            paragraph += nodes.literal(text, text)
        else:
            paragraph += nodes.Text(text)
        row += nodes.entry("", paragraph)
    return row


class RuleTable(Directive):
    """A table of every rule: its id, its severity and what it means."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        """The table node, one row per rule of ``bgtools.cli.validate.rule_table()``."""
        from bgtools.cli.validate import rule_table

        table = nodes.table(classes=["bgtools-rules"])
        group = nodes.tgroup(cols=len(HEADER))
        table += group
        for width in (22, 10, 68):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row(HEADER, code_first=False)
        group += head
        body = nodes.tbody()
        for rule in rule_table():
            body += _row((rule["rule"], rule["severity"], rule["description"]), code_first=True)
        group += body
        return [table]


def setup(app: Any) -> dict[str, object]:  # noqa: ANN401 - Sphinx's application object
    """Register the directive with Sphinx."""
    app.add_directive("bgtools-rules", RuleTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
