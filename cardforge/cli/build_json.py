"""``cardforge build --json``: one object, as every command's ``--json`` (``ok``, problems)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.cli import problems_json

if TYPE_CHECKING:
    from cardforge.games.base import Game
    from cardforge.problems import Problem
    from cardforge.render.output import ManifestEntry


def build_json(games: list[Game], out_dir: Path, built: dict[str, list[ManifestEntry]],
               failures: list[tuple[str, list[Problem], str]]) -> dict[str, Any]:
    failed = {game_id: (problems, title) for game_id, problems, title in failures}
    rows = []
    for game in games:
        if game.id in failed:
            problems, title = failed[game.id]
            rows.append({"game": game.id, "ok": False, "error": title, "files": [],
                         "problems": problems_json(problems)})
        else:
            files = [{**asdict(e), "path": (Path(out_dir) / game.id / e.path).as_posix()}
                     for e in built.get(game.id, [])]
            rows.append({"game": game.id, "ok": True, "files": files, "problems": []})
    return {"ok": not failures, "games": rows}
