"""The write side: each command decided by its game's rules and appended with what follows it.

- :mod:`commands.handlers`: one function a command (create a game, play, a bot's turn, resign, a
  clock's timeout, scoring, a seat's ``undo``), each one transaction.
- :mod:`commands.writes`: the one statement that appends a command's events with the lobby row,
  snapshot, idempotency key and outbox rows they bring.
- :mod:`commands.seating`: a new game's seat requests made its seats (people, bots, players,
  open seats), and who may sit in a rated game: the one place seats are built.
- :mod:`commands.openings`: a game waiting for players: a seat taken (the last one starts the
  game), a cancel, an expiry.
- :mod:`commands.credentials`: a seat's token reissued, a player's key rotated; the old one refused
  at once on every node.
- :mod:`commands.seeks`: quick pairing: a seek placed and paired at once, cancelled, expired or
  paired with its fallback bot.

The handlers are this package's interface (``commands.play(...)``); the outbox they fill is
:mod:`events.outbox`, and handing it to the broker is :mod:`workers.relay`'s.
"""

from commands.handlers import (
    PLAY_TURN,
    THINK,
    Created,
    EntropyRefused,
    GameOver,
    KeyReused,
    Played,
    RematchTaken,
    UndoRefused,
    accept_entropy,
    create_game,
    keyed,
    plain,
    play,
    play_bot,
    resign,
    score_game,
    stream_key,
    take_back,
    timeout,
    work_for,
)

__all__ = [
    "PLAY_TURN",
    "THINK",
    "Created",
    "EntropyRefused",
    "GameOver",
    "KeyReused",
    "Played",
    "RematchTaken",
    "UndoRefused",
    "accept_entropy",
    "create_game",
    "keyed",
    "stream_key",
    "plain",
    "take_back",
    "play",
    "play_bot",
    "resign",
    "score_game",
    "timeout",
    "work_for",
]
