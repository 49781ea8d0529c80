"""Base-game modifiers: the exact engine (slotmath.exact.modifiers) against a brute force
written from the rules (tests/modifiers_reference.py), the mixture, the loader's errors, and
the bundled game's figures."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from modifiers_reference import modified_law, place_mean_by_lines

from slotmath.errors import GameFileError
from slotmath.exact.modifiers import modifier_table
from slotmath.io.toml_loader import loads_game
from slotmath.model.modifiers import Modifier

PAYING = ("A", "B", "C")


def _text(spec, modifiers=""):
    pays = "\n".join(f"{s} = {{ pays = {{ {', '.join(f'{k} = {v}' for k, v in t.items())} }} }}"
                     for s, t in spec["pays"].items())
    strips = ", ".join("[" + ", ".join(f'"{x}"' for x in s) + "]" for s in spec["strips"])
    shape = "ways = true" if spec["ways"] else f"paylines = {spec['lines']}"
    sp = spec.get("scatter_pays")
    scatter = (", pays = { " + ", ".join(f"{k} = {v}" for k, v in sp.items()) + " }") if sp else ""
    return f"""
name = "modifier test"
rows = {spec['rows']}
bet = {spec['bet']}
{shape}
[symbols]
W = {{ wild = true }}
S = {{ scatter = true{scatter} }}
{pays}
X = {{}}
[reels]
base = [{strips}]
{modifiers}
"""


def _engine_law(game, modifier, count_symbol, by_first=True):
    t = modifier_table(game, modifier, count_symbol=count_symbol, by_first=by_first)
    cpb = t.credits_per_bet
    return {(c, Fraction(cr, cpb)): Fraction(w, t.cycle) for (c, cr), w in t.weights.items()}


def _modifier_dict(m: Modifier):
    if m.kind == "place":
        return {"kind": "place", "symbol": m.symbol, "counts": dict(m.counts),
                "keep": set(m.keep), "reels": list(m.reels)}
    return {"kind": "upgrade", "from": set(m.from_symbols), "to": dict(m.to)}


SPEC = {
    "rows": 2, "bet": 2, "ways": False, "wild": "W", "lines": [[0, 0, 0], [1, 1, 1], [0, 1, 0]],
    "pays": {"A": {2: 1, 3: 5}, "B": {2: 2, 3: 4}, "C": {3: 3}},
    "strips": [["A", "W", "C", "S"], ["B", "C", "A"], ["S", "A", "C", "B", "W"]],
    "scatter_pays": {2: 1, 4: 5},
}
DYNAMITE = Modifier("dynamite", "place", Fraction(1, 5), symbol="W",
                    counts=((1, 2), (2, 1), (4, 3)), keep=("S",))
PICKAXE = Modifier("pickaxe", "place", Fraction(1, 7), symbol="S", counts=((1, 1), (3, 2)))
TNT = Modifier("tnt", "upgrade", Fraction(1, 9), from_symbols=("C", "X"),
               to=(("A", 1), ("B", 3)))


@pytest.mark.parametrize("modifier", [DYNAMITE, PICKAXE, TNT], ids=lambda m: m.name)
@pytest.mark.parametrize("ways", [False, True])
def test_engine_equals_brute_force(modifier, ways):
    spec = dict(SPEC, ways=ways)
    game = loads_game(_text(spec))
    ref = modified_law(spec, _modifier_dict(modifier), "S")
    assert _engine_law(game, modifier, "S") == ref
    # one pass over every first-reel window (no parts) gives the same table
    assert _engine_law(game, modifier, "S", by_first=False) == ref
    # without a counted symbol: the count column is 0, the credits law the same
    plain = {}
    for (_, b), p in ref.items():
        plain[0, b] = plain.get((0, b), 0) + p
    assert _engine_law(game, modifier, None, by_first=False) == plain


@pytest.mark.parametrize("path", ["coded", "rows", "windows"])
@pytest.mark.parametrize("modifier", [DYNAMITE, PICKAXE], ids=lambda m: m.name)
@pytest.mark.parametrize("ways", [False, True])
def test_every_path_of_the_dp_equals_brute_force(path, modifier, ways, monkeypatch):
    """A place modifier's DP has three paths, each equal to the brute force: states found
    by their code and the last two reels folded at once (``coded``: the default here); the
    codes refused, as past their most words, so the steps compare rows (``rows``); and
    windows that are not grouped by what their units read (``windows``: past 16 columns,
    set to 0 here), whose steps compare rows and whose last reel is the generic fold."""
    from slotmath.exact import cycle, modifiers

    calls = []
    for name in ("_step_coded", "_fold_through", "_step_room", "_fold_in"):
        kernel = getattr(modifiers, name)
        monkeypatch.setattr(modifiers, name,
                            lambda *a, _k=kernel, _n=name: calls.append(_n) or _k(*a))
    if path == "rows":
        monkeypatch.setattr(modifiers, "state_code", lambda *args: None)
    if path == "windows":
        monkeypatch.setattr(cycle, "_MAX_MASK_COLUMNS", 0)
    spec = dict(SPEC, ways=ways)
    game = loads_game(_text(spec))
    assert _engine_law(game, modifier, "S") == modified_law(spec, _modifier_dict(modifier), "S")
    expected = {"coded": {"_step_coded", "_fold_through"},
                "rows": {"_step_room", "_fold_through"},
                "windows": {"_step_room", "_fold_in"}}[path]
    assert set(calls) == expected


@st.composite
def _cases(draw):
    rows = draw(st.integers(1, 2))
    n_reels = 3
    names = ["W", "S", "A", "B", "C", "X"]
    strips = [draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))
              for _ in range(n_reels)]
    pays = {s: {k: draw(st.integers(0, 6)) for k in (2, 3)} for s in PAYING}
    lines = draw(st.lists(st.lists(st.integers(0, rows - 1), min_size=3, max_size=3),
                          min_size=1, max_size=3))
    spec = {"rows": rows, "bet": draw(st.integers(1, 3)), "ways": draw(st.booleans()), "wild": "W",
            "lines": lines, "pays": pays, "strips": strips,
            "scatter_pays": draw(st.sampled_from([{}, {2: 1}, {1: 1, 3: 4}]))}
    kind = draw(st.sampled_from(["place", "upgrade"]))
    if kind == "place":
        reels = tuple(sorted(draw(st.sets(st.integers(1, n_reels), max_size=n_reels))))
        eligible = rows * (len(reels) or n_reels)
        ks = draw(st.sets(st.integers(1, eligible), min_size=1, max_size=3))
        counts = tuple((k, draw(st.integers(1, 4))) for k in sorted(ks))
        symbol = draw(st.sampled_from(["W", "S", "A"]))
        keep = tuple(s for s in draw(st.sets(st.sampled_from(["S", "W", "X"]))) if s != symbol)
        m = Modifier("m", "place", Fraction(1, 2), symbol=symbol, counts=counts, keep=keep,
                     reels=reels)
    else:
        src = tuple(sorted(draw(st.sets(st.sampled_from(["C", "X", "W"]), min_size=1))))
        to = tuple((s, draw(st.integers(1, 3))) for s in
                   sorted(draw(st.sets(st.sampled_from(["A", "B", "S"]), min_size=1))))
        m = Modifier("m", "upgrade", Fraction(1, 2), from_symbols=src, to=to)
    by_first = draw(st.booleans())
    return spec, m, by_first


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_cases())
def test_random_small_games_engine_equals_brute_force(case):
    spec, m, by_first = case
    game = loads_game(_text(spec))
    assert _engine_law(game, m, "S", by_first) == modified_law(spec, _modifier_dict(m), "S")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_cases())
def test_the_mean_by_lines_equals_the_brute_force(case):
    """The linearity reference (each line alone) against the whole-window brute force, on
    lines games without scatter pays: the check it makes on the bundled game can fail."""
    spec, m, _ = case
    if spec["ways"] or m.kind != "place":
        return
    spec = dict(spec, scatter_pays={})
    strips = spec["strips"]
    mod = _modifier_dict(m)
    brute = sum(p * b for (_, b), p in modified_law(spec, mod).items())
    by_lines = place_mean_by_lines(strips, [[1] * len(s) for s in strips],
                                   [spec["rows"]] * len(strips), spec["lines"],
                                   spec["pays"], "W", mod)
    assert by_lines / len(spec["lines"]) == brute


BIG = {
    "rows": 3, "bet": 4, "ways": False, "wild": "W",
    "lines": [[1, 1, 1], [0, 0, 0], [2, 2, 2], [0, 1, 0]],
    "pays": {"A": {2: 1, 3: 5}, "B": {2: 2, 3: 4}, "C": {3: 3}},
    "strips": [["A", "W", "C", "S", "B", "X", "A", "C", "B", "X"],
               ["B", "C", "A", "X", "W", "A", "S", "C", "B", "A"],
               ["S", "A", "C", "B", "W", "X", "C", "A", "B", "C"]],
}
BIG_DYNAMITE = Modifier("dynamite", "place", Fraction(1, 5), symbol="W",
                        counts=((1, 2), (2, 1)), keep=("S",))


def test_parts_over_processes_and_the_store_equal_the_brute_force(tmp_path, monkeypatch):
    """A game with enough first-reel windows that the DP runs in parts over two worker
    processes and stores its table (slotmath.exact.store): equal to the brute force; read
    back from the store without computing; a damaged file is computed again."""
    from slotmath.exact import modifiers

    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path))
    game = loads_game(_text(BIG))
    ref = modified_law(BIG, _modifier_dict(BIG_DYNAMITE), "S")
    reports = []
    t = modifier_table(game, BIG_DYNAMITE, count_symbol="S", workers=2,
                       progress=lambda done, total: reports.append((done, total)))
    cpb = t.credits_per_bet
    law = {(c, Fraction(cr, cpb)): Fraction(w, t.cycle) for (c, cr), w in t.weights.items()}
    assert law == ref
    total = reports[-1][1]
    assert total >= modifiers.PARALLEL_PARTS and reports[0] == (0, total)
    assert reports[-1] == (total, total)
    stored = list((tmp_path / "modifier-dp").glob("*.npy"))
    assert len(stored) == 1

    def refuse(*args):
        raise AssertionError("computed again instead of read from the store")

    monkeypatch.setattr(modifiers, "_run_parts", refuse)
    assert modifier_table(game, BIG_DYNAMITE, count_symbol="S").weights == t.weights
    # another count law is another computation (another key): refused here
    other = Modifier("dynamite", "place", Fraction(1, 5), symbol="W",
                     counts=((1, 2), (3, 1)), keep=("S",))
    with pytest.raises(AssertionError, match="computed again"):
        modifier_table(game, other, count_symbol="S")
    monkeypatch.undo()
    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path))
    stored[0].write_bytes(b"not a table")
    assert modifier_table(game, BIG_DYNAMITE, count_symbol="S", workers=1).weights == t.weights


def test_two_threads_computing_tables_at_once_get_their_own(monkeypatch):
    """The parts' arrays reach the forked workers through a module global
    (slotmath.exact.workers): two threads computing two tables at once over worker processes
    take turns (each table equals the one computed alone)."""
    import threading

    monkeypatch.setenv("SLOTMATH_CACHE", "off")
    game = loads_game(_text(BIG))
    other = Modifier("dynamite", "place", Fraction(1, 5), symbol="W",
                     counts=((2, 1), (3, 1)), keep=())
    alone = [modifier_table(game, m, count_symbol="S", workers=1).weights
             for m in (BIG_DYNAMITE, other)]
    got = [[], []]
    start = threading.Barrier(2)

    def run(i, m):
        start.wait()
        for _ in range(3):  # three runs each: the two overlap for certain
            got[i].append(modifier_table(game, m, count_symbol="S", workers=2).weights)

    threads = [threading.Thread(target=run, args=(i, m))
               for i, m in enumerate((BIG_DYNAMITE, other))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert got == [[a] * 3 for a in alone]


def test_gus_dynamite_has_the_mean_of_its_lines_one_by_one_and_the_plain_nugget_law():
    """The bundled game's Dynamite table (3 to 5 of 15 positions, every stop combination):
    its mean equals the linearity reference (each line alone, its own cells' strip laws and
    which of them were chosen), and since the wild keeps a Gold Nugget its nugget-count law
    is the plain spin's."""
    import slotmath
    from slotmath.exact.cycle import spin_table

    game = slotmath.load_game("data/games/gus_gold_christmas.toml")
    dynamite = next(m for m in game.modifiers if m.name == "dynamite")
    t = modifier_table(game, dynamite, count_symbol="NUGGET")
    reels = game.reel_sets["base"].reels
    pays = {n: dict(s.pays) for n, s in game.symbols.items() if s.pays and not s.scatter}
    by_lines = place_mean_by_lines([r.symbols for r in reels], [r.stop_weights for r in reels],
                                   list(game.rows), game.paylines, pays, "WILD",
                                   _modifier_dict(dynamite))
    assert t.mean_bets == by_lines / game.n_lines
    plain = spin_table(game, count_symbol="NUGGET")

    def counts(table):
        law: dict = {}
        for (c, _), w in table.weights.items():
            law[c] = law.get(c, 0) + Fraction(w, table.cycle)
        return law

    assert counts(t) == counts(plain)
    assert t.mean_bets > 5 * plain.mean_bets  # the wilds pay: the check is not vacuous


