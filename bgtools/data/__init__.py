"""Archives as data: dice statistics, standings, the decision table, their plots."""
