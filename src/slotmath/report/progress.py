"""Progress of an analysis, stage by stage, for the runs that take a while.

:func:`compute` asks an :class:`~slotmath.analysis.Analysis` for its figures one stage at a
time (each is computed once and cached, so what prints afterwards costs nothing more) and moves
one ``tqdm.auto`` bar a stage at a time: a bar on stderr in a terminal, a widget in a notebook.
With ``delay`` the bar appears only once the analysis has taken that long, so a one-second
analysis prints nothing. Unlike the enumeration's own progress callback (``analyze(...,
progress=...)``, the CLI's ``--progress``), it costs the analysis nothing.
"""

from __future__ import annotations

from slotmath.features.base import Kind


def stages(analysis) -> list[tuple[str, object]]:
    """What :func:`compute` asks for, in order: (what the bar says, a function of the
    analysis). The paid spin, the round, each declared feature's figures, the distribution;
    a game whose owner plays the whole round: its chain and the components."""
    if analysis.composition.owner is not None:
        owner = analysis.composition.owner
        return [(f"{owner.title.lower()} chain", lambda a: a.rtp),
                ("components", lambda a: a.components)]
    out = [("paid spin's pays", lambda a: a.composition.window),
           ("full-cycle enumeration", lambda a: a.base_table),
           ("round law (features)", lambda a: a.round)]
    out += [(f.title.lower(), lambda a, name=f.name: a.features[name])
            for f in analysis.declared if f.kind is not Kind.PAYS]
    return out + [("round distribution", lambda a: a.distribution),
                  ("win sizes", lambda a: a.win_sizes)]


def compute(analysis, delay: float = 0.0, file=None):
    """Compute ``analysis``' figures stage by stage under one progress bar; returns it.

    Parameters
    ----------
    analysis : Analysis
    delay : float
        Seconds before the bar shows (0: at once).
    file : file-like, optional
        Where a terminal bar is written (default: stderr).

    Examples
    --------
    >>> import io, slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> out = io.StringIO()
    >>> compute(a, file=out) is a, "Tiny Lines" in out.getvalue()
    (True, True)
    """
    from tqdm.auto import tqdm

    todo = stages(analysis)
    with tqdm(total=len(todo), desc=analysis.game.name, unit="stage", delay=delay,
              file=file, leave=False) as bar:
        for label, step in todo:
            bar.set_postfix_str(label, refresh=False)
            step(analysis)
            bar.update(1)
    return analysis
