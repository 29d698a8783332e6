"""Audit: a game's log taken out, checked and brought back.

- :mod:`audit.export`: a game's whole log as one document, the seed revealed once it is over.
- :mod:`audit.verify`: an export re-run by its game's rules offline; what does not follow.
- :mod:`audit.signing`: the server's Ed25519 key and the signature line that ends every export.
- :mod:`audit.stored`: the same check run on a game in the database.
- :mod:`audit.imports`: an export taken in as a new game, after it verifies.
- :mod:`audit.trust`: which signatures an import accepts (its keys, and whether one is required).
- :mod:`audit.offline`: the verify command, ``kotlik verify`` and the standalone ``kotlik-verify``.

``verify``, ``signing`` and ``offline`` need no database, server or network: the standalone
verifier (``verifier/`` in the repository) ships them with the engines and nothing else.
"""
