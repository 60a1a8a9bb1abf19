"""Fuzz cardforge's command line with mutated score files, deal files, data and template folders,
and (issue 31) spreadsheets, SVGs, fonts, print-on-demand profiles, export-data and diff.

    python bench/fuzz.py --score 10000 --setup 2000 --data 1000 --templates 200 [--seed 1]
    python bench/fuzz.py --only --sheets 10000          # one surface (the others: 0)
    python bench/fuzz.py --only --svg 10000 --fonts 10000 --pod 10000 --export-data 10000 --diff 10000

``--score N`` and ``--setup N`` are per game; the other counts are in all (``--data`` and
``--templates`` spread over the games). Every input runs through ``cardforge.cli.main`` in a
worker process (imports paid once) under ``RLIMIT_AS`` (``--memory-mb``, 3 GB) with a 60 s alarm;
the parent kills a worker stuck in one input for 120 s (a hang in C code) and restarts it. An
outcome is *clean* when the exit code is 0, or 1/2 with a message and no "internal error" or
traceback; the surfaces of issue 31 (``bench/fuzz_surfaces.py``) also fail an input when a
``check`` that passed is followed by a build that fails, when export-data's files do not load
back to the same cards or hold a live formula, or when a file outside the input's folder, the
cache and Python's own folders was opened, listed or changed (``sys.addaudithook`` on ``open``
and the ``os``/``shutil`` events; a decoy folder that some inputs link to is also watched for
changes). Printed at the end: per kind and game the runs, successes, clean errors, crashes,
runs over 10 s, inputs that took the worker's memory over 500 MB and accesses outside. Failing
inputs are kept in ``output/fuzz/`` (``--keep``).

The mutators (``bench/mutations.py``'s, :func:`make_data_folder`,
:func:`make_template_folder`) are also used by ``tests/fuzz/`` with hypothesis, briefly.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("maphr", "tunhell", "cristaux", "mine_all_mine", "imperial_miners")
SLOW_S = 10.0
BIG_MB = 500.0
HANG_S = 120.0
MEMORY_MB = [3072]  # the workers' address space (RLIMIT_AS), --memory-mb



def _allow_long_ints() -> None:
    """The campaign writes 5,000-digit numbers on purpose (its own process only)."""
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)


# --- seeds --------------------------------------------------------------------------------------

def score_seeds(game: str) -> list[Any]:
    """Final states of the game's scoring vectors (card_data/GAME/tests/scoring_vectors.yaml)."""
    folder = ROOT / "card_data" / game / "tests"
    seeds = []
    for name in ("scoring_vectors.yaml",):
        path = folder / name
        if path.exists():
            for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
                if isinstance(case, dict) and isinstance(case.get("state"), dict):
                    seeds.append(case["state"])
    return seeds


def setup_seeds(game: str) -> list[Any]:
    """Deals made by ``cardforge setup GAME --players N --json`` for every count and mode, whole
    and their ``deal`` part."""
    from cardforge.games import find_game

    g = find_game(game)
    seeds = []
    for mode in (g.modes or [None])[:3]:
        for n in range(g.min_players, g.max_players + 1):
            code, out, _ = run_cli(["setup", game, "--players", str(n), "--json", "--seed", "7"]
                                   + (["--mode", mode] if mode else []))
            if code == 0:
                result = json.loads(out)
                seeds += [result, result.get("deal", result)]
    return seeds


# --- mutations (bench/mutations.py) ----------------------------------------------------------------

if str(Path(__file__).resolve().parent) not in sys.path:  # loaded by path (tests/fuzz/): bench/ importable
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutations import make_file, mutate_text  # noqa: E402  (tests/fuzz/ use fuzz.make_file too)