def test_a_mutated_reference_disagrees():
    """The comparison can fail: a reference placing one more wild differs."""
    game = loads_game(_text(SPEC))
    mutated = dict(_modifier_dict(DYNAMITE), counts={2: 2, 3: 1, 5: 3})
    assert _engine_law(game, DYNAMITE, "S") != modified_law(SPEC, mutated, "S")


GOOD = """
[modifiers.dynamite]
kind = "place"
symbol = "W"
frequency = "1/5"
counts = { 1 = 2, 2 = 1 }
keep = ["S"]

[modifiers.tnt]
kind = "upgrade"
frequency = "1/10"
from = ["C"]
to = { A = 1, B = 2 }
"""


def test_loader_reads_the_modifiers():
    game = loads_game(_text(SPEC, GOOD))
    d, t = game.modifiers.modifiers
    assert (d.name, d.kind, d.frequency, d.counts, d.keep, d.reels) == (
        "dynamite", "place", Fraction(1, 5), ((1, 2), (2, 1)), ("S",), ())
    on_two = loads_game(_text(SPEC, GOOD.replace('keep = ["S"]', 'keep = ["S"]\nreels = [2, 3]')))
    assert on_two.modifiers.modifiers[0].reels == (2, 3)
    assert (t.from_symbols, t.to) == (("C",), (("A", 1), ("B", 2)))
    assert game.modifiers.none_probability == Fraction(7, 10)


