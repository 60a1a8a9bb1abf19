"""The studio's web app (Starlette): the cards page, the images, the changes as server-sent
events, a card's details, opening a file in the editor and the visual diff.

Who may connect is decided by ``cardforge serve``'s own :class:`cardforge.web.app.Guard` (the
access token with ``--host``, the Host check on 127.0.0.1, same-origin posts); images are named
by their content's hash, so they alone may be kept by the browser.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from cardforge.errors import CardforgeError
from cardforge.studio.session import Studio, problem_json
from cardforge.web.app import Guard
from cardforge.web.app import Settings as ServeSettings

HERE = Path(__file__).parent
KEEPALIVE_SECONDS = 15.0  # a comment line on an idle event stream (proxies, sleeping laptops)
WAIT_STEP = 1.0  # how often an idle stream looks whether its page went away
MAX_OPEN_BODY = 4096
IMMUTABLE = b"public, max-age=31536000, immutable"
#: ms of quiet that end a batch of file changes (``watch`` waits 20: the studio shows a half-saved
#: file's problem for a moment rather than wait, and the next good save splices against the last
#: good reading, data/incremental.py)
STEP_MS = 5


@dataclass
class StudioSettings:
    token: str | None = None  # required from every client when set (--host other than 127.0.0.1)
    local_only: bool = True
    #: the command that opens a file at a line (``--editor``); None: the page offers no "open"
    editor: list[str] | None = None
    printed: Path | None = None  # a build record (cards.json) for the visual diff
    #: how the editor is started (tests replace it)
    launch: Callable[[list[str]], Any] = field(default=lambda argv: subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True))


def editor_command(asked: str | None = None) -> list[str] | None:
    """The editor: ``asked``, else ``$VISUAL``, ``$EDITOR``, else VS Code if installed; as an
    argument list (never run through a shell)."""
    for value in (asked, os.environ.get("VISUAL"), os.environ.get("EDITOR")):
        if value and value.strip():
            return shlex.split(value)
    code = shutil.which("code")
    return [code] if code else None


def open_argv(editor: list[str], file: Path, line: int) -> list[str]:
    """``code -g file:line`` for VS Code and its kin, ``$EDITOR +line file`` for the others."""
    name = Path(editor[0]).name.lower().removesuffix(".exe").removesuffix(".cmd")
    if name in ("code", "code-insiders", "codium", "vscodium", "cursor", "windsurf"):
        return [*editor, "-g", f"{file}:{max(line, 1)}"]
    return [*editor, f"+{max(line, 1)}", str(file)]


def _env() -> Environment:
    return Environment(loader=FileSystemLoader(str(HERE / "templates")),
                       autoescape=select_autoescape(default=True, default_for_string=True),
                       trim_blocks=True, lstrip_blocks=True)


TEMPLATES = _env()


class StudioGuard(Guard):
    """``serve``'s guard; content-addressed images may be cached (its ``no-store`` is dropped)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith("/img/"):
            async def cacheable(message: Message) -> None:
                if message["type"] == "http.response.start":
                    headers = [(k, v) for k, v in message.get("headers", [])
                               if not (k.lower() == b"cache-control" and v != IMMUTABLE)]
                    message = {**message, "headers": headers}
                await send(message)

            return await super().__call__(scope, receive, cacheable)
        return await super().__call__(scope, receive, send)


def create_app(studio: Studio, settings: StudioSettings) -> StudioGuard:
    """The studio's app over ``studio`` (refreshed by whoever watches the files)."""
    pages = _Pages(studio, settings)
    routes = [
        Route("/", pages.page),
        Route("/kind/{kind}", pages.page),
        Route("/state", pages.state),
        Route("/events", pages.events),
        Route("/img/{digest:str}.png", pages.image),
        Route("/face/{name:path}", pages.face),
        Route("/open", pages.open_file, methods=["POST"]),
        Route("/diff", pages.diff),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes)
    return StudioGuard(app, ServeSettings(db_path=Path(os.devnull), token=settings.token,
                                          local_only=settings.local_only))


