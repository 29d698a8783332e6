"""The one exception the client raises for an answer that is not a success."""

from __future__ import annotations

from typing import Any

from kotlik_client.types import Problem


class ProblemError(Exception):
    """An error answer, with its RFC 9457 problem details as the server sent them.

    ``status``, ``type``, ``title``, ``detail`` and ``errors`` (field errors, 422) are the
    problem's; ``problem`` keeps the whole body (a stale command's 409 has the current
    ``version``, a 429 the ``limit``). A connection that could not be made, or that broke on a
    call that is not safe to repeat, is ``status`` 0 with the cause chained.
    """

    def __init__(self, problem: Problem, headers: dict[str, str] | None = None) -> None:
        self.problem = problem
        self.headers = headers or {}
        self.status: int = int(problem.get("status", 0))
        self.type: str = problem.get("type", "about:blank")
        self.title: str = problem.get("title", "")
        self.detail: str = problem.get("detail", "")
        self.errors: dict[str, Any] = problem.get("errors") or {}
        super().__init__(f"{self.status} {self.title}: {self.detail}".strip(": "))

    def __reduce__(self) -> Any:
        return (type(self), (self.problem, self.headers))
