"""The verify command: an export checked offline, as ``kotlik verify`` and ``kotlik-verify`` run it.

One function for both, so the server's command line and the standalone verifier (``verifier/``,
installed without the server) print the same report and exit the same way: 0 when the file
verifies (and, with ``--key``, is signed by that key), 1 when it does not or cannot be read.
Like :mod:`audit.verify` and :mod:`audit.signing`, it needs no database, server or network.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import orjson

#: The help of the file argument and of ``--key``, the same in both commands.
FILE_HELP = "an export (GET /games/{id}/export); - reads standard input"
KEY_HELP = "the server's key as a JWK file (GET /.well-known/kotlik-key): refuse a file it did not sign"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``FILE`` and ``--key KEYFILE``."""
    parser.add_argument("file", help=FILE_HELP)
    parser.add_argument("--key", metavar="KEYFILE", help=KEY_HELP)


def read(path: str) -> bytes:
    """A file's bytes; ``-`` reads standard input."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as file:
        return file.read()


def run(file: str, key_file: str | None) -> int:
    """Check the export at ``file`` (and its signature against the JWK at ``key_file``), print the
    verdict; 0 if it verifies, else 1.

    ``key_file`` is the JWK of ``GET /.well-known/kotlik-key``, kept when first fetched: with it an
    unsigned file, or one that key did not sign, is refused."""
    from audit.verify import BadExport, check_file  # here: the command line's help loads no engine

    try:
        key = orjson.loads(read(key_file)) if key_file else None
    except (OSError, orjson.JSONDecodeError) as e:
        print(f"cannot read the key {key_file}: {getattr(e, 'strerror', None) or e}")
        return 1
    try:
        verdict = check_file(read(file), key)
    except OSError as e:
        print(f"cannot read {file}: {e.strerror or e}")
        return 1
    except BadExport as e:
        print(f"NOT A WHOLE EXPORT: {e.reason}")
        return 1
    print(verdict.report())
    return 0 if verdict.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """``kotlik-verify FILE [--key KEYFILE]``: the standalone verifier's console command."""
    parser = argparse.ArgumentParser(
        prog="kotlik-verify",
        description="Check an exported Kotlík game offline: the seed against its commitment, setup, "
        "every command and the score re-run by the game's rules, and with --key the server's signature.",
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args.file, args.key)


if __name__ == "__main__":
    sys.exit(main())
