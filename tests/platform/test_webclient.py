"""The web client's files as the app serves them: the page at ``/``, modules a browser will run
(a module script needs a JavaScript type), every import resolvable, and nothing outside the folder."""

from __future__ import annotations

import re
from pathlib import Path

from httpclient import Client

WEB = Path(__file__).resolve().parents[2] / "service" / "web"


def test_the_page_loads_the_shell_under_a_same_origin_policy(live_url: str) -> None:
    reply = Client(live_url).get("/")
    assert reply.status == 200
    assert reply.headers["Content-Type"].startswith("text/html")
    assert '<script type="module" src="/web/app.js">' in str(reply.body)
    assert "default-src 'self'" in reply.headers["Content-Security-Policy"]
    assert reply.headers["Referrer-Policy"] == "no-referrer"


def test_every_module_is_served_as_javascript_and_every_import_exists(live_url: str) -> None:
    api = Client(live_url)
    modules = sorted(WEB.rglob("*.js"))
    assert {"app.js", "api.js", "game.js"} <= {m.name for m in modules}
    assert (WEB / "boards" / "kupferkessel.js").exists() and (WEB / "boards" / "skodakouzla.js").exists()
    for module in modules:
        path = module.relative_to(WEB).as_posix()
        reply = api.get(f"/web/{path}")
        assert reply.status == 200, path
        assert reply.headers["Content-Type"].startswith("text/javascript"), path
        for target in re.findall(r'^import .*? from "(\.{1,2}/[^"]+)";', module.read_text(), re.M):
            assert (module.parent / target).resolve().is_file(), f"{path} imports a missing {target}"


def test_nothing_outside_the_client_folder_is_served(live_url: str) -> None:
    api = Client(live_url)
    assert api.get("/web/../webclient.py").status == 404
    assert api.get("/web/%2e%2e/app.py").status == 404
    assert api.get("/web/no-such-module.js").status == 404
