"""Progress of an analysis, stage by stage, for the runs that take a while.

:func:`compute` asks an :class:`~slotmath.analysis.Analysis` for its figures one stage at a
time (each is computed once and cached, so what prints afterwards costs nothing more) and moves
one ``tqdm.auto`` bar a stage at a time: a bar on stderr in a terminal, a widget in a notebook.
With ``delay`` the bar appears only once the analysis has taken that long, so a one-second
analysis prints nothing. Unlike the enumeration's own progress callback (``analyze(...,
progress=...)``, the CLI's ``--progress``), it costs the analysis nothing.
"""

from __future__ import annotations

#: (attribute of the analysis, what the bar says while it is computed)
STAGES = (
    ("window_components", "paid spin (direct method or cascade chain)"),
    ("base_table", "full-cycle enumeration"),
    ("round", "round law (features)"),
    ("jackpots", "jackpot pools"),
    ("cap", "max-win cap"),
    ("distribution", "round distribution"),
    ("win_sizes", "win sizes"),
)
#: the stages of a persistent-state game (no round distribution is computed for it)
PERSISTENT_STAGES = (("rtp", "persistent-state chain"), ("components", "components"))


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

    stages = STAGES if getattr(analysis.game, "conveyor", None) is None else PERSISTENT_STAGES
    with tqdm(total=len(stages), desc=analysis.game.name, unit="stage", delay=delay,
              file=file, leave=False) as bar:
        for attribute, label in stages:
            bar.set_postfix_str(label, refresh=False)
            getattr(analysis, attribute)
            bar.update(1)
    return analysis
