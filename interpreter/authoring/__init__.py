"""Tools for rules authors: the merge schema, variant checks, the language server."""
