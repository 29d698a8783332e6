"""A game's seats as its log tells them, in plain data: read by the lobby's fold, the write side
and the verifier alike, which runs offline (no database), so nothing here imports one."""

from __future__ import annotations

from typing import Any


def taken_seat(data: dict[str, Any]) -> dict[str, Any]:
    """The seat a ``kotlik.SeatTaken`` (its ``data``) fills, as the lobby and the log keep it: the
    player's, with the entropy they gave if they gave some."""
    seat = {"seat": int(data["seat"]), "name": data["name"], "bot": None, "player": data["player"]}
    if data.get("entropy") is not None:
        seat["entropy"] = data["entropy"]
    return seat
