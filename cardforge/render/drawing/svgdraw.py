"""SVGs drawn compactly and quickly: a game's ``icons/*.svg`` and SVG card art as replayable
drawing programs.

An SVG becomes a ReportLab drawing through svglib (``render/drawing/images.py``); drawing it with
ReportLab's ``renderPDF`` wraps every shape in ``q … Q`` and sets every property the shape has
(colours, width, cap, join, dash) whether or not it changed, which doubles an icon's form.
:func:`draw_compact` draws the same shapes with the same operators, setting a property only
when it differs from what was last set (``q … Q`` only around a transform, which must not
leak); the first shape of a form sets everything it uses, so a form never depends on the
state of the page that shows it.

Importing svglib and ReportLab's graphics package costs about half a second, more than
drawing a whole deck: :func:`svg_program` records the canvas calls of :func:`draw_compact` once
and keeps them in cardforge's cache (keyed by the file's bytes), and :func:`play` replays them
with the canvas alone. A drawing that uses more than paths, shapes and text (an embedded
image, a clip) is not recorded: it is drawn from the SVG each time.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge import cache
from cardforge.errors import ArtError
from cardforge.limits import env_name, limit
from cardforge.paths import read_regular
from cardforge.render.drawing.svg import _renderer_class, svg_drawing_at
from cardforge.render.fonts import FAMILIES, font_name

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfgen.canvas import Canvas

_IDENTITY = (1, 0, 0, 1, 0, 0)
#: properties set on the renderer or on the canvas's Python side only: applied every time
_ALWAYS = frozenset({"fillMode", "textAnchor"})
_MISSING = object()


def draw_compact(canvas: Any, drawing: Drawing) -> None:
    """Draw ``drawing`` at the origin (as ``renderPDF.draw(drawing, canvas, 0, 0)`` would)."""
    from reportlab.graphics import renderPDF

    _compact_renderer()().draw(renderPDF.renderScaledDrawing(drawing), canvas, 0, 0, showBoundary=False)


def _compact_renderer() -> type:
    from reportlab.graphics.renderbase import getStateDelta

    class CompactRenderer(_renderer_class(True)):  # type: ignore[misc]  # ReportLab's renderer (untyped), raster
        # images drawn as image XObjects (render/drawing/svg.py: an icon's form cannot hold an inline image)
        def __init__(self) -> None:
            super().__init__()
            self._set: list[dict[str, Any]] = [{}]  # what the canvas has, per q level

        def initState(self, x: float, y: float) -> None:
            """The drawing's defaults, for the tracker only: each shape sets what it uses."""
            deltas = self._tracker._combined[-1]
            deltas["transform"] = (*tuple(deltas["transform"])[:4], x, y)
            self._tracker.push(deltas)
            if (x, y) != (0, 0):
                self._canvas.translate(x, y)

        def drawNode(self, node: Any) -> None:
            deltas = getStateDelta(node)
            transform = tuple(deltas.pop("transform", _IDENTITY))
            nested = transform != _IDENTITY  # a transform must not leak: q … Q around it
            self._tracker.push({**deltas, "transform": transform} if nested else deltas)
            if nested:
                self._canvas.saveState()
                self._set.append(dict(self._set[-1]))
                self._canvas.transform(*transform)
            current = self._set[-1]
            changes = {}
            for key, value in deltas.items():
                if key in ("fillColor", "strokeColor"):  # None: the renderer's fill/stroke flag only
                    flag = value is not None
                    setattr(self, "_fill" if key == "fillColor" else "_stroke", int(flag))
                    if not flag:
                        continue
                if key in _ALWAYS or current.get(key, _MISSING) != value:
                    changes[key] = value
            if "fontName" in changes or "fontSize" in changes:  # set together
                changes["fontName"], changes["fontSize"] = deltas.get("fontName"), deltas.get("fontSize")
            self.applyStateChanges(changes, {})
            current.update(changes)
            self.drawNodeDispatcher(node)
            self._tracker.pop()
            if nested:
                self._set.pop()
                self._canvas.restoreState()

    return CompactRenderer


# --- recording and replaying -------------------------------------------------------------------

#: the canvas calls a recorded program may hold (anything else: the SVG is drawn, not replayed)
_CALLS = frozenset({"saveState", "restoreState", "transform", "translate", "scale", "rotate", "setFillColor",
                    "setStrokeColor", "setLineWidth", "setLineCap", "setLineJoin", "setMiterLimit", "setDash",
                    "setFillAlpha", "setStrokeAlpha", "circle", "ellipse", "rect", "roundRect", "line",
                    "drawString", "beginPath", "drawPath", "clipPath", "setFont"})
_PATH_CALLS = frozenset({"moveTo", "lineTo", "curveTo", "close", "rect", "roundRect", "circle", "ellipse", "arc",
                         "arcTo"})


class _NotRecordable(Exception):
    pass


class _PathRecorder:
    def __init__(self, real: Any) -> None:
        self.real = real
        self.ops: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        if name not in _PATH_CALLS:
            raise _NotRecordable(f"path.{name}")
        method = getattr(self.real, name)

        def call(*args: Any) -> Any:
            self.ops.append((name, args))
            return method(*args)
        return call


