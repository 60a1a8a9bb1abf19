"""``cardforge serve --root-path /PREFIX``: the server behind a reverse proxy, under a path.

The pages link with absolute paths (``/g/my-game/sheet``, ``/static/sheet.js``). Under a prefix,
:class:`RootPath` wraps the whole application: a request's path loses the prefix when the proxy
kept it (``proxy_pass http://127.0.0.1:8000;``) and is taken as it is when the proxy removed it
(``proxy_pass http://127.0.0.1:8000/;``); on the way out, the ``Location`` of a redirect and the
``href``, ``src``, ``action``, ``formaction`` and ``data-live`` attributes of an HTML page get the
prefix. Only those attributes are touched: text a user typed is escaped in the pages (a ``"``
is ``&#34;``), so it never reads as one of them.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

_PREFIX = re.compile(r"^(/[A-Za-z0-9._~-]+)+$")
_LINK = re.compile(rb'(\s(?:href|src|action|formaction|data-live)=")/(?!/)')


def root_path_problem(prefix: str) -> str | None:
    """What is wrong with a ``--root-path`` (None: nothing)."""
    if not _PREFIX.match(prefix) or len(prefix) > 100 or any(part.strip(".") == "" for part in prefix.split("/")[1:]):
        return f"a path such as /cardforge (letters, digits, . _ ~ -; no . or .. part, no trailing /), got {prefix!r}"
    return None


class RootPath:
    def __init__(self, app: ASGIApp, prefix: str) -> None:
        self.app = app
        self.prefix = prefix
        self.raw = prefix.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path: str = scope["path"]
        if path == self.prefix or path.startswith(self.prefix + "/"):
            path = path[len(self.prefix):] or "/"
        scope = {**scope, "path": path, "raw_path": path.encode(), "root_path": ""}
        start: Message | None = None
        html = False
        body = b""

        async def wrapped(message: Message) -> None:
            nonlocal start, html, body
            if message["type"] == "http.response.start":
                headers = []
                for key, value in message.get("headers", []):
                    if key.lower() == b"location" and value.startswith(b"/") and not value.startswith(b"//"):
                        value = self.raw + value
                    if key.lower() == b"content-type" and value.startswith(b"text/html"):
                        html = True
                    headers.append((key, value))
                start = {**message, "headers": headers}
                if not html:
                    await send(start)
                return
            if message["type"] == "http.response.body" and html:
                body += message.get("body", b"")
                if message.get("more_body"):
                    return
                assert start is not None
                rewritten = _LINK.sub(rb"\1" + self.raw.replace(b"\\", b"\\\\") + rb"/", body)
                headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(rewritten)).encode()))
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": rewritten, "more_body": False})
                return
            await send(message)

        await self.app(scope, receive, wrapped)