@pytest.mark.parametrize("edit, key, words", [
    (("kind = \"place\"\nsymbol", "kind = \"drop\"\nsymbol"), "modifiers.dynamite.kind",
     "must be one of place, upgrade"),
    (('frequency = "1/5"', 'frequncy = "1/5"'), "modifiers.dynamite.frequncy",
     "did you mean 'frequency'"),
    (('frequency = "1/5"', 'frequency = "6/5"'), "modifiers.dynamite.frequency", "(0, 1]"),
    (('frequency = "1/10"', 'frequency = "9/10"'), "modifiers.frequency", "sum to at most 1"),
    (("counts = { 1 = 2, 2 = 1 }", "counts = { 1 = 2, 7 = 1 }"),
     "modifiers.dynamite.counts.7", "the window has 6 positions"),
    (("counts = { 1 = 2, 2 = 1 }", "counts = { 1 = 0 }"), "modifiers.dynamite.counts",
     "must not all be 0"),
    (('keep = ["S"]', 'keep = ["S"]\nreels = [2, 4]'), "modifiers.dynamite.reels",
     "reel 4 does not exist: the game has 3 reels"),
    (('keep = ["S"]', 'keep = ["S"]\nreels = [2, 2]'), "modifiers.dynamite.reels",
     "lists a reel twice"),
    (('keep = ["S"]', 'keep = ["S"]\nreels = [0]'), "modifiers.dynamite.reels[0]", ">= 1"),
    (('keep = ["S"]', 'keep = ["S"]\nreels = 2'), "modifiers.dynamite.reels",
     "list of reel numbers"),
    (('keep = ["S"]', 'keep = ["S"]\nreels = []'), "modifiers.dynamite.reels",
     "leave the key out for every reel"),
    (('counts = { 1 = 2, 2 = 1 }\nkeep = ["S"]', 'counts = { 3 = 1 }\nkeep = ["S"]\nreels = [2]'),
     "modifiers.dynamite.counts.3", "reels [2] have 2 positions"),
    (('from = ["C"]', 'from = ["C"]\nreels = [1]'), "modifiers.tnt.reels", "unknown key"),
    (('symbol = "W"', 'symbol = "Z"'), "modifiers.dynamite.symbol", "not declared"),
    (('to = { A = 1, B = 2 }', 'to = { A = 1, C = 2 }'), "modifiers.tnt.to",
     "both upgraded and upgraded to"),
    (('from = ["C"]\n', ''), "modifiers.tnt.from", "missing"),
])
def test_loader_errors_name_the_file_and_key(edit, key, words):
    text = _text(SPEC, GOOD.replace(*edit))
    with pytest.raises(GameFileError) as info:
        loads_game(text, "g.toml")
    message = str(info.value)
    assert "g.toml" in message and key in message and words in message, message


