"""Interactive panels, ipywidgets only: controls wired to the exact engine and the charts."""

from slotmath.widgets.app import in_app, opt_in
from slotmath.widgets.conveyor_panel import (
    ConveyorPanel,
    conveyor_summary_html,
    design_from_controls,
)
from slotmath.widgets.jackpot_panel import (
    JackpotPanel,
    jackpot_summary_html,
    starting_parameters,
    with_jackpot_controls,
)
from slotmath.widgets.player_panel import PlayerPanel
from slotmath.widgets.strip_editor import StripEditor, strip_editor, summary_html
from slotmath.widgets.tuning_panel import TuningPanel
from slotmath.widgets.wheel_panel import WheelPanel
from slotmath.widgets.workbench import Workbench, feature_panel, workbench

__all__ = ["JackpotPanel", "StripEditor", "jackpot_summary_html", "starting_parameters",
           "strip_editor", "summary_html", "with_jackpot_controls"]
__all__ += ["ConveyorPanel", "conveyor_summary_html", "design_from_controls"]
__all__ += ["PlayerPanel", "TuningPanel"]
__all__ += ["WheelPanel", "Workbench", "feature_panel", "in_app", "opt_in", "workbench"]
