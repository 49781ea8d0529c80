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


#: how far (bets) a game's round distribution's mean may be from its exact RTP, by game name
#: where that is more than float roundoff (1e-9 of the RTP): free spins with a state are laid on
#: an FFT grid whose length the state chain caps by memory (slotmath.markov.free_spin_state,
#: CHUNK_BYTES), so the biggest wins fold back and are rounded to a coarser unit (the JSON's
#: aliased_mass_bound and win_rounding_bets). Measured when these games were bundled (issue
#: 21: 1.16e-3, 7.8e-4, 7.1e-4); a limit of that grid, not of the RTP (exact), still to fix
ROUND_MEAN_TOLERANCE = {"Book of Gold": 1.5e-3, "Big Catch": 1e-3, "Sticky Paws": 1e-3}


def round_mean_tolerance(game) -> float:
    """Bets the round distribution's mean of ``game`` may be off its exact RTP, beyond
    roundoff (0 unless :data:`ROUND_MEAN_TOLERANCE` declares it)."""
    return ROUND_MEAN_TOLERANCE.get(game.name, 0.0)


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