def test_modifiers_combine_with_free_spins_and_refuse_a_wheel():
    """Modifiers with free spins are analysed (tests/test_combinations.py checks them);
    with a bonus wheel they are refused in one line naming both sections."""
    free = """
[free_spins]
trigger = "S"
awards = { 2 = 5 }
"""
    assert loads_game(_text(SPEC, GOOD) + free, "g.toml").free_spins is not None
    wheel = """
[bonus_wheel]
symbol = "A"
count = 2
prizes = [1, 2]
weights = [1, 1]
"""
    text = _text(SPEC, GOOD).replace("[symbols]\n", "[symbols]\nBN = { bonus = true }\n", 1)
    with pytest.raises(GameFileError, match="\\[bonus_wheel\\] with \\[modifiers\\] is not supported"):
        loads_game(text + wheel.replace('"A"', '"BN"'), "g.toml")


HW = """
[hold_and_win]
symbol = "S"
trigger = 2
respins = 1
cash_probability = "1/3"
values = [1, 2]
value_weights = [1, 1]
"""


def test_analysis_mixes_the_modifiers_into_the_paid_round_exactly():
    """RTP, components and shares of a toy hold & win game with modifiers, from the brute
    force's law of each paid spin (the round's mean per start count from the feature)."""
    import slotmath

    game = loads_game(_text(SPEC, GOOD + HW))
    a = slotmath.analyze(game)
    assert a.exact
    feature = next(f for f in a.round.features if f.name == "hold_and_win")

    def round_mean(law):
        return sum((p * (b + (feature.law(c).mean if c >= 2 else 0))
                    for (c, b), p in law.items()), Fraction(0))

    plain = round_mean(modified_law(SPEC, None, "S"))
    rounds = {m.name: round_mean(modified_law(SPEC, _modifier_dict(m), "S"))
              for m in game.modifiers}
    freq = {m.name: m.frequency for m in game.modifiers}
    expected = plain + sum(freq[n] * (r - plain) for n, r in rounds.items())
    assert a.rtp == expected
    assert sum(a.components.values()) == a.rtp
    for name, r in rounds.items():
        share = a.features["modifiers"].shares[name]
        assert share.round == r and share.rtp == freq[name] * r
        assert a.components[name] == share.uplift == freq[name] * (r - plain)
    # the plain game's hold & win share, and the trigger law of the mixed paid spin
    assert a.components["scatter"] > 0
    assert sum(v for k, v in a.components.items() if k not in rounds) == plain
    mixed = {}
    for law, p in [(modified_law(SPEC, None, "S"), game.modifiers.none_probability)] + [
            (modified_law(SPEC, _modifier_dict(m), "S"), m.frequency) for m in game.modifiers]:
        for (c, _), q in law.items():
            if c >= 2:
                mixed[c] = mixed.get(c, 0) + p * q
    assert a.round.start_probabilities("hold_and_win") == dict(sorted(mixed.items()))


def test_frequencies_move_only_the_uplifts_and_the_panel_follows():
    """components_at against a second analysis of the file at the new frequencies."""
    import slotmath
    from slotmath.features.modifiers import components_at
    from slotmath.widgets.modifiers_panel import modifiers_panel

    a = slotmath.analyze(loads_game(_text(SPEC, GOOD + HW)))
    new = {"dynamite": Fraction(1, 3), "tnt": Fraction(1, 50)}
    b = slotmath.analyze(loads_game(_text(SPEC, GOOD.replace('"1/5"', '"1/3"').replace(
        '"1/10"', '"1/50"') + HW)))
    assert components_at(a.components, a.features["modifiers"].shares, new) == b.components
    panel = modifiers_panel(a)
    sliders = panel.children[:2]
    html = panel.children[2]
    before = html.value
    sliders[0].value = 40
    assert html.value != before and "game RTP" in html.value
