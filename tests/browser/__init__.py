"""The browser suite (a package, so that its conftest and the top-level one import apart)."""
