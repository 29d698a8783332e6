"""What the Schemathesis tests share: the size knob, the checks, the document.

``KOTLIK_FUZZ_EXAMPLES`` sizes both runs: the examples per operation and pass of the stateless
tests, and the scenarios of the stateful one (whose steps it bounds too).
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis
from httpclient import Client
from schemathesis import checks
from schemathesis.specs.openapi import checks as openapi_checks

EXAMPLES = int(os.environ.get("KOTLIK_FUZZ_EXAMPLES", "100"))
#: Long enough for the slowest honest answer on a loaded CI machine, short of a hang.
TIMEOUT_S = 20

#: Every answer: no server error, and status, content type, body and headers as documented.
CHECKS = [
    checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.response_headers_conformance,
]


def every_check() -> list[Any]:
    """Every check Schemathesis has (the stateful ones too: use after free, resource availability,
    ignored auth, object-level authorization, ...), as its registry lists them."""
    from schemathesis.checks import CHECKS as REGISTRY

    return list(REGISTRY.get_all())


# An import's body is an export file (JSON Lines, a string in the document): sent as text.
schemathesis.serializer.alias("application/x-ndjson", "text/plain")


def load_schema(api: Client, **generation: Any) -> Any:
    """The live document, generation configured as ``generation`` says (schemathesis' keys)."""
    config = schemathesis.Config.from_dict({"generation": generation}) if generation else None
    return schemathesis.openapi.from_url(f"{api.base}/api/v1/openapi.json", config=config)
