"""The bundled games (data/games/*.toml) the generic per-game suites analyse.

A game no exact engine reaches is simulated (its file's header says why; ``slotmath analyze``
plays the rounds its ``[analysis]`` gives, a minute or more): ``SUITE_ROUNDS`` names it with the
paid rounds the generic suites play instead, through ``Game.with_analysis`` (:func:`load`), so
every figure they check is read with its own interval at those rounds. A suite that cannot
apply to such a game (figures recorded as exact fractions, a full-cycle table split into parts)
leaves it out by declaration in ``NOT_APPLICABLE``, with the reason and the test that covers
it instead; ``test_bundled_grid_games_are_declared`` (tests/test_grid_games.py) checks every
simulated game is named there and that each suite reads its games through :func:`games_for`.

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

#: game -> (its benchmark, its own tests). Frozen Gems' exact RTP (40^5 stop combinations
#: through every cascade chain on two reel sets, ~15 s on 2 quiet cores) is recomputed and held
#: to its header's fraction by its own tests; tried in the generic suites (2026-12-04), it cost
#: 6.7 minutes of 2 loaded cores (each xdist worker analyses it again, and the seeded
#: simulation, the round distribution's mean and the workbook's pay table each need a
#: cascade-specific rule: a heavy tail 200,000 rounds cannot bound, a sampled free-spin law whose
#: stated mean_error is 1.1e-3 bets, the pay sheet's own title)
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
#: an FFT grid that doubles until its mean is the exact mean or the grid's work budget
#: (slotmath.markov.free_spin_state.WORK) stops it; past it the far tail folds back (the JSON's
#: aliased_mass_bound and mean_error). Measured: Big Catch -1.1e-8, Sticky Paws -5.7e-6
#: (Book of Gold's grid closes: 1.3e-12); before the grid grew they were -7.8e-4 and -7.1e-4
ROUND_MEAN_TOLERANCE = {"Big Catch": 5e-8, "Sticky Paws": 2e-5}


def round_mean_tolerance(game) -> float:
    """Bets the round distribution's mean of ``game`` may be off its exact RTP, beyond
    roundoff (0 unless :data:`ROUND_MEAN_TOLERANCE` declares it)."""
    return ROUND_MEAN_TOLERANCE.get(game.name, 0.0)


#: simulated games -> the paid rounds (seed: the file's) the generic suites analyse them over
SUITE_ROUNDS = {"cluster_crush": 1 << 16, "megaways_bonanza": 1 << 16,
                "sugar_tumble": 1 << 17}

#: suite -> {game: why the suite cannot apply, and what checks that instead}
NOT_APPLICABLE = {
    "golden": {name: "a golden file records exact fractions (and numerical figures with their "
                     "error bounds) written by code older than the simulator; a simulated "
                     "figure's record would be its own output: the seeded run is checked to "
                     "repeat on any number of cores and its RTP against the brute force "
                     "(tests/test_grid_games.py)" for name in SUITE_ROUNDS},
    "chunks": {name: "no full-cycle spin table to split into first-reel parts: the simulation "
                     "is split into seed blocks instead, the same on any number of cores "
                     "(tests/test_grid_games.py::test_simulator_same_on_any_number_of_threads_"
                     "and_differs_by_seed)" for name in SUITE_ROUNDS},
    "compliance": {name: "on a simulated game the odds rules fail every pay-table entry its "
                         "suite rounds did not show (it cannot be shown 1 in 1e8 by them) and "
                         "the top award (the largest win seen): a list set by the seed and the "
                         "rounds, not by the design; the simulated rates are checked against "
                         "exact ones, and unseen entries' notes, in tests/test_grid_compliance.py"
                   for name in SUITE_ROUNDS},
}


def games_for(suite: str) -> list[Path]:
    """The analysed games the generic ``suite`` runs over (those ``NOT_APPLICABLE`` declares
    out of it left out)."""
    return [p for p in ANALYSED if p.stem not in NOT_APPLICABLE.get(suite, {})]


def load(path):
    """The bundled game at ``path`` as the generic suites analyse it: a simulated one over its
    ``SUITE_ROUNDS`` (its file's ``[analysis]`` gives the full report's rounds)."""
    import slotmath

    game = slotmath.load_game(path)
    rounds = SUITE_ROUNDS.get(Path(path).stem)
    return game if rounds is None else game.with_analysis(rounds=rounds)


def simulation_spins(game) -> int:
    """Paid rounds of ``game`` a generic suite's seeded simulation plays."""
    return SIMULATION_SPINS.get(game.name, 200_000)


@cache
def _loaded(path: str):
    return load(path)


@cache
def _analysed(path: str, level: int):
    import slotmath

    # one game object per path: its levels share what the engine shares between the levels
    # of one game (Jingle Spin's conveyor, slotmath.features.conveyor.shared_feature)
    return slotmath.analyze(_loaded(path), level)


def analysed(path, level: int = 1):
    """The analysis of the bundled game at ``path`` and ``level``, made once per test session
    and shared by the generic suites (golden, report, JSON shape, workbook, architecture):
    each reads figures from it and checks them against its own independent path, so sharing
    the object removes repeated minutes of the same enumeration, not a check."""
    return _analysed(str(Path(path).resolve()), int(level))