class _Recorder:
    """Stands in for the canvas while a drawing is drawn: every call goes to a scratch canvas
    (so what the renderer reads back is right) and is recorded."""

    def __init__(self, scratch: Any) -> None:
        self.__dict__["_c"] = scratch
        self.__dict__["ops"] = []

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "_fillMode":
            raise _NotRecordable(name)
        self.ops.append(("set", name, value))
        setattr(self._c, name, value)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._c, name)
        if not callable(value):
            return value
        if name not in _CALLS:
            raise _NotRecordable(name)

        def call(*args: Any, **kw: Any) -> Any:
            if name == "beginPath":
                return _PathRecorder(value())
            if name in ("drawPath", "clipPath"):
                path, *rest = args
                if not isinstance(path, _PathRecorder):
                    raise _NotRecordable(name)
                self.ops.append(("path", name, tuple(path.ops), tuple(rest), kw))
                return value(path.real, *rest, **kw)
            if name == "setFont":
                self.ops.append(("font", _bundled_face(args[0]), tuple(args[1:]), kw))
            else:
                self.ops.append(("call", name, args, kw))
            return value(*args, **kw)
        return call


def _bundled_face(name: str) -> tuple[str, bool, bool]:
    """(family, bold, italic) of a bundled font face, as ``render/fonts.py`` names it (the
    text of an SVG is always set in the bundled DejaVu Sans: ``render/drawing/images.py``)."""
    for family, faces in FAMILIES.items():
        if name in faces:
            index = faces.index(name)
            return family, bool(index % 2), index >= 2
    raise _NotRecordable(f"font {name}")


@dataclass(frozen=True)
class SvgProgram:
    """An SVG (an icon, or card art) ready to draw: its size (points) and the canvas calls that
    draw it (None: it cannot be replayed, draw it from the file)."""

    width: float
    height: float
    digest: str  # of the file's bytes
    ops: tuple[Any, ...] | None


def svg_program(path: Path, blob: bytes | None = None) -> SvgProgram:
    """The SVG at ``path`` (its bytes ``blob`` when already read) as a program, from
    cardforge's cache when this file was recorded before (no svglib then). ArtError when the
    SVG cannot be read."""
    blob = _read(Path(path)) if blob is None else blob
    return cache.memo("svg-program", [blob], cache.code_files(*_CODE), lambda: _record(Path(path), blob),
                      libraries=("reportlab", "svglib"), keep=2048,  # one a file: a game's art and icons
                      expect=SvgProgram)


def svg_programs(paths: list[Path]) -> list[SvgProgram]:
    """Several SVGs as programs (a game's icons), kept as one cache entry. ArtError when one
    of them cannot be read (:func:`svg_program` then says which)."""
    blobs = [_read(Path(p)) for p in paths]
    parts = [part for path, blob in zip(paths, blobs) for part in (Path(path).name, blob)]
    return cache.memo("svg-programs", parts, cache.code_files(*_CODE),
                      lambda: [_record(Path(p), b) for p, b in zip(paths, blobs)], libraries=("reportlab", "svglib"),
                      expect=list)


def _read(path: Path) -> bytes:
    """The file's bytes, as every SVG is read (a regular file, within ``svg_bytes``): ArtError
    naming why not."""
    blob, problem = read_regular(path, str(path), limit("svg_bytes"), env_name("svg_bytes"))
    if blob is None or problem is not None:
        raise ArtError(problem.message if problem is not None else "cannot read the file", broken=True)
    return blob


#: the modules a program's recording reads (tests/test_cache.py checks the list is whole)
_CODE = ("render/drawing/svgdraw.py", "render/drawing/images.py", "render/drawing/svg.py", "render/fonts.py",
         "render/rl_internals.py", "render/__init__.py", "render/drawing/__init__.py",
         "data/yamlio.py", "data/__init__.py", "*.py")


def _record(path: Path, blob: bytes) -> SvgProgram:
    from reportlab.pdfgen.canvas import Canvas

    drawing = svg_drawing_at(path)  # checked whole: ArtError when it cannot be read or drawn
    digest = hashlib.blake2b(blob, digest_size=16).hexdigest()
    recorder = _Recorder(Canvas(BytesIO()))  # a scratch canvas, never saved
    try:
        draw_compact(recorder, drawing)
        ops: tuple[Any, ...] | None = tuple(recorder.ops)
    except _NotRecordable:
        ops = None
    return SvgProgram(float(drawing.width), float(drawing.height), digest, ops)


def play(canvas: Canvas, program: SvgProgram, path: Path) -> None:
    """Draw the program at the origin (its own size); from the file when it has no calls."""
    if program.ops is None:
        draw_compact(canvas, svg_drawing_at(path))
        return

    for op in program.ops:
        kind = op[0]
        if kind == "call":
            getattr(canvas, op[1])(*op[2], **op[3])
        elif kind == "path":
            p = canvas.beginPath()
            for name, args in op[2]:
                getattr(p, name)(*args)
            getattr(canvas, op[1])(p, *op[3], **op[4])
        elif kind == "font":
            family, bold, italic = op[1]
            canvas.setFont(font_name(family, bold, italic), *op[2], **op[3])
        else:  # "set"
            setattr(canvas, op[1], op[2])
