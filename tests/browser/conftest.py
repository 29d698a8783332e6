"""The browser tests' harness: a real ``kotlik web`` and a real worker on the test database, and
Debian's Chromium driven by Playwright (launched by path: ``playwright install`` cannot download).

Without ``/usr/bin/chromium`` (or ``KOTLIK_CHROMIUM``) the tests skip and say why, unless
``KOTLIK_REQUIRE_BROWSER=1`` (CI, which installs it) makes that a failure. Screenshots go to
``KOTLIK_SCREENSHOTS`` or a temporary folder; the run's summary prints where.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "platform"))

from httpclient import Client  # noqa: E402
from processes import environment, kotlik_web  # noqa: E402

_SHOTS: list[Path] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _SHOTS:
        terminalreporter.write_line(f"browser screenshots: {_SHOTS[0]}")


@dataclass
class Web:
    """The running client: its address, the API on it, and gunicorn's log (access log on)."""

    url: str
    api: Client
    log: Path


@pytest.fixture(scope="session")
def chromium() -> str:
    path = os.environ.get("KOTLIK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        reason = "no Chromium at /usr/bin/chromium (apt-get install -y chromium): browser tests cannot run"
        if os.environ.get("KOTLIK_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + " and KOTLIK_REQUIRE_BROWSER=1")
        pytest.skip(reason)
    try:
        import playwright  # noqa: F401
    except ImportError:
        pytest.fail("the browser tests need Playwright: pip install -e '.[dev]'")
    return path


@pytest.fixture(scope="session")
def web(
    chromium: str, broker: dict[str, str], worker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Web]:
    """``kotlik web`` with the access log on, so a test can check no token reaches it."""
    log = tmp_path_factory.mktemp("browser-web") / "web.log"
    with kotlik_web(environment(**broker, KOTLIK_ACCESS_LOG="1"), log) as api:
        yield Web(url=api.base, api=api, log=log)


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each board's picture goes (``KOTLIK_SCREENSHOTS`` or a temporary folder)."""
    folder = Path(os.environ.get("KOTLIK_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    _SHOTS.append(folder)
    print(f"\nbrowser screenshots: {folder}")
    return folder


def no_final_question(context: Any) -> None:
    """Turn off, in ``context``, the question before a move no undo can take back, as a player may:
    Playwright dismisses every ``confirm``, so the move would not be sent."""
    # (about:blank, where a test may go first, has no storage to write)
    context.add_init_script("try { localStorage.setItem('kotlik.askFinal', 'no'); } catch (e) {}")


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """``new_page(width=1200, height=900, color_scheme="light", ask_final=False)``: a page in a
    context of its own (its own storage, so its own seat tokens; ``color_scheme="dark"`` for the dark
    mode); any script error on it (a board that threw included) fails the test. The question before
    a move no undo can take back is off (as a player may set it: Playwright would dismiss it, and
    the move would not be sent) unless ``ask_final``, for the tests of that question."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(
        width: int = 1200, height: int = 900, color_scheme: str = "light", ask_final: bool = False
    ) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=color_scheme)
        context.set_default_timeout(15_000)
        if not ask_final:
            no_final_question(context)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: _console(m, errors))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the page: {errors}"


def _console(message: Any, errors: list[str]) -> None:
    """A board's exception is logged by the shell (which falls back to a plain view): a failure."""
    if message.type == "error" and "Failed to load resource" not in message.text:
        errors.append(message.text)
