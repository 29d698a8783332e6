"""What each seat, and a spectator (seat ``None``), may see of a game: the one place that decides.

Every path that shows a game calls these: the REST answers (``/state``, ``/events``,
``/export``, a command's 201), the streams and long-polls, and the bots, which are given only
their seat's view. The rules decide what is secret (``view``, ``redact``, ``recall`` and
``redact_command`` of :class:`games.interface.Rules`); this module decides when those apply: while a
game runs, each seat sees its own view and the log redacted for it, the others' commands by their
``type`` alone, and nobody sees the options' arrangement; once it is over (``state`` is ``None``
below), everyone sees everything.
"""

from __future__ import annotations

from typing import Any

from events import StoredEvent
from games.interface import Rules
from projections.fold import PLATFORM
from projections.lobby import GameRow

#: What a running game's arranged options say in place of the arrangement.
HIDDEN = "hidden until the game is over"


def options(row: GameRow) -> dict[str, Any]:
    """The options as anyone may see them: an arrangement stays secret until the game is over."""
    if row.status == "finished" or "arranged" not in row.options:
        return row.options
    return {**row.options, "arranged": HIDDEN}


def view(rules: Rules, state: Any, seat: int | None) -> dict[str, Any]:
    """The game now as ``seat`` sees it (a spectator's with ``None``)."""
    return rules.view(state, seat)


def recalled(rules: Rules, now: Any, then: Any, seat: int | None) -> dict[str, Any]:
    """A past state ``then`` as ``seat`` may still recall it while the game, now in ``now``, runs
    (``GET /state?at=``); once the game is over (``now`` is ``None``), the whole view of then."""
    return rules.view(then, seat) if now is None else rules.recall(now, then, seat)


def events(row: GameRow, state: Any, stored: list[StoredEvent], seat: int | None) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them: redacted by the rules while the game runs (``state``, the
    game's state now), whole once it is over (``state`` is ``None``)."""
    rules = row.rules
    out = []
    for event in stored:
        if event.type.startswith(PLATFORM):
            data = event.data
            if state is not None and "options" in data:
                data = {**data, "options": options(row)}
        elif state is None:
            data = event.data
        else:
            redacted = rules.redact(state, event.body(), seat)
            data = {k: v for k, v in redacted.items() if k != "type"}
        out.append(
            {
                "version": event.version,
                "type": event.type,
                "data": data,
                "seat": event.seat,
                "command": command(event, seat, rules, state),
                "recorded_at": event.recorded_at,
            }
        )
    return out


def command(event: StoredEvent, seat: int | None, rules: Rules, state: Any) -> dict[str, Any] | None:
    """The command that caused ``event`` (``None`` for setup and the platform's own events).

    While the game runs (``state``), the others see only its ``type``, since a command may name what
    only its seat knew (a card in a hidden hand), and its own seat sees it as it may still recall it
    now: the rules' ``redact_command`` where they have one (a Kupferkessel card taken and since
    covered), else whole. Once the game is over everyone sees every command, as they see every event.
    """
    sent = event.meta.get("command")
    if not isinstance(sent, dict):
        return None
    if state is None:
        return sent
    if event.seat != seat:
        return {"type": sent.get("type")}
    redact = rules.redact_command
    return sent if redact is None else dict(redact(state, sent, seat))


def meta(event: StoredEvent, seat: int | None, rules: Rules, state: Any) -> dict[str, Any]:
    """``event``'s meta as ``seat`` may see it: while the game runs, the command as :func:`command`
    shows it and never the client's Idempotency-Key."""
    if state is None:
        return event.meta
    shown = {k: v for k, v in event.meta.items() if k != "command_id"}
    if "command" in shown:
        shown["command"] = command(event, seat, rules, state)
    return shown
