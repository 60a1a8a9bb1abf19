"""Start-up of cardforge commands, before and after a change: two source trees, alternating.

    python bench/startup_ab.py OLD_TREE NEW_TREE --runs 15 -- score maphr card_data/maphr/examples/final.yaml

Each run is a fresh ``python -m cardforge ARGS`` with ``PYTHONPATH`` set to one tree (so the
same interpreter and libraries serve both), alternating OLD, NEW, NEW, OLD… after a warm-up
of each (bytecode, caches: each tree its own ``CARDFORGE_CACHE``), so machine noise hits both
alike. Prints the median wall and CPU seconds of each and the median of the per-run ratios
NEW / OLD. The trees are checkouts (``git worktree add`` or ``git archive | tar -x``); the
command runs in NEW_TREE (paths in ARGS are relative to it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def once(tree: Path, args: list[str], cwd: Path, cache: Path) -> tuple[float, float]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CARDFORGE_DATA")}
    env.update(PYTHONPATH=str(tree), CARDFORGE_CACHE=str(cache), CARDFORGE_CONFIG=str(cache.with_name("config")))
    t0 = time.perf_counter()
    # -P: the working directory (NEW_TREE) is not put first on sys.path, where it would shadow
    # PYTHONPATH and run NEW for both
    proc = subprocess.Popen([sys.executable, "-P", "-m", "cardforge", *args], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{tree}: cardforge {' '.join(args)} failed:\n{proc.stderr.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--runs", type=int, default=11)
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    ns = parser.parse_args(argv[:cut])
    args = argv[cut + 1:]
    samples: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory(prefix="cardforge-startup-") as tmp:
        trees = {"old": ns.old.resolve(), "new": ns.new.resolve()}
        caches = {name: Path(tmp) / name for name in trees}
        for name in trees:
            once(trees[name], args, ns.new, caches[name])
        for i in range(ns.runs):
            for name in (("old", "new") if i % 2 == 0 else ("new", "old")):
                samples[name].append(once(trees[name], args, ns.new, caches[name]))
    for name in ("old", "new"):
        wall = statistics.median(s[0] for s in samples[name])
        cpu = statistics.median(s[1] for s in samples[name])
        print(f"{name}: {wall:.3f} s wall, {cpu:.3f} s CPU (medians of {ns.runs})")
    ratio = statistics.median(n[0] / o[0] for n, o in zip(samples["new"], samples["old"]))
    cpu_ratio = statistics.median(n[1] / o[1] for n, o in zip(samples["new"], samples["old"]))
    print(f"new/old: {ratio:.2f} wall, {cpu_ratio:.2f} CPU; load average {os.getloadavg()[0]:.1f}, "
          f"{os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
