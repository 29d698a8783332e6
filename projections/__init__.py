"""The read side: a game's state, what each seat sees of it, and the tables kept from the log.

- :mod:`projections.state`: a game's state in one call (the cache, else a snapshot and the tail).
- :mod:`projections.fold`: folding events through the rules, and the snapshots.
- :mod:`projections.seen`: what each seat and a spectator may see: the one place that decides.
- :mod:`projections.caches`: an app's in-process caches, made, sized and forgotten together.
- :mod:`projections.lobby`: one row a game; :mod:`projections.players`: players and their seats;
  :mod:`projections.tokens`: seat tokens, and the tokens each process remembers;
  :mod:`projections.credentials`: the log of token and key hashes (``credential_events``) they and
  the players' keys are folded from (``kotlik credentials check|rebuild``);
  :mod:`projections.webhooks`: webhooks and deliveries, and :mod:`projections.addresses`, the
  addresses they may reach; :mod:`projections.clocks`: turn clocks and deadlines.
- :mod:`projections.resignation`: the result of a game that seats left, alike for every game.
- :mod:`projections.undo`: which of a seat's moves an ``undo`` takes back, read from the log alone
  (the write side, ``/actions`` and the verifier ask it alike).
- :mod:`projections.seats`: a game's seats as its log tells them (plain data, for the verifier too).
- :mod:`projections.openings`: what a game that waited for players, or a rated one, adds to its
  lobby row; :mod:`projections.ratings`: OpenSkill ratings folded from rated games' results;
  :mod:`projections.seeks`: seeks folded from their own log, ``seek_events``;
  :mod:`projections.push`: Web Push subscriptions folded from theirs, ``push_events``, and the
  pushes a notice makes. Each can be recomputed from the log and compared with its table
  (``kotlik ratings|seeks|push check``).

Each table is written in the transaction of the events it follows (:mod:`commands.writes`).
"""