class _Pages:
    """The studio's routes, over one ``studio`` and its ``settings``."""

    def __init__(self, studio: Studio, settings: StudioSettings) -> None:
        self.studio = studio
        self.settings = settings

    def page(self, request: Request) -> HTMLResponse:
        studio, settings = self.studio, self.settings
        kind = request.path_params.get("kind", "")
        state = studio.snapshot()
        if kind and kind not in state["kinds"]:
            return _error(404, f"no kind '{kind[:80]}' in {studio.game.id}; kinds: {', '.join(state['kinds'])}")
        html = TEMPLATES.get_template("studio.html").render(
            state=state, kind=kind, editor=settings.editor is not None, printed=settings.printed is not None,
            state_json=json.dumps({"version": state["version"], "editor": settings.editor is not None},
                                  ensure_ascii=False))
        return HTMLResponse(html)

    def state(self, request: Request) -> JSONResponse:
        return JSONResponse(self.studio.snapshot())

    def image(self, request: Request) -> Response:
        png = self.studio.image(request.path_params["digest"])
        if png is None:
            return _error(404, "no such image (it was redrawn since): reload the page")
        return Response(png, media_type="image/png", headers={"cache-control": IMMUTABLE.decode()})

    def face(self, request: Request) -> JSONResponse:
        details = self.studio.details(request.path_params["name"])
        if details is None:
            return JSONResponse({"error": f"no face '{request.path_params['name'][:80]}'"}, status_code=404)
        details["editor"] = self.settings.editor is not None
        return JSONResponse(details)

    async def events(self, request: Request) -> Response:
        try:
            since = int(request.query_params.get("v", "-1"))
            until = int(request.query_params.get("until", "0"))
        except ValueError:
            return _error(400, "v and until are version numbers")
        if since < 0:
            since = self.studio.version
        return StreamingResponse(_stream(self.studio, request, since, until), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    async def open_file(self, request: Request) -> JSONResponse:
        studio, settings = self.studio, self.settings
        if settings.editor is None:
            return JSONResponse({"error": "the studio was started without --editor"}, status_code=403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send JSON: {\"file\": …, \"line\": …}"}, status_code=415)
        body = await request.body()
        if len(body) > MAX_OPEN_BODY:
            return JSONResponse({"error": "too large"}, status_code=413)
        try:
            asked = json.loads(body)
            file, line = str(asked["file"]), int(asked.get("line") or 1)
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": "send JSON: {\"file\": …, \"line\": …}"}, status_code=400)
        path = studio.may_open(file)
        if path is None:
            return JSONResponse({"error": f"{file[:200]}: not a file of {studio.game.id}'s folders"}, status_code=403)
        argv = open_argv(settings.editor, path, line)
        try:
            settings.launch(argv)
        except OSError as exc:
            return JSONResponse({"error": f"cannot start {argv[0]}: {exc.strerror or exc}"}, status_code=500)
        return JSONResponse({"opened": f"{path}:{line}"})

    def diff(self, request: Request) -> HTMLResponse:
        studio, settings = self.studio, self.settings
        if settings.printed is None:
            return _error(404, "no printed version: start the studio with --printed output/<game>/cards.json")
        try:
            result = studio.diff(settings.printed)
            problems: list[dict[str, Any]] = []
        except CardforgeError as exc:
            result = {"record": str(settings.printed), "cards": [], "take_out": []}
            problems = [problem_json(p) for p in exc.problems] or [{"text": exc.title, "where": ""}]
        html = TEMPLATES.get_template("diff.html").render(game=studio.game.id, result=result, problems=problems)
        return HTMLResponse(html)


async def _stream(studio: Studio, request: Request, since: int, until: int) -> AsyncIterator[str]:
    """The studio's changes after version ``since`` as server-sent events, until the page goes
    away (or version ``until``, when not 0)."""
    seen = since
    idle = 0.0
    yield "retry: 1000\n\n"
    while True:
        if await request.is_disconnected():
            return
        now = await anyio.to_thread.run_sync(studio.wait, seen, WAIT_STEP)
        if now == seen:
            idle += WAIT_STEP
            if idle >= KEEPALIVE_SECONDS:
                idle = 0.0
                yield ": still here\n\n"
            continue
        idle = 0.0
        now, names = studio.changes_since(seen)
        if names is None:
            payload: dict[str, Any] = {"version": now, "reload": True}
        else:
            payload = {"version": now, "faces": studio.faces_json(names),
                       "problems": studio.problems()}
        last = studio.last()
        if last is not None:  # how long the server took (bench/studio.py reads it)
            payload["redraw"] = {"seconds": round(last.seconds, 4), "cpu": round(last.cpu, 4)}
        seen = now
        yield f"id: {now}\ndata: {json.dumps(payload, ensure_ascii=False)}\n\n"
        if until and seen >= until:
            return


def _error(status: int, message: str) -> HTMLResponse:
    html = TEMPLATES.get_template("error.html").render(status=status, message=message)
    return HTMLResponse(html, status_code=status)


class Watcher:
    """Refreshes a studio whenever its folders change (``watchfiles``, as ``cardforge watch``),
    in a thread, until :meth:`stop`."""

    def __init__(self, studio: Studio, polling: bool | None = None) -> None:
        self.studio = studio
        self.polling = polling
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, name="studio-watcher", daemon=True)
        self.ready = threading.Event()  # set once the OS watcher listens

    def start(self) -> Watcher:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(10)

    def _run(self) -> None:
        from cardforge.watch import file_events, identity, must_poll

        folders = self.studio.folders
        polling = must_poll(folders) if self.polling is None else self.polling
        while not self.stop_event.is_set():
            before = [identity(f) for f in folders]
            events = file_events(folders, polling=polling, stop=self.stop_event, ticks=True, step=STEP_MS)
            for batch in events:
                self.ready.set()
                if batch:
                    self.studio.refresh(batch)
                elif [identity(f) for f in folders] != before:
                    # a folder replaced by a copy (git checkout, an editor's save, a sync tool): the
                    # OS watcher saw none of its files; drawn again and the new folder watched
                    self.studio.refresh()
                    break
                else:  # a tick without changes: the data cache's entry is written now, not on each save
                    self.studio.idle()
            else:
                self.ready.set()  # the folders are not there (yet): look again
                self.stop_event.wait(0.3)
