"""`cardforge serve --root-path /PREFIX` behind a reverse proxy (``web/proxy.py``, docs/deploy.md)."""

from __future__ import annotations

import pytest

pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[test]')")

from starlette.testclient import TestClient  # noqa: E402

from cardforge.web.app import Settings, create_app  # noqa: E402
from cardforge.web.proxy import RootPath  # noqa: E402


def client(tmp_path) -> TestClient:
    app = RootPath(create_app(Settings(db_path=tmp_path / "plays.db", token="t0ken", local_only=False)), "/cf")
    return TestClient(app, base_url="https://plays.example.org", raise_server_exceptions=False)


@pytest.mark.parametrize("path", ["/cf/g/maphr/sheet", "/g/maphr/sheet"])  # the prefix kept or removed by the proxy
def test_pages_link_under_the_prefix(tmp_path, path):
    c = client(tmp_path)
    r = c.get(path + "?token=t0ken", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/cf/g/maphr/sheet"
    r = c.get(path)
    assert r.status_code == 200
    assert 'href="/cf/static/style.css"' in r.text and 'action="/cf/g/maphr/save"' in r.text
    assert 'data-live="/cf/g/maphr/score"' in r.text
    assert 'href="/static/' not in r.text and 'action="/g/' not in r.text
    assert int(r.headers["content-length"]) == len(r.content)
    assert c.get("/cf/static/sheet.js").status_code == 200


def test_a_typed_link_is_text_not_a_link(tmp_path):
    """What a user typed is escaped on the page: never rewritten as one of its links."""
    c = client(tmp_path)
    c.get("/cf/?token=t0ken")
    r = c.get('/cf/g/maphr/sheet?name= href="/x')
    assert r.status_code == 200 and "href=&#34;/x" in r.text and 'href="/cf/x' not in r.text


@pytest.mark.parametrize("bad", ["cardforge", "/cf/", "/c f", "/../x", "/cf/./x", "/" + "a" * 100])
def test_a_bad_root_path_is_a_usage_error(bad):
    from cardforge.web.proxy import root_path_problem

    assert "a path such as /cardforge" in root_path_problem(bad)


def test_serve_refuses_a_bad_root_path_before_listening(cli, monkeypatch):
    import cardforge.cli.serve as serve

    def never(*args):  # a good path would start the server: not in this test
        raise AssertionError("serve listened despite a bad --root-path")

    monkeypatch.setattr(serve, "_listen", never)
    r = cli("serve", "--root-path", "/../x")
    assert r.code == 2 and "Invalid value for '--root-path'" in r.err and "no . or .. part" in r.err
