"""PAR-sheet tables (pandas) and their renderings (text, JSON)."""
