"""Benchmark: building decks with cardforge against the hand-written ReportLab ceiling.

    python bench/run.py                  # every shipped deck + synthetic 1,000 and 10,000 cards
    python bench/run.py --quick          # a smoke run: one run each, Maphr and 1,000 cards
    python bench/run.py --runs 9 --games maphr tunhell --sizes 1000

Each run is a fresh process, so start-up, imports, data loading, validation and templating
are all counted, as a designer's rebuild pays them (``cardforge build GAME --only decks``).
The two builds alternate (cardforge, then the ceiling, then the ceiling, then cardforge…) so
that machine noise hits both alike; a first run of each warms the file-system cache,
Python's bytecode (``PYTHONDONTWRITEBYTECODE`` is dropped for the children) and cardforge's
caches (kept in a temporary ``CARDFORGE_CACHE``). Reported per deck, medians:

- ``seconds`` (wall), ``cards/s``; ``ratio``: the median of the per-run ratios cardforge /
  ceiling; ``cpu ratio``: the same on user+system CPU time, steadier on a busy machine;
- ``peak MiB``: the child's maximum resident set (``wait4``);
- ``bytes/card``: the deck PDFs' bytes, less the embedded font programs, per card printed;
  ``fonts KiB``: those font subsets.

The synthetic decks are Maphr's data folder (its 250 cards) plus generated cards (improvements,
contracts, catastrophes with the real cards' texts, each card its own name, numbers and text)
up to the size asked, written to a temporary folder built with ``cardforge --data DIR``.

``--cold`` also times cardforge with its caches off (``CARDFORGE_NO_CACHE=1``): a first build
after an edit to the data.

``--startup`` times only start-up: ``cardforge --help``, ``cardforge score GAME
card_data/GAME/examples/final.yaml`` and ``cardforge check GAME`` for each game, each run
alternating with ``python -c "import reportlab"`` (the floor any PDF tool pays); medians and
the median per-run ratio to that floor. Targets (issue 32): ``--help`` ≤ 0.1 s, ``score`` ≤ 0.25 s.

``--in-process`` also times the library function itself, ``build_game(game, settings)``
(``cardforge/render/builds/build.py``, what the CLI and watch mode run), called again and again in one
long-lived process as watch mode or a web page would: the first call is a warm-up, the others
are timed (each a complete build, lock and staging folder included; nothing changed between
them, so every card text is reused). Its settings name the data folder (``data_root``): no
environment variable.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners")
SIZES = (1000, 10000)
SYNTH_GAME = "maphr"


@dataclass
class Sample:
    wall: float
    cpu: float
    peak_mib: float


@dataclass
class Deck:
    label: str
    game: str
    data_root: Path | None  # None: the shipped card_data
    cards: int = 0
    samples: dict[str, list[Sample]] = field(default_factory=lambda: {"cf": [], "ce": [], "cold": [], "lib": []})
    pdf_bytes: dict[str, tuple[int, int]] = field(default_factory=dict)  # tool → (total, fonts)


def child_env(cache: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CARDFORGE_DATA")}
    env["CARDFORGE_CACHE"] = str(cache)
    env["CARDFORGE_CONFIG"] = str(cache.with_name(cache.name + "-config"))  # the cache's key: never the user's
    env.update(extra)
    return env


def measure(cmd: list[str], env: dict) -> Sample:
    """Wall seconds, CPU seconds and peak MiB of one child process; exits if it fails.

    Linux counts in a child's peak the memory of the process it was started from (the
    parent's at ``exec``), so this process keeps small: it never loads a deck itself."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    out = proc.stdout.read().decode() if proc.stdout else ""
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{out}{err}")
    return Sample(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)  # Linux: KiB


def pdf_sizes(folder: Path) -> tuple[int, int]:
    """(all PDF bytes, bytes of the embedded font programs) under ``folder``: the cards' files
    (not instructions.pdf, the build's page on how to print them)."""
    total = fonts = 0
    for path in folder.rglob("*.pdf"):
        if path.name == "instructions.pdf":
            continue
        data = path.read_bytes()
        total += len(data)
        for num in set(re.findall(rb"/FontFile2 (\d+) 0 R", data)):
            m = re.search(rb"\n" + num + rb" 0 obj\n?<<(.*?)>>", data, re.S)
            length = re.search(rb"/Length (\d+)", m.group(1)) if m else None
            fonts += int(length.group(1)) if length else 0
    return total, fonts


