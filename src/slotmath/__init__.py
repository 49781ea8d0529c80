"""slotmath: exact slot-game mathematics.

>>> import slotmath
>>> game = slotmath.load_game("data/games/classic_fruits.toml")
>>> game.name
'Classic Fruits'

The public names are imported on first use (PEP 562), so that ``import slotmath`` (and with it
``slotmath --help``) does not load numba, sympy, scipy and pandas until a figure is asked for.
"""

from __future__ import annotations

import importlib
import sys
import types

#: public name -> the module that defines it (imported on first access)
_LAZY = {
    "Analysis": "slotmath.analysis",
    "analyze": "slotmath.analysis",
    "rtp_only": "slotmath.rtp",
    "GameFileError": "slotmath.errors",
    "spin_table": "slotmath.exact.cycle",
    "direct_method": "slotmath.exact.direct",
    "load_game": "slotmath.io.toml_loader",
    "loads_game": "slotmath.io.toml_loader",
    "SimulationResult": "slotmath.simulate",
    "executor": "slotmath.parallel",
    "simulate": "slotmath.simulate",
}

__all__ = ["Analysis", "GameFileError", "SimulationResult", "analyze", "direct_method", "executor",
           "load_game", "loads_game", "rtp_only", "simulate", "spin_table"]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'slotmath' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once: later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The package module, whose ``simulate`` stays the function.

    Importing the subpackage :mod:`slotmath.simulate` binds it on its parent; eagerly imported,
    ``from slotmath.simulate import simulate`` then rebound the name to the function. Lazily,
    the subpackage may be imported later (by the analysis), so it must not shadow the function.
    """

    def __setattr__(self, name, value):
        if name in _LAZY and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
