"""Paths named in a game's files, confined to the game's folder.

A data or template folder may come from anyone (``--data``, ``--templates``, a downloaded game
folder). Every path one of its files names — card files, art, fonts, icons, templates,
includes, a layout's ``src`` — goes through :func:`resolve_inside` before anything is opened:
it must be relative, and once ``..`` and symbolic links are resolved it must still lie inside
the folder it is relative to (or inside one of the other allowed roots, e.g. the shipped
templates). ``/etc/passwd``, ``../../secret.png``, ``C:\\x`` and a link to outside are refused
with a message naming the path and what it was for.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath, PureWindowsPath

from cardforge.errors import CardforgeError
from cardforge.problems import Problem, short_repr


class PathRefused(CardforgeError):
    """A path a game file names that points outside its folder (or is no path at all)."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(problem.message, [problem])


def _is_within(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def path_problem(base: Path | str, name: object, what: str, *, also: Iterable[Path | str] = (),
                 **where) -> tuple[Path | None, Problem | None]:
    """(the resolved path, None) or (None, a problem saying why ``name`` is refused).

    ``what`` names the path's use in the message ("card file", "art", "template");
    ``where`` (``file``, ``item``, ``field``, ``line``) locates the problem."""
    def refuse(why: str) -> tuple[None, Problem]:
        return None, Problem(f"{what} {short_repr(name) if not isinstance(name, str) else _q(name)}: "
                             f"{why}", **where)

    if not isinstance(name, str) or not name.strip():
        return refuse("must be a relative path (text)")
    if "\0" in name:
        return refuse("a path cannot hold a NUL character")
    if (PurePosixPath(name).is_absolute() or PureWindowsPath(name).is_absolute()
            or PureWindowsPath(name).drive or name.startswith(("~", "\\"))):
        return refuse(f"absolute paths are not allowed: give a path relative to {_folder_word(what)}")
    base = Path(base)
    try:
        root = base.resolve()
        resolved = (base / name).resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, a name too long…
        return refuse(f"cannot be resolved ({type(exc).__name__})")
    roots = [root]
    for extra in also:
        try:
            roots.append(Path(extra).resolve())
        except (OSError, RuntimeError, ValueError):
            continue
    if any(_is_within(resolved, r) for r in roots):
        return resolved, None
    lexical = os.path.normpath(os.path.join(str(base), name))
    if not _is_within(Path(lexical), base) and ".." in PurePosixPath(name.replace("\\", "/")).parts:
        return refuse(f"climbs out of {_folder_word(what)} (..): paths must stay inside it")
    return refuse(f"leads outside {_folder_word(what)} (through a symbolic link): "
                  "paths must stay inside it")


def resolve_inside(base: Path | str, name: object, what: str, *, also: Iterable[Path | str] = (),
                   **where) -> Path:
    """The resolved path of ``name`` under ``base``; :class:`PathRefused` if it is absolute,
    climbs out with ``..`` or leads out through a symbolic link (see :func:`path_problem`)."""
    path, problem = path_problem(base, name, what, also=also, **where)
    if problem is not None:
        raise PathRefused(problem)
    assert path is not None
    return path


def _q(name: str) -> str:
    return "'" + (name if len(name) <= 60 else name[:60] + "…") + "'"


def _folder_word(what: str) -> str:
    return "the template folder" if "template" in what or "layout" in what else "the game's folder"