# --- the synthetic deck -------------------------------------------------------------------

def make_synthetic(folder: Path, cards: int, seed: int = 10) -> Path:
    """Write a data folder ``folder/maphr/`` with ``cards`` printed cards: Maphr's own 250 and
    generated ones (each printed once, its own name, values and text). Returns ``folder``."""
    src = ROOT / "card_data" / SYNTH_GAME
    dst = folder / SYNTH_GAME
    shutil.copytree(src, dst)
    deck = yaml.safe_load((dst / "deck.yaml").read_text(encoding="utf-8"))
    texts: dict[str, list[str]] = {"improvement": [], "contract": [], "catastrophe": []}
    shipped = 0
    for name in deck["card_files"]:
        raw = yaml.safe_load((dst / name).read_text(encoding="utf-8"))
        defaults = raw.get("defaults", {}) if isinstance(raw, dict) else {}
        for card in raw["cards"] if isinstance(raw, dict) else raw:
            card = {**defaults, **card}
            shipped += card.get("copies", 1)
            kind = card["kind"]
            if kind == "improvement" and card.get("effect"):
                texts[kind].append(card["effect"])
            elif kind in ("contract", "catastrophe"):
                texts[kind].append(card["text"])
    rng = random.Random(seed)
    words = ("Galerie", "Forge", "Atelier", "Puits", "Salle", "Chapelle", "Entrepôt", "Tour", "Halle",
             "Cave", "Marché", "Autel", "Bureau", "Treuil", "Pont", "Lanterne")
    kinds = ["improvement"] * 6 + ["contract"] * 2 + ["catastrophe"] * 2
    out = []
    for i in range(max(0, cards - shipped)):
        kind = kinds[i % len(kinds)]
        text = rng.choice(texts[kind])
        # another number in the text, so that no two generated cards print the same thing
        text = re.sub(r"\d+", lambda m: str(int(m.group()) + 1 + i % 7), text, count=1)
        text += f" (n° {i + 1})"
        card = {"id": f"synthetique-{i + 1}", "kind": kind, "name": f"{rng.choice(words)} n° {i + 1}",
                "provenance": "provisional"}
        if kind == "improvement":
            level = 1 + i % 4
            card.update(colour=("blue", "green", "yellow", "red", "grey")[i // 4 % 5], level=level,
                        cost=3 + 4 * level + i % 3, vp=level, effect=text)
        else:
            card["text"] = text
        out.append(card)
    (dst / "synthetic.yaml").write_text(yaml.safe_dump({"cards": out}, allow_unicode=True, sort_keys=False),
                                        encoding="utf-8")
    text = (dst / "deck.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(card_files:\n(?:  - .*\n)+)", lambda m: m.group(1) + "  - synthetic.yaml\n", text)
    (dst / "deck.yaml").write_text(text, encoding="utf-8")
    return folder


# --- running ------------------------------------------------------------------------------

def commands(deck: Deck, out: Path) -> tuple[list[str], list[str]]:
    data = ["--data", str(deck.data_root)] if deck.data_root else []
    folder = (deck.data_root or ROOT / "card_data") / deck.game
    cf = [sys.executable, "-m", "cardforge", *data, "build", deck.game, "-o", str(out / "cf"),
          "--only", "decks", "-q"]
    ce = [sys.executable, str(ROOT / "bench" / "ceiling.py"), str(folder), str(out / "ceiling" / "deck.pdf")]
    return cf, ce


def bench_deck(deck: Deck, runs: int, cold: bool, tmp: Path) -> None:
    out = tmp / deck.label
    (out / "ceiling").mkdir(parents=True)
    cf_cmd, ce_cmd = commands(deck, out)
    env = child_env(tmp / "cache")
    deck.cards = int(subprocess.run(ce_cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                                    check=True).stdout)
    measure(cf_cmd, env)  # warm-up: bytecode, file-system caches, cardforge's caches
    for i in range(runs):
        order = ("cf", "ce") if i % 2 == 0 else ("ce", "cf")
        for name in order:
            deck.samples[name].append(measure(cf_cmd if name == "cf" else ce_cmd, env))
        if cold:
            deck.samples["cold"].append(measure(cf_cmd, child_env(tmp / "cache", CARDFORGE_NO_CACHE="1")))

def bench_in_process(deck: Deck, runs: int, tmp: Path) -> None:
    """``runs`` calls of build_game after a warm-up, in one child process (see the docstring)."""
    out = tmp / deck.label / "lib"
    cmd = [sys.executable, __file__, "--in-process-child", deck.game, str(deck.data_root or ""), str(out), str(runs)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=child_env(tmp / "cache"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    out_text = proc.stdout.read().decode() if proc.stdout else ""
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(cmd)} failed:\n{out_text}{proc.stderr.read().decode() if proc.stderr else ''}")
    peak = usage.ru_maxrss / 1024
    for line in out_text.split():
        wall, cpu = (float(v) for v in line.split(","))
        deck.samples["lib"].append(Sample(wall, cpu, peak))


def in_process_child(game_id: str, data_root: str, out: str, runs: int) -> None:
    """The child of :func:`bench_in_process`: prints "wall,cpu" seconds per timed build."""
    from cardforge.games import find_game
    from cardforge.render.builds.build import build_game
    from cardforge.settings import BuildSettings

    settings = BuildSettings(only=frozenset({"decks"}), out_dir=Path(out),
                             data_root=Path(data_root) if data_root else None)
    game = find_game(game_id)
    build_game(game, settings)  # warm-up: imports, fonts, templates, every text laid out
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        build_game(game, settings)
        print(f"{time.perf_counter() - t0:.6f},{time.process_time() - c0:.6f}", flush=True)


def startup_commands(games: list[str]) -> list[tuple[str, list[str]]]:
    """(label, argv) of each start-up command timed by ``--startup``."""
    cf = [sys.executable, "-m", "cardforge"]
    cmds = [("cardforge --help", [*cf, "--help"])]
    for game in games:
        for example in sorted((ROOT / "card_data" / game / "examples").glob("*.yaml"))[:1]:
            cmds.append((f"score {game}", [*cf, "score", game, str(example)]))
    cmds += [(f"check {game}", [*cf, "check", game, "-q"]) for game in games]
    return cmds


def bench_startup(games: list[str], runs: int, tmp: Path) -> list[dict]:
    """Start-up of the commands of :func:`startup_commands`, alternating with importing
    ReportLab alone (see the docstring)."""
    env = child_env(tmp / "cache")
    floor_cmd = [sys.executable, "-c", "import reportlab"]
    rows = []
    for label, cmd in startup_commands(games):
        measure(cmd, env)  # warm-up: bytecode, caches
        measure(floor_cmd, env)
        cf: list[Sample] = []
        fl: list[Sample] = []
        for i in range(runs):
            order = ((cf, cmd), (fl, floor_cmd)) if i % 2 == 0 else ((fl, floor_cmd), (cf, cmd))
            for samples, argv in order:
                samples.append(measure(argv, env))
        rows.append({"command": label, "seconds": statistics.median(s.wall for s in cf),
                     "floor": statistics.median(s.wall for s in fl),
                     "ratio": statistics.median(a.wall / b.wall for a, b in zip(cf, fl)),
                     "cpu": statistics.median(s.cpu for s in cf),
                     "peak MiB": max(s.peak_mib for s in cf)})
    return rows


def format_startup(rows: list[dict]) -> str:
    header = f"{'command':<26}{'seconds':>9}{'import reportlab':>18}{'ratio':>7}{'cpu s':>8}{'peak MiB':>10}"
    lines = [header, "-" * len(header)]
    for r in rows:
        lines.append(f"{r['command']:<26}{r['seconds']:>9.3f}{r['floor']:>18.3f}{r['ratio']:>7.2f}"
                     f"{r['cpu']:>8.3f}{r['peak MiB']:>10.1f}")
    return "\n".join(lines)


def measure_sizes(deck: Deck, tmp: Path) -> None:
    """The PDFs' sizes, read once every deck was timed (reading them grows this process)."""
    out = tmp / deck.label
    deck.pdf_bytes["cf"] = deck.pdf_bytes["cold"] = deck.pdf_bytes["lib"] = pdf_sizes(out / "cf")
    deck.pdf_bytes["ce"] = pdf_sizes(out / "ceiling")


def rows_for(deck: Deck) -> list[dict]:
    ce = deck.samples["ce"]
    rows = []
    for tool, label in (("cf", "cardforge"), ("ce", "ceiling"), ("cold", "cardforge, cold"),
                        ("lib", "in-process")):
        samples = deck.samples[tool]
        if not samples:
            continue
        wall = statistics.median(s.wall for s in samples)
        if tool == "ce":
            ratio = cpu_ratio = 1.0
        elif tool == "lib":  # not run alternately with the ceiling: against its medians
            ratio = wall / statistics.median(s.wall for s in ce)
            cpu_ratio = statistics.median(s.cpu for s in samples) / statistics.median(s.cpu for s in ce)
        else:
            ratio = statistics.median(a.wall / b.wall for a, b in zip(samples, ce))
            cpu_ratio = statistics.median(a.cpu / b.cpu for a, b in zip(samples, ce))
        total, fonts = deck.pdf_bytes[tool]
        rows.append({"deck": f"{deck.label} ({label})", "cards": deck.cards, "seconds": wall,
                     "cards/s": deck.cards / wall, "ratio": ratio, "cpu ratio": cpu_ratio,
                     "peak MiB": max(s.peak_mib for s in samples),
                     "bytes/card": (total - fonts) / deck.cards, "fonts KiB": fonts / 1024})
    return rows


def format_table(rows: list[dict]) -> str:
    header = (f"{'deck':<32}{'cards':>7}{'seconds':>9}{'cards/s':>9}{'ratio':>7}{'cpu ratio':>10}"
              f"{'peak MiB':>10}{'bytes/card':>12}{'fonts KiB':>11}")
    lines = [header, "-" * len(header)]
    for r in rows:
        lines.append(f"{r['deck']:<32}{r['cards']:>7}{r['seconds']:>9.3f}{r['cards/s']:>9.0f}{r['ratio']:>7.2f}"
                     f"{r['cpu ratio']:>10.2f}{r['peak MiB']:>10.1f}{r['bytes/card']:>12.0f}{r['fonts KiB']:>11.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=None, help=f"shipped decks (default: {' '.join(GAMES)})")
    parser.add_argument("--sizes", nargs="*", type=int, default=None,
                        help="synthetic deck sizes in cards (default: 1000 10000)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 1 run, Maphr and 1,000 cards unless --games/--sizes say")
    parser.add_argument("--cold", action="store_true", help="also time cardforge without its caches")
    parser.add_argument("--in-process", action="store_true",
                        help="also time build_game called again and again in one process (as watch mode)")
    parser.add_argument("--startup", action="store_true",
                        help="time only start-up: --help, score and check of each game, against importing ReportLab")
    parser.add_argument("--make-synthetic", nargs=2, metavar=("DIR", "CARDS"), help=argparse.SUPPRESS)
    parser.add_argument("--in-process-child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.in_process_child:
        game_id, data_root, out, runs = args.in_process_child
        in_process_child(game_id, data_root, out, int(runs))
        return 0
    if args.make_synthetic:
        make_synthetic(Path(args.make_synthetic[0]), int(args.make_synthetic[1]))
        return 0
    runs = 1 if args.quick else max(1, args.runs)
    games = args.games if args.games is not None else (["maphr"] if args.quick else list(GAMES))
    sizes = args.sizes if args.sizes is not None else ([1000] if args.quick else list(SIZES))
    if args.startup:
        with tempfile.TemporaryDirectory(prefix="cardforge-bench-") as tmp:
            print(format_startup(bench_startup(args.games if args.games is not None else list(GAMES),
                                               max(runs, 3) if not args.quick else 1, Path(tmp))))
        print(f"\nmedians of {runs} alternating runs against `python -c \"import reportlab\"`; "
              f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
        return 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="cardforge-bench-") as tmp:
        tmp = Path(tmp)
        decks = [Deck(g, g, None) for g in games]
        for n in sizes:  # written by a child: this process stays small (see measure())
            folder = tmp / f"data-{n}"
            subprocess.run([sys.executable, __file__, "--make-synthetic", str(folder), str(n)], check=True)
            decks.append(Deck(f"synthetic {n}", SYNTH_GAME, folder))
        for deck in decks:
            bench_deck(deck, runs, args.cold, tmp)
            if args.in_process:
                bench_in_process(deck, max(3, runs), tmp)
            print(f"  {deck.label}: done", file=sys.stderr, flush=True)
        for deck in decks:
            measure_sizes(deck, tmp)
            rows += rows_for(deck)
    print(format_table(rows))
    print(f"\nmedians of {runs} alternating run{'s' if runs > 1 else ''}; ratio = cardforge / ceiling "
          f"(median of per-run ratios, wall and CPU); bytes/card without the font subsets; "
          f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