def make_data_folder(rng: random.Random, game: str, target: Path) -> str:
    """Copy the game's shipped data to ``target/<game>/`` and break it; returns what was done."""
    folder = target / game
    shutil.copytree(ROOT / "card_data" / game, folder)
    files = sorted(p.name for p in folder.glob("*.yaml"))
    op = rng.randrange(10)
    deck = folder / "deck.yaml"
    if op == 0:  # a path that leads out
        evil = rng.choice(["/etc/passwd", "/proc/self/environ", "../../outside.yaml", "/dev/zero",
                           "link.yaml", "fifo.yaml", "zero.yaml", "sub/../../x.yaml"])
        (target / "outside.yaml").write_text("- {id: outside, kind: x, name: OUTSIDE, provenance: rulebook}\n",
                                             encoding="utf-8")
        if evil == "link.yaml":
            (folder / "link.yaml").symlink_to(target / "outside.yaml")
        elif evil == "zero.yaml":
            (folder / "zero.yaml").symlink_to("/dev/zero")
        elif evil == "fifo.yaml" and hasattr(os, "mkfifo"):
            os.mkfifo(folder / "fifo.yaml")
        meta = yaml.safe_load(deck.read_text(encoding="utf-8"))
        meta["card_files"] = list(meta["card_files"]) + [evil]
        deck.write_text(yaml.safe_dump(meta, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return f"card_files + {evil}"
    if op == 1:  # art that leads out
        name = rng.choice([f for f in files if f != "deck.yaml"] or ["deck.yaml"])
        raw = yaml.safe_load((folder / name).read_text(encoding="utf-8"))
        cards = raw.get("cards") if isinstance(raw, dict) else raw
        evil = rng.choice(["/etc/passwd", "../../x.png", "/dev/zero", "/proc/self/environ"])
        if isinstance(cards, list) and cards and isinstance(cards[0], dict):
            cards[0]["art"] = evil
        (folder / name).write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return f"{name}: art {evil}"
    if op == 2:  # copies
        name = rng.choice([f for f in files if f != "deck.yaml"] or ["deck.yaml"])
        text = (folder / name).read_text(encoding="utf-8")
        n = rng.choice(["1000000000", "1000000", "-1", "0", "1e9", "10000", "99999999999999999999999"])
        if "copies:" in text:
            text = text.replace("copies: ", f"copies: {n} #", 1)
        else:
            text = text.replace("  - id:", f"  - copies: {n}\n    id:", 1)
        (folder / name).write_text(text, encoding="utf-8")
        return f"{name}: copies {n}"
    if op == 3:  # deck.yaml emptied, or every card file emptied
        if rng.random() < 0.5:
            deck.write_text(rng.choice(["", "# nothing\n", "~\n", "[]\n", "{}\n"]), encoding="utf-8")
            return "empty deck.yaml"
        for name in files:
            if name != "deck.yaml" and name not in ("boards.yaml", "aids.yaml"):
                (folder / name).write_text("[]\n", encoding="utf-8")
        return "no cards"
    if op == 4:  # a back colour
        text = deck.read_text(encoding="utf-8")
        bad = rng.choice(["'#zzzzzz'", "'#12'", "rouge", "''", "12", "[1, 2]"])
        if "colour:" in text:
            text = text.replace("colour: ", f"colour: {bad} #", 1)
        else:
            text += f"\nbacks:\n  default: {{colour: {bad}}}\n"
        deck.write_text(text, encoding="utf-8")
        return f"back colour {bad}"
    name = rng.choice(files)
    path = folder / name
    try:
        value = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        value = None
    out = make_file(rng, value) if value is not None else mutate_text(rng, path.read_text(encoding="utf-8"))
    if isinstance(out, bytes):
        path.write_bytes(out)
    else:
        path.write_text(out, encoding="utf-8", errors="surrogatepass")
    return f"{name}: mutated"


TEMPLATE_SNIPPETS = [
    "{% for i in range(10**9) %}x{% endfor %}", "{{ 10.0**400 }}", "{{ 10**100000 }}", "{{ 'a'*10**9 }}",
    "{{ lipsum(100000) }}", "{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}",
    "{% macro f(n) %}{{ f(n+1) }}{% endmacro %}{{ f(1) }}", "{{ 'x'|center(10**9) }}", "{{ '%0999999999d' % 1 }}",
    "{{ '{:>999999999}'.format(1) }}", "{% set ns = namespace(x='a') %}{% for i in range(60) %}"
    "{% set ns.x = ns.x ~ ns.x %}{% endfor %}{{ ns.x }}", "{{ range(10000)|join('x'*100000) }}",
    "{{ card.__class__.__mro__ }}", "{{ ''.__class__.__subclasses__() }}", "{{ cycler.__init__.__globals__ }}",
    "{{ '{0.__class__}'.format(card) }}", "{{ card.name[10**9] }}", "{{ 1/0 }}", "{{ nope }}",
    "{% include '/etc/passwd' %}", "{% include '../../../../etc/passwd' %}", "{% include 'self.j2' %}",
    "{% extends 'self.j2' %}", "{{ card.model_dump() }}", "{{ (card.name * 1000) * 1000 }}",
    "{% for x in card %}{% endfor %}", "{{ range(10**9)|list }}", "{{ [1]|batch(10**9)|list }}",
    "{{ 'a'|wordwrap(1) * 10**8 }}", "{{ card.name|truncate(10**18) }}", "{{ '%s' % ('x'*10**8) }}",
    "{{ 2**64**64 }}", "{{ ((2**62)*(2**62))**100 }}", "{{ card.name|indent(10**9) }}", "{% raw %}",
    "{{", "{% for %}", "{{ 7*'7' }}", "**gras", "<color=#zzzzzz>x</color>", ":nope:", "\\", "{{ '\x00' }}",
]


def make_template_folder(rng: random.Random, game: str, target: Path) -> str:
    """Copy the shipped templates of ``game`` (its folder's ``templates/``, and ``_shared``) to
    ``target`` as a ``--templates`` folder and plant hostile template code in a box or a ``*.j2``
    file (or a symlink out); returns what was done."""
    for name, source in ((game, ROOT / "card_data" / game / "templates"), ("_shared", ROOT / "templates" / "_shared")):
        if source.is_dir():
            shutil.copytree(source, target / name)
    folder = target / game
    folder.mkdir(exist_ok=True)
    (folder / "self.j2").write_text("{% include 'self.j2' %}", encoding="utf-8")
    snippet = rng.choice(TEMPLATE_SNIPPETS)
    j2 = sorted(folder.glob("*.j2"))
    op = rng.randrange(4)
    if op == 0 and len(j2) > 1:
        victim = rng.choice([p for p in j2 if p.name != "self.j2"])
        if rng.random() < 0.3:
            victim.unlink()
            victim.symlink_to(rng.choice(["/etc/passwd", "/proc/self/environ", str(ROOT / "README.md")]))
            return f"{victim.name} → symlink out"
        victim.write_text(victim.read_text(encoding="utf-8") + "\n" + snippet, encoding="utf-8")
        return f"{victim.name} += {snippet}"
    layout_path = folder / "layout.yaml"
    if not layout_path.exists():
        layout_path = target / "_shared" / "layout.yaml"
    doc = yaml.safe_load(layout_path.read_text(encoding="utf-8")) or {}
    boxes = [(lname, bname, box) for lname, layout in (doc.get("layouts") or {}).items()
             for bname, box in ((layout or {}).get("boxes") or {}).items() if isinstance(box, dict)]
    if not boxes:
        return "no boxes"
    lname, bname, box = rng.choice(boxes)
    if op == 1 and box.get("type") == "text" or "text" in box:
        box["text"] = snippet
        box.pop("template", None)
    elif op == 2:
        box["when"] = rng.choice(["10**10**10", "card.name * 10**9", "range(10**9)|list", "nope", "card.__class__",
                                  "(2**64)**(2**64)"])
    else:
        box[rng.choice(["fill", "stroke", "text", "src", "icon"])] = snippet
    layout_path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return f"{layout_path.parent.name}/layout.yaml {lname}.{bname} ← {snippet}"


# --- running ----------------------------------------------------------------------------------------

def run_cli(args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    """``cardforge ARGS`` in this process: (exit code, stdout, stderr)."""
    from cardforge.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exc:  # not expected: main() returns codes
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def verdict(code: int, err: str, out: str = "") -> str | None:
    """None for a clean outcome, else why not. A failure says why on stderr, or (``--json``) as
    a JSON object ``{"ok": false, "problems": […]}`` on stdout."""
    if "internal error" in err or "Traceback" in err:
        return "crash: " + err.strip().splitlines()[-1][:300] if err.strip() else "crash"
    if code == 0:
        return None
    if code in (1, 2):
        return None if err.strip() or _json_failure(out) else f"exit {code} without a message"
    return f"exit code {code}"


def _json_failure(out: str) -> bool:
    import json

    try:
        value = json.loads(out)
    except ValueError:
        return False
    return isinstance(value, dict) and value.get("ok") is False and bool(value.get("problems") or value.get("error"))


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def one_input(kind: str, game: str, index: int, seed: int, work: Path, seeds: dict) -> dict:
    """Make input ``index`` of ``kind`` for ``game`` and run it; a result record."""
    rng = random.Random(f"{seed}:{kind}:{game}:{index}")
    case = work / f"{kind}-{game}-{index}"
    case.mkdir(parents=True)
    what = ""
    stdin = None
    record: dict = {}
    try:
        if kind in SURFACE_KINDS:
            record = surface_input(kind, index, seed, case, seeds, rng)
            return record
        if kind in ("score", "setup"):
            pool = seeds[(kind, game)]
            content = make_file(rng, rng.choice(pool)) if pool else mutate_text(rng, "players: []\n")
            path = case / ("final.yaml" if kind == "score" else "deal.yaml")
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8", errors="surrogatepass")
            if kind == "score":
                if rng.random() < 0.05:
                    stdin, args = path.read_bytes(), ["score", game, "-"]
                else:
                    args = ["score", game, path] + (["--json"] if rng.random() < 0.3 else [])
            else:
                args = ["setup", game, "--check", path]
            what = args[0]
        elif kind == "data":
            what = make_data_folder(rng, game, case / "data")
            args = ["--data", case / "data", "check", game]
        else:
            what = make_template_folder(rng, game, case / "templates")
            args = ["build", game, "--only", "decks", "--templates", case / "templates", "--out", case / "out"]
        rss_before = max_rss_mb()  # after the input was made: only cardforge's run counts
        start = time.perf_counter()
        signal.alarm(60)
        try:
            code, out, err = run_cli(args, stdin)
            if kind == "data" and code == 0 and rng.random() < 0.1:  # a green check: the build works
                code, out, err = run_cli(["--data", case / "data", "build", game, "--only", "decks",
                                          "--out", case / "out"])
                what += " (+ build)"
                if code != 0:
                    err = "internal error: check passed but build failed: " + err
        except _Timeout:
            code, out, err = -1, "", "internal error: still running after 60 s"
        finally:
            signal.alarm(0)
        seconds = time.perf_counter() - start
        bad = verdict(code, err, out)
        record = {"kind": kind, "game": game, "index": index, "code": code, "seconds": round(seconds, 3),
                  "bad": bad, "what": what[:200], "err": err[-400:] if bad else "", "rss_before": rss_before}
        return record
    finally:
        if record_keep.get("keep") and record and (record["bad"] or (record["seconds"] or 0) > SLOW_S
                                                   or record.get("outside")):
            keep_case(case)
        shutil.rmtree(case, ignore_errors=True)


def keep_case(case: Path) -> None:
    """Copy an input's folder to output/fuzz/ (its output left out; FIFOs and devices are not
    copied: reading one would block)."""
    import stat as _stat

    def ignore(folder: str, names: list[str]) -> list[str]:
        out = []
        for n in names:
            try:
                mode = os.lstat(os.path.join(folder, n)).st_mode
            except OSError:
                continue
            if n == "out" or not (_stat.S_ISDIR(mode) or _stat.S_ISREG(mode) or _stat.S_ISLNK(mode)):
                out.append(n)
        return out

    keep = ROOT / "output" / "fuzz" / case.name
    shutil.rmtree(keep, ignore_errors=True)
    try:
        shutil.copytree(case, keep, symlinks=True, ignore_dangling_symlinks=True, ignore=ignore)
    except (OSError, shutil.Error):
        pass


record_keep: dict = {}


# --- the surfaces of issue 31 ---------------------------------------------------------------------

SURFACE_KINDS = ("sheets", "svg", "fonts", "pod", "export-data", "diff")
#: whether the audit hook records, the folders an input may read (and write), what it did outside
AUDIT: dict = {"on": False, "read": (), "write": (), "outside": []}
_WATCHED = {"open", "os.listdir", "os.scandir", "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink",
            "os.link", "os.truncate", "os.chmod", "os.utime", "shutil.copyfile", "shutil.copytree", "shutil.rmtree",
            "shutil.move", "os.chdir"}
_WRITES = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink", "os.link", "os.truncate", "os.chmod",
           "os.utime", "shutil.rmtree", "shutil.move"}


def _audit(event: str, args: tuple) -> None:
    """Record any file opened, listed or changed outside the allowed folders (while on)."""
    if not AUDIT["on"] or event not in _WATCHED or not args:
        return
    AUDIT["on"] = False  # what this hook calls is not audited
    try:
        path = args[0] if event != "shutil.copyfile" else args[1]
        if isinstance(path, int) or path is None:
            return
        path = os.fsdecode(os.fspath(path))
        dir_fd = {"os.remove": 1, "os.rmdir": 1, "os.rename": 2, "os.mkdir": 2, "os.symlink": 2, "os.chmod": 2,
                  "os.utime": 4}.get(event)
        if dir_fd is not None and len(args) > dir_fd and isinstance(args[dir_fd], int) and args[dir_fd] >= 0 \
                and not os.path.isabs(path):
            path = os.path.join(os.readlink(f"/proc/self/fd/{args[dir_fd]}"), path)  # relative to a folder's fd
        full = os.path.realpath(path)
        write = event in _WRITES or event in ("shutil.copyfile", "shutil.copytree")
        if event == "open" and len(args) >= 3:
            mode, flags = args[1], args[2] or 0
            write = bool((isinstance(mode, str) and any(c in mode for c in "wax+"))
                         or flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC))
        allowed = AUDIT["write"] if write else AUDIT["read"]
        if not any(full == root or full.startswith(root + os.sep) for root in allowed):
            AUDIT["outside"].append(f"{'write' if write else 'read'} {event} {full[:200]}")
    except Exception:  # never break the run being watched
        pass
    finally:
        AUDIT["on"] = True


def _allowed_roots(case: Path, cache: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    import sysconfig
    import tempfile as _tempfile

    system = {sys.prefix, sys.base_prefix, sys.exec_prefix, sysconfig.get_paths()["purelib"],
              sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platlib"]}
    # the code (Python's import system lists sys.path's folders), the shipped data and templates,
    # a few system files; the case itself, the cache, the current folder and the temp folder
    # (a library's temporary file: openpyxl writes one while saving a workbook)
    reads = {os.path.realpath(p) for p in system} | {os.path.realpath(p) for p in sys.path if p} | {
        os.path.realpath(ROOT / "cardforge"), os.path.realpath(ROOT / "templates"),
        os.path.realpath(ROOT / "card_data"), "/dev/null", "/dev/urandom", "/etc/mime.types", "/etc/localtime",
        "/usr/share/zoneinfo", "/proc/self", "/usr/lib", "/usr/share/fonts"}
    writes = {os.path.realpath(case), os.path.realpath(cache), os.path.realpath(os.getcwd()),
              os.path.realpath(os.environ.get("CARDFORGE_CONFIG", cache)),  # the cache's key
              os.path.realpath(_tempfile.gettempdir())}
    return tuple(sorted(reads | writes)), tuple(sorted(writes))


def surface_input(kind: str, index: int, seed: int, case: Path, seeds: dict, rng: random.Random) -> dict:
    """One input of a surface of issue 31: made, run (each command while the one before
    succeeds), checked; a result record."""
    import fuzz_surfaces as fs

    decoy = seeds["decoy"]
    before = fs.decoy_state(decoy)
    try:
        what, commands, checks = fs.MAKERS[kind](rng, case, seeds, decoy)
    except Exception as exc:  # the fuzzer's own failure to make this input: not cardforge's
        return {"kind": kind, "game": "-", "index": index, "code": None, "seconds": 0.0, "bad": None,
                "what": f"not made: {type(exc).__name__}: {exc}"[:200], "err": "", "skipped": True}
    rss_before = max_rss_mb()
    AUDIT["read"], AUDIT["write"] = _allowed_roots(case, Path(os.environ["CARDFORGE_CACHE"]))
    AUDIT["outside"] = []
    start = time.perf_counter()
    code, out, err = 0, "", ""
    refused = ""  # check passed, then the build refused the input cleanly (check does not lay text out: #28)
    signal.alarm(60)
    AUDIT["on"] = True
    try:
        for i, args in enumerate(commands):
            code, out, err = run_cli(args)
            if code != 0:
                if i > 0 and commands[0][0] == "check" and verdict(code, err, out) is None:
                    refused = err.strip().splitlines()[1 if len(err.strip().splitlines()) > 1 else 0][:300]
                    code = 0
                break
    except _Timeout:
        code, out, err = -1, "", "internal error: still running after 60 s"
    finally:
        AUDIT["on"] = False
        signal.alarm(0)
    seconds = time.perf_counter() - start
    bad = verdict(code, err, out)
    if bad is None and code == 0:
        for check in checks:
            if check[0] == "roundtrip":
                problem = fs.check_export(*check[1:])
                if problem:
                    bad = problem
    outside = AUDIT["outside"]
    if fs.decoy_state(decoy) != before:
        outside = outside + ["the decoy folder changed"]
    return {"kind": kind, "game": "-", "index": index, "code": code, "seconds": round(seconds, 3), "bad": bad,
            "what": what[:200], "err": err[-400:] if bad else "", "rss_before": rss_before,
            "outside": outside[:5], "commands": [a[0] for a in commands], "refused": refused}


def max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def worker(jobs: list[tuple[str, str, int]], seed: int, keep: bool) -> None:
    """Run ``jobs`` in this process, one JSON line per result on stdout; exits (to be restarted
    fresh) when the process's peak memory passes BIG_MB, after reporting the input that did it."""
    record_keep["keep"] = keep
    signal.signal(signal.SIGALRM, _alarm)
    seeds: dict = {}
    work = Path(tempfile.mkdtemp(prefix="cardforge-fuzz-"))
    real_stdout = sys.stdout
    print(json.dumps({"work": str(work)}), file=real_stdout, flush=True)  # removed by the parent if this dies
    if any(kind in SURFACE_KINDS for kind, _, _ in jobs):
        import fuzz_surfaces

        fuzz_surfaces.BASES = work / "bases"
        seeds["decoy"] = fuzz_surfaces.make_decoy(work / "decoy")
        (work / "cwd").mkdir()
        os.chdir(work / "cwd")  # relative names resolve in an empty folder of the worker's own
        os.environ["CARDFORGE_CACHE"] = str(work / "cache")
        os.environ["CARDFORGE_CONFIG"] = str(work / "config")  # the cache's key: never the user's
        sys.addaudithook(_audit)
    try:
        for kind, game, index in jobs:
            if os.getppid() == 1:  # the campaign was stopped: no orphan keeps running
                return
            if (kind, game) not in seeds and kind in ("score", "setup"):
                seeds[(kind, game)] = score_seeds(game) if kind == "score" else setup_seeds(game)
            print(json.dumps({"start": [kind, game, index]}), file=real_stdout, flush=True)
            record = one_input(kind, game, index, seed, work, seeds)
            after = max_rss_mb()
            record["rss_mb"] = round(after, 1)
            record["big"] = after > BIG_MB and after > record.get("rss_before", after)
            print(json.dumps(record, default=str), file=real_stdout, flush=True)
            if record["big"]:
                return
    finally:
        shutil.rmtree(work, ignore_errors=True)


def campaign(counts: dict[str, int], seed: int, workers: int, keep: bool) -> dict:
    jobs: list[tuple[str, str, int]] = []
    for kind in ("score", "setup"):
        for game in GAMES:
            jobs += [(kind, game, i) for i in range(counts[kind])]
    for kind in ("data", "templates"):
        jobs += [(kind, GAMES[i % len(GAMES)], i) for i in range(counts[kind])]
    for kind in SURFACE_KINDS:
        jobs += [(kind, "-", i) for i in range(counts.get(kind, 0))]
    random.Random(seed).shuffle(jobs)
    shards = [jobs[w::workers] for w in range(workers)]
    results: list[dict] = []
    started = time.perf_counter()
    procs = []
    for shard in shards:
        procs.append(_Shard(shard, seed, keep))
    while any(p.alive for p in procs):
        for p in procs:
            p.pump(results)
        time.sleep(0.05)
    for p in procs:
        p.pump(results)
    return {"results": results, "wall_s": time.perf_counter() - started}


class _Shard:
    """A worker process over a list of jobs, restarted after a crash or a memory excess."""

    def __init__(self, jobs, seed, keep):
        self.jobs, self.seed, self.keep = jobs, seed, keep
        self.done = 0
        self.proc = None
        self.current = None
        self.buffer = b""
        self.hung = False
        self._start()

    @property
    def alive(self) -> bool:
        return self.proc is not None

    def _start(self) -> None:
        if self.done >= len(self.jobs):
            self.proc = None
            return
        payload = json.dumps({"jobs": self.jobs[self.done:], "seed": self.seed, "keep": self.keep})
        limit_bytes = MEMORY_MB[0] * 1024 * 1024

        def limit_memory() -> None:  # in the child: a bomb fails with MemoryError, not the machine
            resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit_memory)
        self.started = time.monotonic()
        self.proc.stdin.write(payload.encode())
        self.proc.stdin.close()
        os.set_blocking(self.proc.stdout.fileno(), False)

    def pump(self, results: list) -> None:
        if self.proc is None:
            return
        try:
            chunk = self.proc.stdout.read()
        except (BlockingIOError, ValueError):
            chunk = None
        if chunk:
            self.buffer += chunk
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if "work" in msg:
                self.work = msg["work"]
            elif "start" in msg:
                self.current = msg["start"]
                self.started = time.monotonic()
            else:
                results.append(msg)
                self.done += 1
                self.current = None
                _progress(results)
        if self.current is not None and self.proc.poll() is None and time.monotonic() - self.started > HANG_S:
            self.proc.kill()  # stuck where the worker's alarm cannot reach (C code): a hang
            self.proc.wait()
            self.hung = True
        if self.proc.poll() is not None and not chunk:
            rest = self.proc.stdout.read() or b""
            if rest:
                self.buffer += rest
                return self.pump(results)
            code = self.proc.returncode
            work = getattr(self, "work", None)
            if work and code != 0:  # a dead worker's folder: its input kept (--keep), the rest removed
                if self.current is not None and self.keep:
                    kind, game, index = self.current
                    case = Path(work) / f"{kind}-{game}-{index}"
                    if case.is_dir():
                        keep_case(case)
                shutil.rmtree(work, ignore_errors=True)
            self.work = None
            if self.current is not None:  # died inside an input: a crash (a signal, the OOM killer…)
                kind, game, index = self.current
                hung = getattr(self, "hung", False)
                self.hung = False
                results.append({"kind": kind, "game": game, "index": index, "code": code,
                                "seconds": HANG_S if hung else None,
                                "bad": f"hang: killed after {HANG_S:.0f} s" if hung else
                                f"worker died with {code} (signal {-code if code < 0 else '-'})",
                                "what": "", "err": "", "rss_mb": None, "big": False, "hang": hung})
                self.done += 1
                self.current = None
            self._start()


def _progress(results: list) -> None:
    if len(results) % 500 == 0:
        bad = sum(1 for r in results if r["bad"])
        print(f"  … {len(results)} inputs, {bad} not clean", file=sys.stderr, flush=True)


def summarise(report: dict) -> str:
    rows: dict[tuple[str, str], dict[str, int]] = {}
    skipped = [r for r in report["results"] if r.get("skipped")]
    for r in report["results"]:
        if r.get("skipped"):
            continue
        row = rows.setdefault((r["kind"], r["game"]), {"runs": 0, "ok": 0, "clean_error": 0, "crash": 0,
                                                       "over_10s": 0, "over_500MB": 0, "outside": 0, "max_s": 0.0,
                                                       "peak_mb": 0.0, "check_ok_build_no": 0})
        if r.get("outside"):
            row["outside"] += 1
        if r.get("refused"):
            row["check_ok_build_no"] += 1
        row["peak_mb"] = max(row["peak_mb"], r.get("rss_mb") or 0.0)
        row["runs"] += 1
        if r["bad"]:
            row["crash"] += 1
        elif r["code"] == 0:
            row["ok"] += 1
        else:
            row["clean_error"] += 1
        if r["seconds"] is not None and r["seconds"] > SLOW_S:
            row["over_10s"] += 1
        if r.get("big"):
            row["over_500MB"] += 1
        row["max_s"] = max(row["max_s"], r["seconds"] or 0.0)
    lines = [f"{'kind':<11} {'game':<16} {'runs':>6} {'ok':>6} {'clean err':>9} {'crash':>6} {'>10 s':>6} "
             f"{'>500 MB':>7} {'outside':>7} {'max s':>7} {'peak MB':>7} {'chk ok, build no':>16}"]
    total = {"runs": 0, "crash": 0, "over_10s": 0, "over_500MB": 0, "outside": 0}
    for (kind, game), row in sorted(rows.items()):
        lines.append(f"{kind:<11} {game:<16} {row['runs']:>6} {row['ok']:>6} {row['clean_error']:>9} "
                     f"{row['crash']:>6} {row['over_10s']:>6} {row['over_500MB']:>7} {row['outside']:>7} "
                     f"{row['max_s']:>7.2f} {row['peak_mb']:>7.0f} {row['check_ok_build_no']:>16}")
        for k in total:
            total[k] += row[k]
    peak = max((r.get("rss_mb") or 0) for r in report["results"]) if report["results"] else 0
    lines.append(f"total: {total['runs']} inputs, {total['crash']} crashes, {total['over_10s']} over 10 s, "
                 f"{total['over_500MB']} over 500 MB (peak worker memory, input making included: {peak:.0f} MB), "
                 f"{total['outside']} with a file touched outside, {report['wall_s']:.0f} s wall")
    if skipped:
        lines.append(f"inputs the fuzzer failed to make (not run): {len(skipped)}, e.g. {skipped[0]['what']}")
    refusals = [r for r in report["results"] if r.get("refused")]
    if refusals:
        lines.append(f"check passed, then the build refused the input (cleanly; check does not lay text out, "
                     f"issue 28): {len(refusals)}, e.g.")
        lines += [f"  {r['kind']} #{r['index']} ({r['what']}): {r['refused'][:200]}" for r in refusals[:8]]
    for r in report["results"]:
        if r["bad"] or (r["seconds"] or 0) > SLOW_S or r.get("big") or r.get("outside"):
            lines.append(f"  {r['kind']} {r['game']} #{r['index']} ({r['what']}): {r['bad'] or ''} "
                         f"{r['seconds']} s {r.get('rss_mb')} MB {r['err'][-200:]!r} {r.get('outside') or ''}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--score", type=int, default=None, help="score files per game (default 100)")
    parser.add_argument("--setup", type=int, default=None, help="setup --check files per game (default 20)")
    parser.add_argument("--data", type=int, default=None, help="mutated data folders in all (default 10)")
    parser.add_argument("--templates", type=int, default=None, help="mutated template folders in all (default 5)")
    for kind in SURFACE_KINDS:
        parser.add_argument(f"--{kind}", type=int, default=None, dest=kind.replace("-", "_"),
                            help=f"{kind} inputs (issue 31's surfaces; default 20)")
    parser.add_argument("--only", action="store_true", help="only the counts given (the others 0)")
    parser.add_argument("--memory-mb", type=int, default=3072, help="each worker's address space (RLIMIT_AS)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep failing inputs in output/fuzz/")
    parser.add_argument("--json", dest="json_out", help="write every result to this JSON file")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    _allow_long_ints()
    if args.worker:
        payload = json.loads(sys.stdin.read())
        worker([tuple(j) for j in payload["jobs"]], payload["seed"], payload["keep"])
        return 0
    defaults = {"score": 100, "setup": 20, "data": 10, "templates": 5, **{k: 20 for k in SURFACE_KINDS}}
    counts = {}
    for kind, default in defaults.items():
        given = getattr(args, kind.replace("-", "_"))
        counts[kind] = given if given is not None else (0 if args.only else default)
    MEMORY_MB[0] = args.memory_mb
    report = campaign(counts, args.seed, args.workers, args.keep)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(summarise(report))
    bad = [r for r in report["results"] if r["bad"] or (r["seconds"] or 0) > SLOW_S or r.get("big") or r.get("outside")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    sys.exit(main())
