"""``slotmath analyze --json``: every figure in one shape, for every bundled game.

The shape is documented in docs/game-format.md ("The JSON document"); each figure is
``{"exact": "p/q" or null, "float": x}``. Before it, ``rtp`` was a "p/q" string for exact games
and a float for jackpot games, and ``components`` mixed the two.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from bundled import ALL, BENCHMARK_ONLY, analysed

import slotmath
from slotmath import report
from slotmath.features.registry import declared
from slotmath.report.figures import figure, is_figure, read_figure

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "game-format.md"
#: every bundled game at its first level, and the highest level of the games with several
CASES = sorted({(p.stem, level) for p in ALL
                for level in {min(slotmath.load_game(p).bet_levels),
                              max(slotmath.load_game(p).bet_levels)}})

#: where figures always are (a path through dicts; "*" is every key or list item)
FIGURE_PATHS = [
    "rtp", "hit_frequency", "base_hit_frequency", "std", "std_with_jackpots", "variance",
    "volatility_index.*", "components.*", "max_win.multiple", "max_win.probability",
    "win_sizes.*.probability", "win_sizes.*.rtp_share", "pays.*.hits_per_spin", "pays.*.rtp",
    "scatters.*.probability", "scatters.*.rtp", "free_spins.trigger_probability",
    "free_spins.expected_spins", "free_spins.expected_win", "free_spins.rtp",
    "bonus_wheel.mean_prize", "bonus_wheel.rtp", "bonus_wheel.wheel_spins_per_spin.*",
    "bonus_wheel.divisions.*.probability", "coin_round.rtp", "jackpots.rtp",
    "jackpots.wheel_spins_per_round", "jackpots.pools.*.rtp", "jackpots.pools.*.mean_value_at_hit",
    "max_win_cap.rtp_effect", "max_win_cap.probability_capped",
    "max_win.paid_spin_top.multiple", "hold_and_win.trigger_probability",
    "hold_and_win.trigger_one_in", "hold_and_win.rtp", "hold_and_win.expected_win",
    "hold_and_win.expected_respins", "hold_and_win.fill_probability",
    "hold_and_win.boosters.*.at_least.*", "hold_and_win.boosters.*.expected_per_round",
    "hold_and_win.tail.*.probability", "hold_and_win.start_probabilities.*",
    "modifiers.by_modifier.*.frequency", "modifiers.by_modifier.*.lines",
    "modifiers.by_modifier.*.round", "modifiers.by_modifier.*.rtp",
    "modifiers.by_modifier.*.uplift", "modifiers.by_modifier.*.trigger_probability",
    "cascades.cascade_counts.*", "cascades.expected_cascades", "cascades.final_multiplier.*",
    "cascades.ways_in_play.*", "stationary.holding.*",
]
#: text fields that hold a number on purpose (the exact copies kept for older readers)
NUMBER_TEXT = {"rtp_exact", "rtp_effect_exact"}
#: labels, which may read like a number ("0", the no-win band; a symbol called "7")
LABELS = {"band", "symbol", "division", "name"}


def _document(name: str, level: int) -> dict:
    """The JSON of a bundled game; a game whose whole analysis is a benchmark
    (tests/bundled.py) through the fast stand-in one of its features declares."""
    path = ROOT / "data" / "games" / f"{name}.toml"
    if name in BENCHMARK_ONLY:
        game = slotmath.load_game(path)
        variants = [f.fast(game) for f in declared(game) if f.fast is not None]
        assert variants, f"{name}: a benchmark-only game needs a declared fast stand-in"
        a = slotmath.analyze(variants[0], level)
    else:
        a = analysed(path, level)
    return json.loads(json.dumps(report.analysis_dict(a), default=str)), a


def _at(doc, path: str):
    head, _, rest = path.partition(".")
    if doc is None:
        return []
    items = (list(doc.values()) if isinstance(doc, dict) else list(doc)) if head == "*" else (
        [doc[head]] if head in doc else [])
    return items if not rest else [x for item in items for x in _at(item, rest)]


def _leaves(doc, key=""):
    if is_figure(doc):
        yield key, doc
    elif isinstance(doc, dict):
        for k, v in doc.items():
            yield from _leaves(v, k)
    elif isinstance(doc, list):
        for v in doc:
            yield from _leaves(v, key)
    else:
        yield key, doc


def _looks_like_a_number(text: str) -> bool:
    try:
        Fraction(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("name, level", CASES, ids=[c[0] for c in CASES])
def test_every_figure_has_one_shape(name, level):
    doc, a = _document(name, level)
    check_shape(doc, a, name)


def check_shape(doc: dict, a, name: str) -> None:
    """Every figure of ``doc`` (the JSON of analysis ``a``) in the one shape."""
    found = 0
    for path in FIGURE_PATHS:
        for value in _at(doc, path):
            found += 1
            assert is_figure(value), f"{name}: {path} is {value!r}, not a figure"
    assert found >= 10
    for key, value in _leaves(doc):
        if is_figure(value):
            x = read_figure(value)  # fixed fields, a finite float
            if value["exact"] is not None:
                assert value["float"] == float(x)
                assert str(x) == value["exact"]  # reduced, like str(Fraction)
        elif isinstance(value, str):
            assert key in NUMBER_TEXT | LABELS or not _looks_like_a_number(value), (
                f"{name}: {key} = {value!r} is a number as text outside a figure")
    # exact where the analysis is exact, numerical where it is not, the float copies agree
    assert (doc["rtp"]["exact"] is not None) == a.exact == doc["rtp_exact"]
    assert doc["rtp"]["float"] == doc["rtp_float"] == a.rtp_float
    assert set(doc["components"]) == set(doc["components_float"]) == set(a.components)
    for k, v in a.components.items():
        assert read_figure(doc["components"][k]) == v
        assert doc["components"][k]["float"] == doc["components_float"][k]


def test_exact_components_add_up_to_the_exact_rtp():
    doc, a = _document("classic_fruits", 1)
    assert sum(Fraction(c["exact"]) for c in doc["components"].values()) == Fraction(
        doc["rtp"]["exact"]) == a.rtp
    pays = [Fraction(p["rtp"]["exact"]) for p in doc["pays"]]
    assert sum(pays) == a.components["lines"]


def test_a_jackpot_game_mixes_exact_and_numerical_figures_in_the_same_fields():
    doc, _ = _document("gold_money_frog", 4)
    assert doc["rtp"]["exact"] is None and doc["components"]["jackpots"]["exact"] is None
    assert doc["components"]["lines"]["exact"] is not None  # exact parts stay exact
    assert doc["coin_round"]["rtp"]["exact"] is not None


def test_figure_refuses_what_is_not_a_number():
    for bad in ("1/2", None, True, [1]):
        with pytest.raises(TypeError):
            figure(bad)
    with pytest.raises(TypeError):
        figure(0.5, exact=True)
    assert figure(Fraction(1, 2), exact=False) == {"exact": None, "float": 0.5}
    with pytest.raises(ValueError):
        read_figure({"exact": None, "float": 1.0, "error": 0.1})


def test_the_format_doc_describes_the_shape():
    text = DOC.read_text()
    assert "## The JSON document" in text
    section = text.split("## The JSON document", 1)[1]
    assert '{"exact": "411/448", "float": 0.9174107142857143}' in section
    assert "figure(value)" in section
