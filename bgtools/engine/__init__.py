"""The rules of backgammon: positions, IDs, notation, resolving a written play.

Imports nothing else of bgtools but errors, limits and the grammars.
"""
