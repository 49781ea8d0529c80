"""Command line: ``slotmath analyze``, ``simulate``, ``check`` and ``report``.

Bad input is reported on one line naming the file, the key and what is wrong, with exit
status 2; the CLI never prints a traceback.
"""

from __future__ import annotations

import argparse
import json
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
    a.add_argument("--mode", default=None, metavar="NAME",
                   help="analyse the game mode [modes.NAME] (a bonus buy, an ante bet): money "
                        "per amount it costs")
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
    _check_parser(sub)
    _report_parser(sub)
    _workbench_parser(sub)
    return p


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
                   help=f"comma-separated rule sets (default: {CHECK_RULE_SETS})")
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
    """One tqdm bar on stderr, restarted for each enumeration the analysis runs."""

    def __init__(self):
        self.bar = None
        self.stage = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        from tqdm import tqdm

        if stage != self.stage or self.bar is None or done < self.bar.n:
            self.close()
            self.stage = stage
            self.bar = tqdm(total=total, desc=f"enumerating {stage}", unit="stop",
                            file=sys.stderr, leave=False)
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
        print(json.dumps(report.analysis_dict(analysis), indent=2, default=str))
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
    try:
        commands = {"analyze": _analyze, "simulate": _simulate, "check": _check,
                    "report": _report, "workbench": _workbench}
        return commands[args.command](args)
    except GameFileError as exc:
        print(f"slotmath: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ValueError, OverflowError) as exc:
        print(f"slotmath: error: {args.file}: {exc}".replace("\n", " "), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("slotmath: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - never a traceback from the CLI
        print(f"slotmath: internal error: {type(exc).__name__}: {exc}".replace("\n", " "),
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
