"""Moves as they happen: waiting for a game's next version without holding a thread or a connection.

- :mod:`service.live.listener`: the process's one ``LISTEN`` connection, fanned out by game.
- :mod:`service.live.rows`: the newest lobby row of each game, shared by its waiters.
- :mod:`service.live.polls`: long-polls of ``/state``, and the layer answering a spectator's beneath Flask.
- :mod:`service.live.feed`: server-sent events of a game's log.
- :mod:`service.live.handover`: a request's committed work published once its answer is sent.
"""
