"""The ``__init__`` of bgtools' prebuilt dataclasses, one maker a shape of fields (see
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


# Action
def _action(__factory: Any) -> Callable[..., None]:
    def __init__(self: Any, kind: Any, player: Any, line: Any, column: Any, dice: Any,
            play_text: Any, play_column: Any, steps: Any, cube: Any, points: Any,
            and_the_match: Any, cannot_move: Any, resign_marker: Any, illegal: Any, move: Any,
            illegal_text: Any, dice_only: Any, forfeit: Any, extra: Any) -> None:
        self.kind = kind
        self.player = player
        self.line = line
        self.column = column
        self.dice = dice
        self.play_text = play_text
        self.play_column = play_column
        self.steps = steps
        self.cube = cube
        self.points = points
        self.and_the_match = and_the_match
        self.cannot_move = cannot_move
        self.resign_marker = resign_marker
        self.illegal = illegal
        self.move = move
        self.illegal_text = illegal_text
        self.dice_only = dice_only
        self.forfeit = forfeit
        self.extra = {} if extra is __factory else extra
    return __init__


# BatchSummary
def _batch_summary(__factory: Any, __make_by_rule: Any, __make_by_profile: Any,
        __make__started: Any) -> Callable[..., None]:
    def __init__(self: Any, total: Any, keep_slowest: Any, keep_failed: Any, valid: Any,
            invalid: Any, unreadable: Any, errors: Any, warnings: Any, rolls: Any,
            interrupted: Any, by_rule: Any, by_profile: Any, failed: Any, _slowest: Any,
            _started: Any, _elapsed: Any) -> None:
        self.total = total
        self.keep_slowest = keep_slowest
        self.keep_failed = keep_failed
        self.valid = valid
        self.invalid = invalid
        self.unreadable = unreadable
        self.errors = errors
        self.warnings = warnings
        self.rolls = rolls
        self.interrupted = interrupted
        self.by_rule = __make_by_rule() if by_rule is __factory else by_rule
        self.by_profile = __make_by_profile() if by_profile is __factory else by_profile
        self.failed = [] if failed is __factory else failed
        self._slowest = [] if _slowest is __factory else _slowest
        self._started = __make__started() if _started is __factory else _started
        self._elapsed = _elapsed
    return __init__


# DecodedText
def _decoded_text(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, text: Any, encoding: Any, first_bad_line: Any) -> None:
        __setattr(self, "text", text)
        __setattr(self, "encoding", encoding)
        __setattr(self, "first_bad_line", first_bad_line)
    return __init__


# FileReport
def _file_report(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, display: Any, error: Any, valid: Any, rolls: Any, rules: Any,
            objects: Any, problems: Any, extra: Any) -> None:
        __setattr(self, "display", display)
        __setattr(self, "error", error)
        __setattr(self, "valid", valid)
        __setattr(self, "rolls", rolls)
        __setattr(self, "rules", rules)
        __setattr(self, "objects", objects)
        __setattr(self, "problems", problems)
        __setattr(self, "extra", extra)
    return __init__


# FileResult
def _file_result(__factory: Any) -> Callable[..., None]:
    def __init__(self: Any, display: Any, format: Any, encoding: Any, replays: Any, error: Any,
            events: Any) -> None:
        self.display = display
        self.format = format
        self.encoding = encoding
        self.replays = [] if replays is __factory else replays
        self.error = error
        self.events = [] if events is __factory else events
    return __init__


# GameRecord
def _game_record(__factory: Any) -> Callable[..., None]:
    def __init__(self: Any, number: Any, line: Any, names: Any, score: Any, score_line: Any,
            score_columns: Any, actions: Any, setups: Any, comments: Any, extra: Any,
            crawford: Any) -> None:
        self.number = number
        self.line = line
        self.names = names
        self.score = score
        self.score_line = score_line
        self.score_columns = score_columns
        self.actions = [] if actions is __factory else actions
        self.setups = setups
        self.comments = [] if comments is __factory else comments
        self.extra = {} if extra is __factory else extra
        self.crawford = crawford
    return __init__


# Lexicon
def _lexicon(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, terminals: Any, ignored: Any) -> None:
        __setattr(self, "terminals", terminals)
        __setattr(self, "ignored", ignored)
    return __init__


# LoadedRecords
def _loaded_records(__factory: Any) -> Callable[..., None]:
    def __init__(self: Any, format: Any, encoding: Any, records: Any) -> None:
        self.format = format
        self.encoding = encoding
        self.records = [] if records is __factory else records
    return __init__


# MatchRecord
def _match_record(__factory: Any) -> Callable[..., None]:
    def __init__(self: Any, format: Any, match_length: Any, length_line: Any, tags: Any,
            comments: Any, games: Any, problems: Any, extra: Any) -> None:
        self.format = format
        self.match_length = match_length
        self.length_line = length_line
        self.tags = [] if tags is __factory else tags
        self.comments = [] if comments is __factory else comments
        self.games = [] if games is __factory else games
        self.problems = [] if problems is __factory else problems
        self.extra = {} if extra is __factory else extra
    return __init__


# MatchState
def _match_state(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, match_length: Any, score: Any, cube_value: Any, cube_owner: Any,
            on_roll: Any, crawford: Any, game_state: Any, turn: Any, doubled: Any,
            resignation: Any, dice: Any, jacoby: Any) -> None:
        __setattr(self, "match_length", match_length)
        __setattr(self, "score", score)
        __setattr(self, "cube_value", cube_value)
        __setattr(self, "cube_owner", cube_owner)
        __setattr(self, "on_roll", on_roll)
        __setattr(self, "crawford", crawford)
        __setattr(self, "game_state", game_state)
        __setattr(self, "turn", turn)
        __setattr(self, "doubled", doubled)
        __setattr(self, "resignation", resignation)
        __setattr(self, "dice", dice)
        __setattr(self, "jacoby", jacoby)
    return __init__


# Outcome
def _outcome(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, index: Any, item: Any, value: Any, failure: Any, seconds: Any) -> None:
        __setattr(self, "index", index)
        __setattr(self, "item", item)
        __setattr(self, "value", value)
        __setattr(self, "failure", failure)
        __setattr(self, "seconds", seconds)
    return __init__


# ParsedId
def _parsed_id(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, position: Any, state: Any) -> None:
        __setattr(self, "position", position)
        __setattr(self, "state", state)
    return __init__


# Play
def _play(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, steps: Any, hits: Any) -> None:
        __setattr(self, "steps", steps)
        __setattr(self, "hits", hits)
    return __init__


# Problem
def _problem(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, rule: Any, message: Any, line: Any, column: Any, game: Any,
            severity: Any, move: Any) -> None:
        __setattr(self, "rule", rule)
        __setattr(self, "message", message)
        __setattr(self, "line", line)
        __setattr(self, "column", column)
        __setattr(self, "game", game)
        __setattr(self, "severity", severity)
        __setattr(self, "move", move)
    return __init__


# ReadFailure
def _read_failure(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, path: Any, message: Any) -> None:
        __setattr(self, "path", path)
        __setattr(self, "message", message)
    return __init__


# Rule
def _rule(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, id: Any, severity: Any, description: Any, checked_by: Any,
            step_message: Any) -> None:
        __setattr(self, "id", id)
        __setattr(self, "severity", severity)
        __setattr(self, "description", description)
        __setattr(self, "checked_by", checked_by)
        __setattr(self, "step_message", step_message)
    return __init__


# SetUp
def _set_up(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, before: Any, emptied: Any, white: Any, black: Any, turn: Any,
            cube: Any, cube_position: Any, errors: Any, line: Any, column: Any, node: Any,
            properties: Any) -> None:
        __setattr(self, "before", before)
        __setattr(self, "emptied", emptied)
        __setattr(self, "white", white)
        __setattr(self, "black", black)
        __setattr(self, "turn", turn)
        __setattr(self, "cube", cube)
        __setattr(self, "cube_position", cube_position)
        __setattr(self, "errors", errors)
        __setattr(self, "line", line)
        __setattr(self, "column", column)
        __setattr(self, "node", node)
        __setattr(self, "properties", properties)
    return __init__


# StdinInput
def _stdin_input(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, data: Any) -> None:
        __setattr(self, "data", data)
    return __init__


# Terminal
def _terminal(__setattr: Any) -> Callable[..., None]:
    def __init__(self: Any, name: Any, pattern: Any, ignore_case: Any, priority: Any) -> None:
        __setattr(self, "name", name)
        __setattr(self, "pattern", pattern)
        __setattr(self, "ignore_case", ignore_case)
        __setattr(self, "priority", priority)
    return __init__


MAKERS: dict[str, Callable[..., Callable[..., None]]] = {
    "kind player line column dice play_text play_column steps cube points and_the_match cannot_move resign_marker illegal move illegal_text dice_only forfeit extra{}": _action,
    "total keep_slowest keep_failed valid invalid unreadable errors warnings rolls interrupted by_rule() by_profile() failed[] _slowest[] _started() _elapsed": _batch_summary,
    "frozen: text encoding first_bad_line": _decoded_text,
    "frozen: display error valid rolls rules objects problems extra": _file_report,
    "display format encoding replays[] error events[]": _file_result,
    "number line names score score_line score_columns actions[] setups comments[] extra{} crawford": _game_record,
    "frozen: terminals ignored": _lexicon,
    "format encoding records[]": _loaded_records,
    "format match_length length_line tags[] comments[] games[] problems[] extra{}": _match_record,
    "frozen: match_length score cube_value cube_owner on_roll crawford game_state turn doubled resignation dice jacoby": _match_state,
    "frozen: index item value failure seconds": _outcome,
    "frozen: position state": _parsed_id,
    "frozen: steps hits": _play,
    "frozen: rule message line column game severity move": _problem,
    "frozen: path message": _read_failure,
    "frozen: id severity description checked_by step_message": _rule,
    "frozen: before emptied white black turn cube cube_position errors line column node properties": _set_up,
    "frozen: data": _stdin_input,
    "frozen: name pattern ignore_case priority": _terminal,
}
"""The maker of each shape (see dataclass_methods.init_shape)."""
