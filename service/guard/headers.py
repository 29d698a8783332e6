"""Security headers on every answer, whichever layer gives it (the spectators' long-polls and the
seats' hot routes answer beneath Flask, so this is a WSGI layer around them all).

- No page of Kotlík may be framed (``frame-ancestors 'none'``, and ``X-Frame-Options: DENY`` for
  browsers that predate it): the web client keeps seat tokens and shows move and resign buttons,
  which another site could lay a decoy over (clickjacking).
- ``X-Content-Type-Options: nosniff``: a browser takes each answer as the type it says it is.
- A Content-Security-Policy on every answer. An answer that sets its own keeps it (the web client's
  pages, :mod:`service.web.pages`, which know what they load); the docs page gets one that lets it
  load Swagger UI from this server and run the one inline script it holds, by that script's hash;
  every other answer (JSON, problems, streams, the OpenAPI document) may load nothing at all.
- ``Strict-Transport-Security`` only when the operator says clients reach the server over HTTPS
  (``KOTLIK_TLS``, e.g. behind a TLS proxy): sent over plain HTTP it would be ignored, or, on a
  name later moved behind TLS, make browsers refuse the plain server.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

StartResponse = Callable[..., Any]

#: Answers that are data, not pages: nothing may be loaded, run or framed on their account.
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
#: The docs page: Swagger UI's files from this server (no CDN), the OpenAPI document fetched from
#: it; inline styles, which Swagger UI sets; its pictures are inline (``data:``). ``{scripts}`` is
#: the hash of each inline script the page holds.
DOCS_POLICY = (
    "default-src 'none'; script-src 'self' {scripts}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
#: Seconds a browser keeps to HTTPS once told (two years, as the HSTS preload list asks).
HSTS_SECONDS = 63072000

_ALWAYS = (("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"))
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def tls(config: Mapping[str, Any]) -> bool:
    """``KOTLIK_TLS`` (app config, else the environment): whether clients come over HTTPS."""
    value = str(config.get("KOTLIK_TLS", os.environ.get("KOTLIK_TLS", ""))).strip().lower()
    if value in ("", "0", "no", "off", "false"):
        return False
    if value in ("1", "yes", "on", "true"):
        return True
    raise ValueError(f"KOTLIK_TLS must be yes or no, not {value!r}")


def docs_policy(page: bytes) -> str:
    """The docs page's policy, allowing exactly the inline scripts ``page`` holds."""
    hashes = (base64.b64encode(hashlib.sha256(s).digest()).decode() for s in _INLINE_SCRIPT.findall(page))
    return DOCS_POLICY.format(scripts=" ".join(f"'sha256-{h}'" for h in hashes))


class SecurityHeaders:
    """WSGI: every answer of ``app`` with the headers above, those it set itself kept."""

    def __init__(self, app: Any, docs_path: str, config: Mapping[str, Any]) -> None:
        self.app = app
        self.docs_path = docs_path
        added = list(_ALWAYS)
        if tls(config):
            added.append(("Strict-Transport-Security", f"max-age={HSTS_SECONDS}"))
        self.added = tuple(added)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == self.docs_path:
            return self._docs(environ, start_response)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, self._with(headers, API_POLICY), exc_info)

        return self.app(environ, start)

    def _with(self, headers: list[tuple[str, str]], policy: str) -> list[tuple[str, str]]:
        present = {name.lower() for name, _ in headers}
        headers.extend(h for h in self.added if h[0].lower() not in present)
        if "content-security-policy" not in present:
            headers.append(("Content-Security-Policy", policy))
        return headers

    def _docs(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """The docs page, read whole (a few hundred bytes) to hash its inline script."""
        answer: list[Any] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer[:] = [status, headers, exc_info]
            return lambda data: None  # Flask never writes through it

        body = self.app(environ, start)
        try:
            page = b"".join(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        status, headers, exc_info = answer
        start_response(status, self._with(headers, docs_policy(page)), exc_info)
        return [page]
