"""Interactive panels, ipywidgets only: controls wired to the exact engine and the charts."""

from slotmath.widgets.strip_editor import StripEditor, strip_editor, summary_html

__all__ = ["StripEditor", "strip_editor", "summary_html"]
