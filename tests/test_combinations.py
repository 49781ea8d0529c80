"""Every combination of game-file sections is either analysed and simulated, or refused by
the loader in one line naming the file and the sections; never a late internal error, never a
silently dropped feature (issue 20, item 7).

A small lines game takes random sets of sections (free spins, a bonus wheel, jackpots on it, a
max-win cap, cascades, frozen bonus symbols, hold & win, base-game modifiers). A set the model
accepts (:data:`slotmath.model.rules.COMBINE`) is analysed and played by the simulator's
front door, which must agree with the analysis within its confidence bound and list every
feature that pays in its components; a set it refuses raises one ``GameFileError`` naming the
file and a section it holds. Memory and endless chains are refused before any computation.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.errors import GameFileError
from slotmath.model.rules import COMBINE

BASE = """
name = "Combo"
rows = 3
bet = 5
coin_value = 0.1
currency = "EUR"
paylines = [[1, 1, 1], [0, 0, 0], [2, 2, 2], [0, 1, 2], [2, 1, 0]]
[symbols]
W = { wild = true, pays = { 3 = 20 } }
A = { pays = { 3 = 10 } }
B = { pays = { 3 = 4 } }
SC = { scatter = true, pays = { 3 = 2 } }
BN = { bonus = true }
C = {}
[reels]
base = [["A", "B", "SC", "BN", "C", "B", "W", "A"], ["B", "A", "C", "SC", "BN", "W", "B", "A", "C"],
        ["A", "SC", "B", "BN", "C", "A", "W", "B"]]
free = [["A", "W", "SC", "B"], ["B", "A", "W", "SC", "B"], ["A", "SC", "B", "W"]]
"""

SECTIONS = {
    "free_spins": """
[free_spins]
trigger = "SC"
awards = { 3 = 3 }
reels = "free"
""",
    "bonus_wheel": """
[bonus_wheel]
symbol = "BN"
count = 3
prizes = [1, 5]
weights = [3, 1]
{jackpots}""",
    "jackpots": """
[[jackpots]]
name = "MINI"
seed = 5
contribution = 0.01
law = "constant"
probability = 0.01
""",
    "max_win": """
[max_win]
bet_multiple = 40
""",
    "cascades": """
[cascades]
refill = "strip"
multiplier = { start = 1, step = 1 }
""",
    "bonus_symbols": """
[bonus_symbols]
threshold = 2
effects = { BW = { wild = "W" } }
arrangements = [ { weight = 1, symbols = ["BW", "BW", "BW"] } ]
""",
    "hold_and_win": """
[hold_and_win]
symbol = "C"
trigger = 3
respins = 1
cash_probability = "1/4"
values = [1, 2]
value_weights = [1, 1]
""",
    "modifiers": """
[modifiers.wilder]
kind = "place"
symbol = "W"
frequency = "1/10"
counts = { 1 = 1 }
""",
}


def game_text(sections) -> str:
    text = BASE
    for name in sections:
        snippet = SECTIONS[name]
        if name == "bonus_wheel":
            snippet = snippet.format(jackpots='jackpots = ["MINI"]\n'
                                     if "jackpots" in sections else "")
        text += snippet
    return text


#: a section that needs another (the loader refuses it alone, naming it)
NEEDS = {"jackpots": "bonus_wheel", "bonus_symbols": "cascades"}


def accepted(sections) -> bool:
    """What the model's rule says (one group holds them all, and what each needs)."""
    return (any(set(sections) <= set(group) for group in COMBINE)
            and all(NEEDS[s] in sections for s in sections if s in NEEDS))


