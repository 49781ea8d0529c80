"""Hypothesis strategies for small games whose free spins carry a state (expanding symbol,
sticky wilds, collector) or draw their awards / grow their multiplier: 3 reels of 2-4 stops,
1-3 rows, 1-3 paylines, features of at most 4 spins, so that the brute-force reference
(tests/free_spin_state_reference.py) stays fast."""

from __future__ import annotations

from hypothesis import strategies as st

from slotmath.io.toml_loader import game_from_dict

KINDS = ("expanding_symbol", "sticky_wilds", "collector", None)

_pay = st.sampled_from([1, 2, 3, 5, "1/2", "5/2"])


def _strip(draw, names, lo=2, hi=4):
    return draw(st.lists(st.sampled_from(names), min_size=lo, max_size=hi))


@st.composite
def state_games(draw, kind: str | None = "any"):
    """A small game whose free spins have the state ``kind`` (None: random awards and/or a
    growing multiplier only; "any": one of them)."""
    if kind == "any":
        kind = draw(st.sampled_from(KINDS))
    rows = draw(st.integers(1, 2 if kind == "collector" else 3))
    lines = draw(st.lists(st.lists(st.integers(0, rows - 1), min_size=3, max_size=3),
                          min_size=1, max_size=3, unique_by=tuple))
    symbols = {
        "A": {"pays": {"2": draw(_pay), "3": draw(_pay)}} if draw(st.booleans())
        else {"pays": {"3": draw(_pay)}},
        "K": {"pays": {"3": draw(_pay)}},
        "X": {},
    }
    trigger = "S"
    symbols["S"] = {"scatter": True}
    if draw(st.booleans()):
        symbols["S"]["pays"] = {"2": draw(_pay)}
    plain = ["A", "K", "X", "S"]
    free_extra: list[str] = []
    spec: dict = {}
    if kind == "expanding_symbol":
        if draw(st.booleans()):  # the trigger is a wild scatter, as a Book game's book
            trigger = "B"
            symbols["B"] = {"wild": True, "scatter": True}
            if draw(st.booleans()):
                symbols["B"]["pays"] = {"2": draw(_pay)}
            plain = ["A", "K", "X", "B"]
            del symbols["S"]
        spec["expanding_symbol"] = {"symbols": {"A": draw(st.integers(0, 3)),
                                                "K": draw(st.integers(1, 3))}}
    elif kind == "sticky_wilds":
        symbols["W"] = {"wild": True, "multiplier": draw(st.integers(1, 3))}
        free_extra = ["W", "W"]
        sticky = ["W"]
        # two sticky wilds on 3 rows: 27 ** 3 landing patterns a spin, refused (too large)
        if rows < 3 and draw(st.booleans()):
            symbols["V"] = {"wild": True, "multiplier": draw(st.integers(2, 3))}
            free_extra.append("V")
            sticky.append("V")
        spec["sticky_wilds"] = {"symbols": sticky}
    elif kind == "collector":
        symbols["C"] = {"wild": True}
        symbols["F"] = {"pays": {"3": draw(_pay)}} if draw(st.booleans()) else {}
        free_extra = ["C", "F", "F"]
        values = draw(st.dictionaries(st.sampled_from(["1", "2", "1/2"]), st.integers(1, 3),
                                      min_size=1, max_size=2))
        spec["collector"] = {"cash": ["F"], "values": values, "collector": "C",
                             "every": draw(st.integers(1, 2)),
                             "retrigger": draw(st.integers(0, 1)),
                             "ladder": draw(st.lists(st.integers(2, 3), min_size=1,
                                                     max_size=2)),
                             "applies": draw(st.sampled_from(["collected", "all"]))}
    else:
        symbols["W"] = {"wild": True, "multiplier": draw(st.integers(1, 2))}
        free_extra = ["W"]
    count = draw(st.integers(1, 2))
    if kind is None or draw(st.booleans()):
        spec["random_awards"] = {str(count): {"1": draw(st.integers(1, 3)),
                                              "2": draw(st.integers(0, 2))}}
    else:
        spec["awards"] = {str(count): draw(st.integers(1, 2))}
    if kind is None and "random_awards" in spec and draw(st.booleans()) or (
            kind is not None and draw(st.booleans())):
        spec["multiplier_growth"] = draw(st.sampled_from([
            {"per": "spin", "ladder": [1, 2, 3]}, {"per": "spin", "start": 1, "step": 1,
                                                   "max": 3}]))
    if draw(st.booleans()):
        spec["retrigger"] = True
        spec["max_spins"] = draw(st.integers(2, 4))
        if "random_awards" in spec:
            spec["retrigger_awards"] = {str(count): 1}
    spec["multiplier"] = draw(st.integers(1, 2))
    base_names = plain + [s for s in ("W", "V", "C", "F") if s in symbols]
    free_names = plain + free_extra
    data = {
        "name": f"generated {kind}",
        "rows": rows,
        "bet": 1,
        "paylines": lines,
        "line_multipliers": draw(st.sampled_from(["multiply", "add"])),
        "symbols": symbols,
        "reels": {"base": [_strip(draw, base_names) for _ in range(3)],
                  "free": [_strip(draw, free_names) for _ in range(3)]},
        "free_spins": {"trigger": trigger, "reels": "free"} | spec,
    }
    return game_from_dict(data, "generated")
