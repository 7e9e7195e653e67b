"""Scenario files: given/when/expect rules tests that read like the rulebook.

`run` plays a scenario, `checks` holds the expectations it tests.
"""
