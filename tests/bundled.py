"""The bundled games (data/games/*.toml) the generic per-game suites analyse.

A game whose whole exact analysis takes minutes is measured by a benchmark, not re-analysed by
every generic suite (analysis, report, workbook, compliance, golden, chunks, architecture):
``BENCHMARK_ONLY`` names it with its benchmark and its own quick test file, and
``test_benchmark_only_games_are_covered`` (tests/test_load.py) checks both exist and that the
game loads, so leaving a game out is never silent.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALL = sorted((ROOT / "data" / "games").glob("*.toml"))

#: game -> (its benchmark, its own tests): the exact analysis of Frozen Gems enumerates
#: 40^5 stop combinations through every cascade chain on two reel sets (minutes on 2 cores)
BENCHMARK_ONLY = {
    "frozen_gems": ("benchmarks/bench_frozen_gems.py", "tests/test_frozen_gems.py"),
}

#: the games every generic suite analyses
ANALYSED = [p for p in ALL if p.stem not in BENCHMARK_ONLY]

#: paid rounds a generic suite's seeded simulation plays, by game name where not the default:
#: Jingle Spin's conveyor is played spin by spin in Python (about 3,000 spins/s)
SIMULATION_SPINS = {"Jingle Spin": 20_000}


def simulation_spins(game) -> int:
    """Paid rounds of ``game`` a generic suite's seeded simulation plays."""
    return SIMULATION_SPINS.get(game.name, 200_000)


@cache
def _analysed(path: str, level: int):
    import slotmath

    return slotmath.analyze(slotmath.load_game(path), level)


def analysed(path, level: int = 1):
    """The analysis of the bundled game at ``path`` and ``level``, made once per test session
    and shared by the generic suites (golden, report, JSON shape, workbook, architecture):
    each reads figures from it and checks them against its own independent path, so sharing
    the object removes repeated minutes of the same enumeration, not a check."""
    return _analysed(str(Path(path).resolve()), int(level))
