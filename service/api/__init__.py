"""The REST resources under ``/api/v1``, one blueprint a resource.

- :mod:`service.api.games`: create, list, watch, replay and play games.
- :mod:`service.api.turns`: a seat's turn (``/actions``, ``/commands``), the one implementation both
  doors of those endpoints call.
- :mod:`service.api.fast`: the second door: those two endpoints answered beneath Flask.
- :mod:`service.api.endings`: resign and rematch.
- :mod:`service.api.players`: players, their games and their webhooks.
- :mod:`service.api.push`: Web Push: the VAPID key and a player's browser subscriptions.
- :mod:`service.api.credentials`: a seat's token reissued, a player's key rotated.
- :mod:`service.api.exports`: a game's log as a file, and an import.
- :mod:`service.api.catalog`: the hosted games and their content.
- :mod:`service.api.health`: ``/health`` and ``/ready``.
"""
