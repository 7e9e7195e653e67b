"""Grimoire: a data-driven rules interpreter for tabletop games."""
