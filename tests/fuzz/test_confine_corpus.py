"""The regression corpus of issue 31, part 1 (tests/fuzz/corpus/confine.yaml): game folders and
command lines that once wrote or read outside what the user named. Each command runs in its
own process, with a timeout (a case that used to block fails on it); after a case, nothing
outside the output folders, the game's folder and the cache changed."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

pytestmark = pytest.mark.slow  # each case runs cardforge in fresh processes, ~1–2.5 s a case

CORPUS = Path(__file__).parent / "corpus" / "confine.yaml"
TIMEOUT = 90
GENERATED = {
    "GENERATED_LONG_ID": "a" * 307,
    "GENERATED_LONG_PROFILE": "pod_profiles/" + "p" * 70 + ".yaml",
    "GENERATED_LONG_REVISION": "r" * 100_000,
}


def cases() -> list[dict]:
    return yaml.safe_load(CORPUS.read_text(encoding="utf-8"))


def fill(text: str, where: dict[str, Path]) -> str:
    for key, value in GENERATED.items():
        text = text.replace(key, value)
    for key in ("TMP", "WORK", "OUT", "GAMEDIR"):
        if text.startswith(key):
            return str(where[key]) + text[len(key):]
    return text.replace("TMP/", str(where["TMP"]) + "/")


def place(path: str, where: dict[str, Path]) -> Path:
    filled = fill(path, where)
    return Path(filled) if os.path.isabs(filled) else where["GAMEDIR"] / filled


def state(root: Path, skip: list[Path]) -> dict[str, str]:
    """Every entry below ``root`` but ``skip``: path → what it is (a file's sha256)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if not any(here / d == s or (here / d).is_relative_to(s) for s in skip)]
        for name in filenames + [d for d in dirnames]:
            path = here / name
            if any(path == s or path.is_relative_to(s) for s in skip):
                continue
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode):
                out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
            elif stat.S_ISLNK(st.st_mode):
                out[str(path)] = "-> " + os.readlink(path)
            else:
                out[str(path)] = oct(stat.S_IFMT(st.st_mode))
    return out


def apply(edit: dict, where: dict[str, Path]) -> None:
    if "replace" in edit:
        path = place(edit["file"], where)
        old, new = (fill(x, where) for x in edit["replace"])
        text = path.read_text(encoding="utf-8")
        assert old in text, (path, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    elif "write" in edit:
        path = place(edit["file"], where)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(fill(edit["write"], where), encoding="utf-8")
    elif "symlink" in edit:
        link = place(edit["symlink"], where)
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(fill(edit["to"], where))
    elif "fifo" in edit:
        os.mkfifo(place(edit["fifo"], where))
    elif "device" in edit:
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(place(edit["device"], where), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    elif "copy" in edit:
        target = place(edit["to"], where)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / edit["copy"], target)
    elif "move" in edit:
        target = place(edit["to"], where)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(place(edit["move"], where), target)
    elif "mkdir" in edit:
        place(edit["mkdir"], where).mkdir(parents=True, exist_ok=True)
    elif "remove" in edit:
        place(edit["remove"], where).unlink()
    elif "git" in edit:
        if shutil.which("git") is None:
            pytest.skip("git is not installed")
        subprocess.run(["git", "-C", str(where["GAMEDIR"]), "init", "-q"], check=True)
    else:
        raise AssertionError(f"unknown edit {edit}")


@pytest.mark.parametrize("case", cases(), ids=lambda c: c["name"][:60])
def test_confine_corpus(case, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    cache = tmp_path / "cache"
    base = case.get("base", "new")
    if base == "new":
        game_dir, game, prefix = work / "g", str(work / "g"), []
        env = _env(cache)
        subprocess.run([sys.executable, "-m", "cardforge", "new", str(game_dir), "--lang", "fr"], cwd=work, env=env,
                       capture_output=True, check=True, timeout=TIMEOUT)
    else:
        game_dir, game, prefix = work / "data" / base, base, ["--data", str(work / "data")]
        shutil.copytree(ROOT / "card_data" / base, game_dir)
    where = {"TMP": tmp_path, "WORK": work, "OUT": work / "out", "GAMEDIR": game_dir}
    for decoy in (tmp_path / "victim", work / "victim"):  # what an escape would replace
        decoy.mkdir()
        for name in ("deck.pdf", "escaped-kind.pdf", "escaped-back.png"):
            (decoy / name).write_text("DECOY", encoding="utf-8")
    for edit in case.get("edits", []):
        apply(edit, where)
    skip = [work / "out", game_dir, cache]
    before = state(tmp_path, skip)
    for run in case["runs"]:
        args = [game if a == "GAME" else fill(a, where) for a in run["command"]]
        try:
            r = subprocess.run([sys.executable, "-m", "cardforge", *prefix, *args], cwd=work,
                               env=_env(cache, **run.get("env", {})), capture_output=True, text=True,
                               timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{args[0]}: no answer after {TIMEOUT} s")
        said = r.stderr + r.stdout
        assert r.returncode == run["code"], said[-3000:]
        assert "internal error" not in said and "Traceback" not in said, said[-3000:]
        if "expect" in run:
            assert fill(run["expect"], where) in said, said[-3000:]
        if "absent" in run:
            assert run["absent"] not in said
        for path in run.get("exists", []):
            assert os.path.lexists(place(path, where)), path
        for path in run.get("missing", []):
            assert not os.path.lexists(place(path, where)), path
    after = state(tmp_path, skip)
    assert after == before  # nothing outside the named folders was made, changed or removed
    leftovers = [p for p in (work / "out").rglob("*") if ".staging-" in p.name or p.name.endswith(".part")] \
        if (work / "out").is_dir() else []
    assert leftovers == []


def _env(cache: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDFORGE_")}
    env["CARDFORGE_CONFIG"] = os.environ["CARDFORGE_CONFIG"]  # the suite's cache key, never the user's
    env["CARDFORGE_CACHE"] = str(cache)
    env.update(extra)
    return env
