"""Command line: ``slotmath analyze``, ``simulate``, ``check``, ``report``, ``tune``,
``workbench``, ``player``, ``export-stake`` and ``verify-stake``.

Bad input is reported on one line naming the file, the key and what is wrong, with exit
status 2; the CLI never prints a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys

from slotmath.errors import GameFileError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1


FILE_HELP = "game file (TOML, see docs/game-format.md), e.g. data/games/classic_fruits.toml"
#: a progress bar shows once a run has taken this long (seconds)
PROGRESS_DELAY = 2.0


def _whole_number(text: str) -> int:
    """A count or seed as typed: ``1000000``, ``1_000_000``, ``1,000,000`` or ``1e6``."""
    cleaned = text.strip().replace("_", "").replace(",", "")
    try:
        return int(cleaned)
    except ValueError:
        pass
    try:
        value = float(cleaned)
    except ValueError:
        value = float("nan")
    if not value.is_integer():  # nan, inf and 2.5 alike
        raise argparse.ArgumentTypeError(f"must be a whole number like 1000000 or 1e6, "
                                         f"got {text!r}")
    return int(value)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, like every other bad input
        self.exit(EXIT_BAD_INPUT, f"slotmath: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="slotmath", description="Exact slot-game mathematics.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    a = sub.add_parser("analyze", help="exact PAR sheet of a game file")
    a.add_argument("file", help=FILE_HELP)
    a.add_argument("--json", action="store_true", help="print the analysis as JSON")
    a.add_argument("--bet-level", type=int, default=None,
                   help="bet level (default: the game's first level)")
    a.add_argument("--coin-value", default=None, metavar="X",
                   help="currency per coin, instead of the file's coin_value (jackpot seeds "
                        "and currency caps are in currency, so the figures depend on it)")
    a.add_argument("--progress", action="store_true",
                   help="show a progress bar of the full-cycle enumeration (without it, a bar "
                        "of the analysis' stages appears when it takes over 2 s)")
    _settings_arguments(a)
    a.add_argument("--mode", default=None, metavar="NAME",
                   help="analyse the game mode [modes.NAME] (a bonus buy, an ante bet): money "
                        "per amount it costs")
    _executor_arguments(a)
    s = sub.add_parser("simulate", help="seeded Monte Carlo cross-check")
    s.add_argument("file", help=FILE_HELP)
    s.add_argument("--spins", type=_whole_number, required=True, metavar="N",
                   help="paid rounds to play: 1000000, 1_000_000 or 1e6")
    s.add_argument("--seed", type=_whole_number, default=None, metavar="S",
                   help="seed of the random generator; the same seed gives the same figures "
                        "(default: a fresh one, printed with the results)")
    s.add_argument("--json", action="store_true", help="print the results as JSON")
    s.add_argument("--bet-level", type=int, default=None,
                   help="bet level (default: the game's first level)")
    s.add_argument("--coin-value", default=None, metavar="X",
                   help="currency per coin, instead of the file's coin_value")
    s.add_argument("--progress", action="store_true",
                   help="show a progress bar from the start (without it, one appears when the "
                        "run takes over 2 s)")
    s.add_argument("--mode", default=None, metavar="NAME",
                   help="play the game mode [modes.NAME] (a bonus buy, an ante bet): money per "
                        "amount it costs")
    _executor_arguments(s)
    _check_parser(sub)
    _report_parser(sub)
    _tune_parser(sub)
    _workbench_parser(sub)
    _player_parser(sub)
    _publish_parsers(sub)
    return p


def _executor_arguments(a) -> None:
    """``--dask`` and ``--workers``: the chunked work on a Dask cluster (docs/scaling.md)."""
    g = a.add_mutually_exclusive_group()
    g.add_argument("--dask", default=None, metavar="ADDRESS",
                   help="run the chunked work on the Dask scheduler at ADDRESS "
                        "(tcp://HOST:8786; needs pip install 'slotmath[dask]')")
    g.add_argument("--workers", type=_whole_number, default=None, metavar="N",
                   help="run the chunked work on a local Dask cluster of N processes "
                        "(simulations then play in seed streams: the same on any N)")


@contextlib.contextmanager
def _executor(args):
    """The executor ``--dask`` or ``--workers`` asks for, current for the command."""
    dask, workers = getattr(args, "dask", None), getattr(args, "workers", None)
    if dask is None and workers is None:
        yield
        return
    from slotmath import parallel

    label = "--dask" if dask is not None else "--workers"
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(parallel.executor(dask=dask, workers=workers))
        except ValueError as exc:  # Dask missing, no scheduler there, workers < 1
            raise GameFileError(None, label, str(exc)) from None
        yield


def _settings_arguments(a) -> None:
    """The options that set a game's [analysis] (games whose exact analysis may be out of
    reach: exact within a limit, else a simulated PAR sheet)."""
    a.add_argument("--method", choices=("auto", "exact", "simulate"), default=None,
                   help="auto: exact when the up-front estimate is within the limit, else "
                        "simulated; exact: exact or refused; simulate (default: the file's)")
    a.add_argument("--exact-limit", type=_whole_number, default=None, metavar="N",
                   help="the most steps the exact engine may be estimated to take")
    a.add_argument("--accuracy", default=None, metavar="X",
                   help="simulated PAR: the RTP's 95%% half-width in total bets, e.g. 0.001")
    a.add_argument("--rounds", type=_whole_number, default=None, metavar="N",
                   help="simulated PAR: play exactly N rounds (instead of --accuracy)")
    a.add_argument("--seed", type=_whole_number, default=None, metavar="S",
                   help="simulated PAR: the seed (the same on any number of cores)")


def _with_settings(game, args):
    """``game`` with the [analysis] options given on the command line (a note when the game
    reads none: its analysis is exact as it stands)."""
    from fractions import Fraction

    changes = {k: getattr(args, k) for k in ("method", "exact_limit", "rounds", "seed")
               if getattr(args, k) is not None}
    if args.accuracy is not None:
        try:
            changes["accuracy"] = Fraction(args.accuracy)
        except (ValueError, ZeroDivisionError):
            raise GameFileError(None, "--accuracy", f"must be a number > 0 like 0.001, got "
                                                    f"{args.accuracy!r}") from None
    if not changes:
        return game
    changed = game.with_analysis(**changes)
    if changed is game:
        print(f"slotmath: note: {', '.join('--' + k.replace('_', '-') for k in changes)} "
              f"changes nothing for {game.name}: its analysis is exact as it stands",
              file=sys.stderr)
    return changed


def _workbench_parser(sub) -> None:
    w = sub.add_parser("workbench", help="write a notebook for a game file (PAR sheet, charts, "
                                         "strip editor, wheel and jackpot panels) and open it")
    w.add_argument("file", help="the game's TOML file")
    w.add_argument("--output", default=None, metavar="OUT.ipynb",
                   help="where to write the notebook (default: FILE's name + _workbench.ipynb "
                        "here); an existing one is kept and opened")
    w.add_argument("--force", action="store_true", help="rewrite an existing notebook")
    w.add_argument("--bet-level", type=int, default=None,
                   help="bet level of the panels (default: the game's first level)")
    w.add_argument("--voila", action="store_true", help="open it as a Voila app instead")
    w.add_argument("--no-open", action="store_true", help="only write the notebook")
    w.add_argument("--port", type=int, default=None, help="the server's port")


#: ``slotmath check``'s help, written out so that ``--help`` imports nothing heavy (a test holds
#: it to slotmath.report.compliance's RULE_SETS and LIMITS)
CHECK_RULE_SETS = "gli11,anz,ukgc,modes"
CHECK_LIMITS = ("gli11.games (default 1e+08), anz.min_rtp (default 0.87), "
                "anz.pattern_plays (default 7e+06), modes.min_rtp (default 0.87), "
                "modes.spread (default 0.005), modes.max_win_plays (default 0)")


def _check_parser(sub) -> None:
    c = sub.add_parser("check", help="compliance check against GLI-11, ANZ/NZ and UKGC rules "
                                     "(exit 1 when any rule fails)")
    c.add_argument("file", help=FILE_HELP)
    c.add_argument("--rules", default=None, metavar="SETS",
                   help=f"comma-separated rule sets (default: {CHECK_RULE_SETS}; also stake: "
                        "Stake Engine's approval rules)")
    c.add_argument("--json", action="store_true", help="print the tables as JSON")
    c.add_argument("--bet-level", type=int, default=None,
                   help="check this bet level only (default: every level)")
    c.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                   help=f"change a limit: {CHECK_LIMITS}")


def _report_parser(sub) -> None:
    r = sub.add_parser("report", help="PAR report files: xlsx workbook, self-contained HTML")
    r.add_argument("file", help=FILE_HELP)
    r.add_argument("--bet-level", type=int, default=None,
                   help="bet level (default: the game's first level)")
    r.add_argument("--xlsx", default=None, metavar="OUT.xlsx", help="write the workbook here")
    r.add_argument("--html", default=None, metavar="OUT.html", help="write the HTML report here")


def _ruin_case(text: str) -> tuple[int, int]:
    """A risk-of-ruin case as typed: ``BANKROLL,ROUNDS`` (``100,1e4``)."""
    parts = text.replace(":", ",").split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"must be BANKROLL,ROUNDS like 100,1000, got {text!r}")
    return _whole_number(parts[0]), _whole_number(parts[1])


#: ``slotmath player``'s and ``export-stake``'s help, written out so that ``--help`` imports
#: nothing heavy (tests/test_stake_export.py holds them to slotmath.report.player's defaults and
#: slotmath.publish.ROUNDINGS)
PLAYER_ROUNDS = "100, 1000, 10000, 100000, 1000000"
PLAYER_RUIN = "100,1000 1000,10000"
STAKE_ROUNDINGS = ("nearest", "down", "keep-rtp")


def _player_parser(sub) -> None:
    pl = sub.add_parser("player", help="the player's view over N rounds: P(ahead), session RTP "
                                       "quantiles, risk of ruin, loss per hour, exact beside "
                                       "the normal approximation")
    pl.add_argument("file", help=FILE_HELP)
    pl.add_argument("--rounds", action="append", type=_whole_number, default=None, metavar="N",
                    help=f"a session length (repeatable; default {PLAYER_ROUNDS})")
    pl.add_argument("--ruin", action="append", type=_ruin_case, default=None,
                    metavar="BANKROLL,ROUNDS",
                    help=f"a risk-of-ruin case, bankroll in bets (repeatable; default "
                         f"{PLAYER_RUIN})")
    pl.add_argument("--cycle", type=float, default=2.5, metavar="SECONDS",
                    help="seconds a round, for the loss per hour (default 2.5, the UK and "
                         "Ontario minimum)")
    pl.add_argument("--bet-level", type=int, default=None,
                    help="bet level (default: the game's first level)")
    pl.add_argument("--json", action="store_true", help="print the figures as JSON")


def _player(args) -> int:
    import slotmath
    from slotmath.report.player import (
        DEFAULT_ROUNDS,
        DEFAULT_RUIN,
        player_dict,
        player_summary,
        player_text,
    )
    from slotmath.report.progress import compute

    game = slotmath.load_game(args.file)
    analysis = slotmath.analyze(game, _level(game, args.bet_level, args.file))
    compute(analysis, delay=PROGRESS_DELAY)
    summary = player_summary(analysis, rounds=args.rounds or DEFAULT_ROUNDS,
                             ruin=args.ruin or DEFAULT_RUIN, cycle_seconds=args.cycle)
    if args.json:
        print(json.dumps(player_dict(analysis, summary), indent=2))
    else:
        print(player_text(analysis, summary), end="")
    return 0


def _publish_parsers(sub) -> None:
    e = sub.add_parser("export-stake", help="write the Stake Engine RGS upload (index.json, "
                                            "lookup table, books) with an RTP report")
    e.add_argument("file", help=FILE_HELP)
    e.add_argument("--out", required=True, metavar="DIR",
                   help="the export directory (created; see --force)")
    e.add_argument("--mode", action="append", default=None, metavar="NAME",
                   help="a mode to export (repeatable; default: base, the standard game, and "
                        "every [modes.NAME])")
    e.add_argument("--rounding", choices=STAKE_ROUNDINGS, default="nearest",
                   help="how a win becomes a payout in 0.1x steps (default nearest; keep-rtp "
                        "shares a win between its two neighbouring steps so the RTP is kept)")
    e.add_argument("--bet-level", type=int, default=None,
                   help="bet level (default: the game's first level)")
    e.add_argument("--force", action="store_true", help="replace a non-empty DIR")
    e.add_argument("--rounds", type=_whole_number, default=None, metavar="N",
                   help="a game whose law is a seeded simulation: simulate N rounds (default: "
                        "its [analysis] rounds); the table is their counts per payout")
    e.add_argument("--seed", type=int, default=None, metavar="SEED",
                   help="that simulation's seed (default: its [analysis] seed)")
    e.add_argument("--search-rounds", type=_whole_number, default=None, metavar="N",
                   help="a cascading game too large for its full cycle (Frozen Gems): the "
                        "books' seeded search over whole rounds plays at most N rounds "
                        "(default 2**27)")
    e.add_argument("--search-seed", type=_whole_number, default=None, metavar="SEED",
                   help="that search's seed (default 0)")
    v = sub.add_parser("verify-stake", help="Stake Engine's format and approval checks of an "
                                            "export directory (exit 1 when any fails)")
    v.add_argument("file", metavar="DIR", help="a directory with index.json")


def _export_stake(args) -> int:
    from dataclasses import replace

    import slotmath
    from slotmath.publish import export_stake, verify_stake
    from slotmath.publish.cascade_rounds import RoundSearch
    from slotmath.publish.stake import report_text

    game = slotmath.load_game(args.file)
    level = _level(game, args.bet_level, args.file)
    search = RoundSearch()
    if args.search_rounds is not None:
        search = replace(search, rounds=args.search_rounds)
    if args.search_seed is not None:
        search = replace(search, seed=args.search_seed)
    bar = _ProgressBar("", "", delay=PROGRESS_DELAY)  # (a short export prints none)
    try:
        export = export_stake(game, args.out, modes=args.mode, rounding=args.rounding,
                              level=level, force=args.force, rounds=args.rounds,
                              seed=args.seed, search=search, progress=bar)
    finally:
        bar.close()
    print(report_text(export.report), end="")
    print("\n".join(f"wrote {export.directory / name} ({size:,} bytes)"
                    for name, size in export.sizes.items()))
    print(verify_stake(args.out).text(), end="")
    return 0


def _verify_stake(args) -> int:
    from slotmath.publish import BadExport, verify_stake

    try:
        result = verify_stake(args.file)
    except BadExport as exc:  # its message names the directory already
        raise GameFileError(None, None, str(exc)) from None
    print(result.text(), end="")
    return 0 if result.passed else 1


def _tune_parser(sub) -> None:
    t = sub.add_parser("tune", help="integer symbol counts that bring the RTP to a target "
                                    "(exit 1 when a target is not met; the closest game is "
                                    "written)")
    t.add_argument("file", help=FILE_HELP)
    t.add_argument("--target-rtp", required=True, metavar="PERCENT", help="e.g. 96.00")
    t.add_argument("--hit-frequency", default=None, metavar="LO:HI",
                   help="a range for the hit frequency, as fractions: 0.25:0.35")
    t.add_argument("--volatility-index", default=None, metavar="LO:HI",
                   help="a range for the volatility index at 90%% (1.645 x SD): 8:12")
    t.add_argument("--feature-one-in", default=None, metavar="LO:HI",
                   help="a range for N in 'a feature starts 1 in N paid spins': 150:200")
    t.add_argument("--max-win-one-in", default=None, metavar="LO:HI",
                   help="a range for N in 'the max win (the paid spin's largest win) comes 1 "
                        "in N paid spins': 1000000:5000000")
    t.add_argument("--no-gli11", action="store_true",
                   help="do not hold GLI-11's rule (every advertised award at least 1 in "
                        "100,000,000 games; held by default)")
    t.add_argument("--spacing", action="append", default=[], metavar="SYMBOL=D",
                   help="no two stops of SYMBOL closer than D stops (cyclically); repeatable. "
                        "Scatters and bonus symbols: the window height unless given (=1: off)")
    t.add_argument("--stack", action="append", default=[], metavar="SYMBOL=K",
                   help="SYMBOL stands only in stacks of exactly K stops; repeatable")
    t.add_argument("--no-repeat", type=int, default=None, metavar="D",
                   help="the strip-order rule: every symbol without a rule of its own at least "
                        "D stops from its next copy (cascades: a refill does not drop a "
                        "removed symbol straight back in); 2: no symbol next to itself")
    t.add_argument("--moves", choices=("counts", "weights", "wheel", "values"),
                   default="counts",
                   help="on a weighted reel: change symbol counts (one unit of weight on a "
                        "symbol's heaviest stop; default) or each stop's weight; or, instead "
                        "of any strip, the bonus wheel's division weights (wheel) or hold & "
                        "win's value weights (values), their total held fixed")
    t.add_argument("--method", choices=("search", "proxy", "crn"), default=None,
                   help="for a game the window tables do not cover (cascades, grids, the "
                        "conveyor, paid-spin modifiers): a search confirmed by the game's "
                        "analysis, an exact proxy, or swaps by common random numbers "
                        "(default: chosen by the game; docs/tuning.md)")
    t.add_argument("--hold", action="append", default=[], metavar="NAME",
                   help="with --moves wheel/values: keep this division's or value's weight, "
                        "by its label or name (e.g. MAJOR: a named jackpot); repeatable")
    t.add_argument("--weight-scale", type=int, default=1, metavar="K",
                   help="with --moves wheel/values: multiply every weight by K first (the "
                        "same game, a K times finer RTP grid; default 1)")
    t.add_argument("--tolerance", default="0.001", metavar="POINTS",
                   help="how close the RTP must come, in percentage points (default 0.001)")
    t.add_argument("--reel-set", default="base", help="the reel set tuned (default base)")
    t.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS",
                   help="stop after this long (default 60)")
    t.add_argument("--max-rounds", type=_whole_number, default=None, metavar="N",
                   help="stop after N rounds: over the reels (window tables, default 20), "
                        "weight steps (wheel/values, 20), proxy confirmations (12) or search "
                        "steps (default: the time limit); not with --method crn")
    t.add_argument("--out", required=True, metavar="NEW.toml", help="write the tuned game here")


def _tune(args) -> int:
    from fractions import Fraction

    import slotmath
    from slotmath.io.output import check_writable, write_files
    from slotmath.tune.awards import GLI11_GAMES
    from slotmath.tune.game_file import tuned_text, tuned_weights_text
    from slotmath.tune.layout import parse_rules
    from slotmath.tune.prize_weights import prize_weights
    from slotmath.tune.solver import sd_range, step_line, summary_text, tune

    def number(text, label):
        try:
            return Fraction(text.strip())
        except ValueError:
            raise GameFileError(None, label, f"must be a number, got {text!r}") from None

    target = number(args.target_rtp, "--target-rtp") / 100
    if not 0 < target < 10:
        raise GameFileError(None, "--target-rtp", f"must be a percentage like 96.00, got "
                                                  f"{args.target_rtp}")
    def span(text, label, top=None):
        if text is None:
            return None
        lo, sep, hi = text.partition(":")
        pair = (number(lo, label), number(hi, label)) if sep else None
        if pair is None or not 0 <= pair[0] <= pair[1] or (top and pair[1] > top):
            raise GameFileError(None, label, f"must be LO:HI with 0 <= LO <= HI"
                                             f"{f' <= {top}' if top else ''}, got {text!r}")
        return pair

    from slotmath.stats.par import normal_quantile

    z = normal_quantile(0.90)
    hit = span(args.hit_frequency, "--hit-frequency", 1)
    vi = span(args.volatility_index, "--volatility-index")
    sd = None if vi is None else sd_range(vi)
    one_in = span(args.feature_one_in, "--feature-one-in")
    top_odds = span(args.max_win_one_in, "--max-win-one-in")

    def rules(items, label):
        try:
            return parse_rules(items, label)
        except ValueError as exc:  # its message names the option
            raise GameFileError(None, None, str(exc)) from None

    # no rules given: None (the solver's default rules), which the swap paths accept
    if args.no_repeat is not None and args.no_repeat < 1:
        raise GameFileError(None, "--no-repeat", f"must be a whole number >= 1, got "
                                                 f"{args.no_repeat}")
    ruled = args.spacing or args.stack or args.no_repeat is not None
    layout = ({"spacing": rules(args.spacing, "--spacing"),
               "stack": rules(args.stack, "--stack"),
               "no_repeat": args.no_repeat or 1} if ruled else None)
    if args.max_rounds is not None and args.max_rounds < 1:
        raise GameFileError(None, "--max-rounds", f"must be a whole number >= 1, got "
                                                  f"{args.max_rounds}")
    tolerance = number(args.tolerance, "--tolerance") / 100
    out = check_writable(args.out, "--out")
    game = slotmath.load_game(args.file)
    prizes = args.moves in ("wheel", "values")
    if prizes:
        if ruled:
            raise GameFileError(None, "--moves", f"{args.moves} changes no strip: --spacing, "
                                                 f"--stack and --no-repeat do not apply")
        if args.weight_scale < 1:
            raise GameFileError(None, "--weight-scale", f"must be a whole number >= 1, got "
                                                        f"{args.weight_scale}")
        try:
            pw = prize_weights(game, args.moves)
        except ValueError as exc:
            raise GameFileError(args.file, "--moves", str(exc)) from None
        try:
            pw.indices(args.hold)
        except ValueError as exc:
            raise GameFileError(args.file, "--hold", str(exc)) from None
        layout = None
    elif args.hold:
        raise GameFileError(None, "--hold", "holds wheel or value weights: give --moves "
                                            "wheel or --moves values")
    result = tune(game, target, args.reel_set, hit_frequency=hit, sd=sd,
                  feature_one_in=one_in, max_win_one_in=top_odds,
                  gli11=None if args.no_gli11 else GLI11_GAMES, layout=layout,
                  moves=args.moves, method=args.method,
                  tolerance=tolerance, time_limit=args.time_limit,
                  max_rounds=args.max_rounds,
                  progress=lambda step: print(step_line(step), file=sys.stderr),
                  **({"weight_scale": args.weight_scale, "hold_weights": args.hold}
                     if prizes else {}))
    print(summary_text(result, result.targets, z if vi is not None else None))
    given = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in (
        ("hit_frequency", args.hit_frequency), ("volatility_index", args.volatility_index),
        ("feature_one_in", args.feature_one_in), ("max_win_one_in", args.max_win_one_in))
        if v is not None)
    given += "".join(f" --{k} {v}" for k in ("spacing", "stack") for v in getattr(args, k))
    given += f" --no-repeat {args.no_repeat}" if args.no_repeat is not None else ""
    given += f" --max-rounds {args.max_rounds}" if args.max_rounds is not None else ""
    given += (" --no-gli11" if args.no_gli11 else "") + (
        f" --moves {args.moves}" if args.moves != "counts" else "") + (
        f" --method {args.method}" if args.method else "") + (
        f" --weight-scale {args.weight_scale}" if prizes and args.weight_scale != 1 else "")
    what = ({"wheel": "the bonus wheel's weights", "values": "hold & win's value weights"}
            .get(args.moves, f"reel set {args.reel_set!r}"))
    header = (f"Tuned by `slotmath tune {args.file} --target-rtp {args.target_rtp}"
              f"{' ' + given.strip() if given.strip() else ''}` from "
              f"{args.file}\n({what}; the original's comments are not kept)")
    text = (tuned_weights_text(args.file, result.game, args.moves, header) if prizes
            else tuned_text(args.file, result.game, args.reel_set, header))
    write_files({"--out": (out, text.encode("utf-8"))})
    written = slotmath.analyze(slotmath.load_game(out))  # the file itself, re-analysed
    rtp = written.rtp
    how = "exact RTP" if written.exact else f"RTP (within {written.rtp_error:.2g})"
    print(f"wrote {out}: {how} {rtp} = {float(rtp) * 100:.6f}% (re-analysed)")
    if rtp != result.figures.rtp:  # two paths disagree: never silent
        raise RuntimeError(f"the written game's RTP {rtp} differs from the solver's "
                           f"{result.figures.rtp}")
    return 0 if result.met else 1


def _level(game, value, label) -> int:
    level = game.bet_levels[0] if value is None else value
    try:
        game.check_level(level)
    except ValueError:
        raise GameFileError(label, "bet_levels", f"bet level {level} is not offered; choose one "
                                                 f"of {list(game.bet_levels)}") from None
    return level


def _coin_value(game, value):
    """The game with the coin value given on the command line (checked like the file's).

    A game none of whose figures is in currency (no jackpot, no cap in currency) is the same
    game at any coin value: a note on stderr says so, rather than accepting it silently.
    """
    if value is None:
        return game
    if not game.has_currency_figures:
        print(f"slotmath: note: --coin-value changes no figure of {game.name}: it has no "
              "jackpot and no max-win cap in currency (only the bet's currency value)",
              file=sys.stderr)
    from dataclasses import replace
    from fractions import Fraction

    try:
        return replace(game, coin_value=Fraction(value))  # the game's rules: coin value > 0
    except (ValueError, ZeroDivisionError):
        raise GameFileError(None, "--coin-value",
                            f"must be a number > 0 like 0.05, got {value!r}") from None


class _ProgressBar:
    """One tqdm bar on stderr, restarted for each enumeration the analysis runs (or each
    stage of an export: ``prefix`` and ``unit`` name it)."""

    def __init__(self, prefix: str = "enumerating", unit: str = "stop", delay: float = 0.0):
        self.bar = None
        self.stage = None
        self.prefix, self.unit, self.delay = prefix, unit, delay

    def __call__(self, stage: str, done: int, total: int) -> None:
        from tqdm import tqdm

        if stage != self.stage or self.bar is None or done < self.bar.n:
            self.close()
            self.stage = stage
            self.bar = tqdm(total=total, desc=f"{self.prefix} {stage}".strip(),
                            unit=self.unit, file=sys.stderr, leave=False, delay=self.delay)
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _mode(game, name, label):
    """The mode name given on the command line, checked against the game's modes."""
    if name is None:
        return None
    try:
        game.mode(name)
    except ValueError as exc:
        raise GameFileError(label, "--mode", str(exc)) from None
    return name


def _analyze(args) -> int:
    import slotmath
    from slotmath import report

    game = _coin_value(slotmath.load_game(args.file), args.coin_value)
    try:
        game = _with_settings(game, args)
    except ValueError as err:  # a rule of the settings
        raise GameFileError(args.file, "analysis", str(err)) from None
    level = _level(game, args.bet_level, args.file)
    bar = _ProgressBar() if args.progress else None
    analysis = slotmath.analyze(game, level, progress=bar,
                                mode=_mode(game, args.mode, args.file))
    if bar is None:
        from slotmath.report.progress import compute

        compute(analysis, delay=PROGRESS_DELAY)
    from slotmath.report.dead_pays import warn_dead_pays  # pays no outcome shows (issue 23)
    warn_dead_pays(analysis, args.file)
    if args.json:
        print(json.dumps(report.analysis_dict(analysis, beside=True), indent=2, default=str))
    else:
        print(report.par_sheet_text(analysis))
    return 0


def _simulate(args) -> int:
    import slotmath
    from slotmath.report.simulation import simulation_dict, simulation_text
    from slotmath.simulate import simulate

    if args.spins < 1:
        raise GameFileError(None, "--spins", f"must be >= 1, got {args.spins}")
    if args.seed is None:
        import secrets

        args.seed = secrets.randbits(32)
        print(f"slotmath: seed {args.seed} (run again with --seed {args.seed} for the same "
              "figures)", file=sys.stderr)
    if args.seed < 0:
        raise GameFileError(None, "--seed", f"must be >= 0, got {args.seed}")
    game = _coin_value(slotmath.load_game(args.file), args.coin_value)
    level = _level(game, args.bet_level, args.file)
    progress = True if args.progress else PROGRESS_DELAY
    mode = _mode(game, args.mode, args.file)
    result = simulate(game, args.spins, args.seed, level=level, progress=progress, mode=mode)
    said = {}
    if mode is not None:  # as analyze --json names it (report.modes.modes_section)
        cost = game.mode(mode).cost
        said = {"mode": {"name": mode, "cost": int(cost) if cost.denominator == 1
                         else float(cost)}}
    if args.json:
        print(json.dumps(simulation_dict(result, game) | said, indent=2))
    else:
        if mode is not None:
            print(f"game mode {mode}: cost {game.mode(mode).cost} total bets; RTP and SD per "
                  "amount wagered")
        print(simulation_text(result, game))
    return 0


def _check(args) -> int:
    import slotmath
    from slotmath.report import compliance

    try:
        rule_sets = compliance.parse_rule_sets(args.rules)
    except ValueError as exc:
        raise GameFileError(None, "--rules", str(exc)) from None
    try:
        limits = compliance.parse_limits(args.limit)
    except ValueError as exc:
        raise GameFileError(None, "--limit", str(exc)) from None
    game = slotmath.load_game(args.file)
    levels = None if args.bet_level is None else [_level(game, args.bet_level, args.file)]
    result = compliance.check(game, rule_sets, levels, limits)
    print(result.to_json() if args.json else result.text())
    return 0 if result.passed else 1


def _report(args) -> int:
    import slotmath
    from slotmath.io.output import check_writable, write_files
    from slotmath.report.charts import chart_images
    from slotmath.report.html import html_text
    from slotmath.report.sheets import par_sheets
    from slotmath.report.workbook import workbook_bytes

    outputs = {label: path for label, path in (("--xlsx", args.xlsx), ("--html", args.html))
               if path is not None}
    if not outputs:
        raise GameFileError(None, "report", "give at least one output: --xlsx OUT.xlsx and/or "
                                            "--html OUT.html")
    for label, path in outputs.items():  # before the analysis: fail fast
        check_writable(path, label)
    from slotmath.report.progress import compute

    game = slotmath.load_game(args.file)
    analysis = slotmath.analyze(game, _level(game, args.bet_level, args.file))
    compute(analysis, delay=PROGRESS_DELAY)
    sheets, charts = par_sheets(analysis), chart_images(analysis)
    render = {"--xlsx": lambda: workbook_bytes(analysis, charts, sheets),
              "--html": lambda: html_text(analysis, charts, sheets).encode("utf-8")}
    write_files({label: (path, render[label]()) for label, path in outputs.items()})
    for path in outputs.values():
        print(path)
    return 0


def _workbench(args) -> int:
    import subprocess

    from slotmath.notebook import open_command, write_workbench

    path, written = write_workbench(args.file, args.output, level=args.bet_level,
                                    force=args.force)
    print(f"{'wrote' if written else 'kept the existing'} {path}"
          + ("" if written else " (--force rewrites it)"))
    if args.no_open:
        return 0
    command = open_command(path, voila=args.voila, port=args.port)
    if "--ServerApp.allow_root=True" in command:
        print("running as root: JupyterLab is started with --ServerApp.allow_root=True")
    print("starting:", " ".join(command), "(Ctrl-C stops it)")
    return subprocess.call(command)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``slotmath`` console script."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed on one line
        return int(exc.code or 0)
    from slotmath.allocator import keep_freed_blocks

    keep_freed_blocks()  # large arrays reused, not mapped afresh (glibc; see its notes)
    try:
        commands = {"analyze": _analyze, "simulate": _simulate, "check": _check,
                    "report": _report, "workbench": _workbench, "tune": _tune,
                    "player": _player, "export-stake": _export_stake, "verify-stake": _verify_stake}
        if os.environ.get("SLOTMATH_COMPILE_NOTICE", "1") == "0":
            with _executor(args):
                return commands[args.command](args)
        from slotmath.compiling import announced

        with announced(sys.stderr), _executor(args):
            return commands[args.command](args)
    except GameFileError as exc:
        print(f"slotmath: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ValueError, OverflowError) as exc:
        print(f"slotmath: error: {args.file}: {exc}".replace("\n", " "), file=sys.stderr)
        return EXIT_BAD_INPUT
    except NotImplementedError as exc:  # a figure this game's analysis does not compute
        where = getattr(args, "file", None) or getattr(args, "directory", "")
        print(f"slotmath: error: {where}: not computed for this game: {exc}".replace("\n", " "),
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("slotmath: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # ``slotmath analyze ... | head``: the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the exit's flush has nowhere to fail
        return 141  # what a shell reports for a process ended by SIGPIPE (128 + 13)
    except Exception as exc:  # noqa: BLE001 - never a traceback from the CLI
        print(f"slotmath: internal error: {type(exc).__name__}: {exc}".replace("\n", " "),
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
