"""Schemathesis against a live ``kotlik web``: no operation answers a server error, whatever it is sent.

Two passes over every operation in the OpenAPI document (``/stream`` aside: it never ends): one
with whatever ids and tokens Schemathesis makes up, which mostly meets the 404 and 401 paths, and one
aimed at a real running game with a real seat token, so that the generated queries and bodies reach
the state, actions and command handlers behind them. ``KOTLIK_FUZZ_EXAMPLES`` sets the examples per
operation and pass (default 100).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from httpclient import create
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from processes import environment, kotlik_web
from schemathesis import GenerationMode, checks

EXAMPLES = int(os.environ.get("KOTLIK_FUZZ_EXAMPLES", "100"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
#: Long enough for the slowest honest answer on a loaded CI machine, short of a hang.
TIMEOUT_S = 20
# An import's body is an export file (JSON Lines, a string in the document): sent as text.
schemathesis.serializer.alias("application/x-ndjson", "text/plain")


@pytest.fixture(scope="module")
def live(broker: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    log: Path = tmp_path_factory.mktemp("fuzz") / "web.log"
    with kotlik_web(environment(**broker), log) as api:
        game = create(api, "kupferkessel", [{"name": "Alice"}, {"name": "Bob"}])
        yield {"base": api.base, "game": game, "log": log}


@pytest.fixture(scope="module")
def operations(live: dict[str, Any]) -> list[Any]:
    schema = schemathesis.openapi.from_url(f"{live['base']}/api/v1/openapi.json")
    return [result.ok() for result in schema.exclude(path_regex=r"/stream$").get_all_operations()]


def _failures(operation: Any, live: dict[str, Any], mode: GenerationMode, aim: dict[str, Any]) -> list[str]:
    """What ``operation`` answered wrongly to ``EXAMPLES`` generated requests (Hypothesis shrinks
    each failure to its smallest example)."""

    @given(case=operation.as_strategy(mode, **aim))
    @FUZZ
    def run(case: Any) -> None:
        if case.query and "wait" in case.query:
            case.query["wait"] = 0
        case.call_and_validate(base_url=live["base"], checks=[checks.not_a_server_error], timeout=TIMEOUT_S)

    try:
        run()
    except Unsatisfiable:
        return []  # nothing in the operation can be made invalid (negative mode with no parameters)
    except Exception as failure:  # noqa: BLE001 - every kind of failure is reported, not just the first
        return [f"{operation.label} ({mode.value}): {failure}"]
    return []


@pytest.mark.parametrize("mode", list(GenerationMode), ids=lambda mode: mode.value)
def test_no_operation_answers_a_server_error(
    operations: list[Any], live: dict[str, Any], mode: GenerationMode
) -> None:
    failures = [f for operation in operations for f in _failures(operation, live, mode, {})]
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("mode", list(GenerationMode), ids=lambda mode: mode.value)
def test_no_operation_on_a_running_game_answers_a_server_error(
    operations: list[Any], live: dict[str, Any], mode: GenerationMode
) -> None:
    game = live["game"]
    failures = []
    for operation in operations:
        names = {parameter.name for parameter in operation.path_parameters}
        aim: dict[str, Any] = {"headers": {"Authorization": f"Bearer {game['seats'][0]['token']}"}}
        if names:
            aim["path_parameters"] = {"game_id": game["id"], "game": game["game"]}
            aim["path_parameters"] = {k: v for k, v in aim["path_parameters"].items() if k in names}
        failures += _failures(operation, live, mode, aim)
    assert not failures, "\n\n".join(failures)
