"""Schemathesis against a live ``kotlik web``: every operation answers as documented, whatever it is sent.

Two passes over every operation in the OpenAPI document (``/stream`` aside: it never ends): one
with whatever ids and tokens Schemathesis makes up, which mostly meets the 404 and 401 paths, and one
aimed at a real running game with a real seat token, so that the generated queries and bodies reach
the state, actions and command handlers behind them. Every answer is checked (:data:`fuzzing.CHECKS`):
no server error, and the status, content type, body and headers the document gives.
``KOTLIK_FUZZ_EXAMPLES`` sets the examples per operation and pass (default 100). The sequences
(create, actions, command, state) are ``test_fuzz_stateful.py``'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fuzzing import CHECKS, EXAMPLES, TIMEOUT_S, load_schema
from httpclient import create
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from processes import environment, kotlik_web
from schemathesis import GenerationMode

FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@pytest.fixture(scope="module")
def live(broker: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    log: Path = tmp_path_factory.mktemp("fuzz") / "web.log"
    with kotlik_web(environment(**broker), log) as api:
        game = create(api, "kupferkessel", [{"name": "Alice"}, {"name": "Bob"}])
        yield {"api": api, "base": api.base, "game": game, "log": log}


@pytest.fixture(scope="module")
def operations(live: dict[str, Any]) -> list[Any]:
    schema = load_schema(live["api"])
    return [result.ok() for result in schema.exclude(path_regex=r"/stream$").get_all_operations()]


def _failures(operation: Any, live: dict[str, Any], mode: GenerationMode, aim: dict[str, Any]) -> list[str]:
    """What ``operation`` answered wrongly to ``EXAMPLES`` generated requests (Hypothesis shrinks
    each failure to its smallest example)."""

    @given(case=operation.as_strategy(mode, **aim))
    @FUZZ
    def run(case: Any) -> None:
        if case.query and "wait" in case.query:
            case.query["wait"] = 0
        case.call_and_validate(base_url=live["base"], checks=CHECKS, timeout=TIMEOUT_S)

    try:
        run()
    except Unsatisfiable:
        return []  # nothing in the operation can be made invalid (negative mode with no parameters)
    except (Exception, BaseExceptionGroup) as failure:  # noqa: BLE001 - every failure, of every kind
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


def test_gunicorns_own_refusals_are_problem_details(live: dict[str, Any]) -> None:
    """A request line past gunicorn's limit never reaches the app; it is a problem all the same."""
    reply = live["api"].get("/api/v1/games?page=" + "9" * 5000)
    assert reply.status == 414
    assert reply.problem["status"] == 414
