"""How often the lab cries wolf (issue 39): simulated Maphr-like logs where nothing was planted
(tests/lab_sim.py: every card and clan equally strong, holding more cards wins more), each fitted
as a lab view fits a group (lab.effects: conditional logit, power gate, Benjamini–Hochberg over
every card, clan and seat), and the share of logs where any row is flagged. Also: one card
planted at +10 points of win probability, how often it is found and how often anything else is.

    python bench/lab_null.py [--logs 50] [--plays 2000] [--planted]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def main() -> None:
    import lab_sim

    from cardforge.lab import effects

    ap = argparse.ArgumentParser()
    ap.add_argument("--logs", type=int, default=50)
    ap.add_argument("--plays", type=int, default=2000)
    ap.add_argument("--planted", action="store_true", help="plant card c07 at +10 points")
    ap.add_argument("--first-seed", type=int, default=1000)
    a = ap.parse_args()
    plant = lab_sim.Plant(card="c07", logodds=lab_sim.planted_logodds()) if a.planted else None
    any_flag = found = others = 0
    tested = []
    t0 = time.perf_counter()
    for seed in range(a.first_seed, a.first_seed + a.logs):
        plays = lab_sim.simulate(a.plays, seed, plant)
        fitted = effects.fit_group(plays, lab_sim.info(), lab_sim.card_names())
        tested.append(effects.correct(fitted.effects))
        flagged = {(e.family, e.key) for e in fitted.effects if e.flagged}
        wrong = flagged - {("card", "c07")} if a.planted else flagged
        any_flag += bool(wrong)
        found += ("card", "c07") in flagged
        others += bool(wrong)
        print(f"seed {seed}: {tested[-1]} tested, flagged {sorted(flagged)}", flush=True)
    n = a.logs
    print(f"{n} logs of {a.plays} plays, {min(tested)}–{max(tested)} effects tested each, "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"logs with a wrong flag: {any_flag} of {n} ({100 * any_flag / n:.0f} %)")
    if a.planted:
        print(f"planted card found: {found} of {n}")


if __name__ == "__main__":
    main()