def check(sections) -> None:
    text = game_text(sections)
    try:
        game = slotmath.loads_game(text, "combo.toml")
    except GameFileError as err:
        message = str(err)
        assert "\n" not in message and message.startswith("combo.toml"), message
        assert any(s in message for s in sections), message
        assert not accepted(sections), (sections, message)
        return
    assert accepted(sections), f"{sections} loaded although no group holds them"
    a = slotmath.analyze(game)
    sim = slotmath.simulate(game, 100_000, seed=20261202)
    assert abs(sim.rtp - a.rtp_float) < 5 * sim.std_error + a.rtp_error, (sections, sim.rtp,
                                                                           a.rtp_float)
    window = set(a.features["pays"].components)  # the simulators' "pays"
    paying = {f.name for f in a.declared if f.name in a.components} - window
    assert paying <= set(sim.components) | {"pays"}, (paying, sim.components)
    assert sum(sim.components.values()) == pytest.approx(sim.rtp, rel=1e-9, abs=1e-12)


@settings(max_examples=12, deadline=None)
@given(st.sets(st.sampled_from(sorted(SECTIONS)), max_size=3))
def test_a_random_combination_is_analysed_or_refused(sections):
    check(sorted(sections))


@pytest.mark.parametrize("sections", [
    ("free_spins", "bonus_wheel", "jackpots", "max_win"),
    ("cascades", "free_spins"),
    ("hold_and_win", "modifiers"),
    ("hold_and_win", "free_spins"),
    ("modifiers", "free_spins"),
    ("hold_and_win", "modifiers", "free_spins"),
    ("bonus_wheel", "hold_and_win"),
    ("cascades", "bonus_wheel"),
])
def test_named_combinations(sections):
    check(list(sections))


@pytest.mark.parametrize("sections", [
    ("hold_and_win", "free_spins"),  # Link style (hold & win inside free spins: by key)
    ("modifiers", "free_spins"),  # modifiers in the base game (in free spins: by key)
    ("hold_and_win", "modifiers", "free_spins"),
    ("bonus_wheel", "hold_and_win"),
    ("bonus_wheel", "hold_and_win", "free_spins", "max_win"),
])
def test_the_combinations_issue_21_names_are_accepted(sections):
    """Written by hand, not read from COMBINE: refusing one of these fails. Their figures
    are held to a plain reference by tests/test_combined_rounds.py."""
    slotmath.loads_game(game_text(sections), "combo.toml")


def test_every_pair_is_covered_by_the_rule():
    """The rule speaks of every pair of sections: together in a group, or refused."""
    names = sorted(SECTIONS)
    for a, b in itertools.combinations(names, 2):
        together = any(a in g and b in g for g in COMBINE)
        assert together == any({a, b} <= set(g) for g in COMBINE)


def test_a_state_space_that_cannot_fit_is_refused_up_front():
    """Ten paying scatters counted jointly: 10^10 states, a table of exabytes. It was a
    MemoryError (5.40 TiB) after the start of the analysis; now the file is refused, naming
    the key and the size."""
    symbols = "\n".join(f"S{i} = {{ scatter = true, pays = {{ 3 = 1, 9 = 50 }} }}"
                        for i in range(10))
    strips = ", ".join(f'"S{i}"' for i in range(10))
    text = (f'rows = 3\nbet = 1\nways = true\n[symbols]\nA = {{ pays = {{ 3 = 1 }} }}\n{symbols}\n'
            f'[reels]\nbase = [[{strips}, "A"], [{strips}, "A"], [{strips}, "A"]]\n')
    with pytest.raises(GameFileError, match=r"anywhere\.toml: symbols: .* joint states, a .* "
                                            r"GiB table"):
        slotmath.loads_game(text, "anywhere.toml")


def test_a_cascading_game_whose_free_spins_retrigger_without_a_cap_is_refused():
    text = game_text(["cascades", "free_spins"]).replace('reels = "free"',
                                                         'reels = "free"\nretrigger = true')
    with pytest.raises(GameFileError, match="free_spins.max_spins: missing"):
        slotmath.loads_game(text, "cascading.toml")


def test_a_lines_cascade_game_reports_no_ways():
    """A 5-line cascading game printed ways_in_play {"243": 1} and max_ways 243."""
    game = slotmath.loads_game(game_text(["cascades"]), "lines.toml")
    from slotmath import report

    doc = report.analysis_dict(slotmath.analyze(game))
    assert "max_ways" not in doc and "ways_in_play" not in doc["cascades"]
