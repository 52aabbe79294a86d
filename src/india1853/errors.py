"""Errors raised for bad input anywhere: files, coordinates, positions, game actions.

Every message is one line and names the field or the rule concerned; the command line prints it
as ``error: <message>`` and exits non-zero without a traceback.
"""

from __future__ import annotations


class India1853Error(Exception):
    """Base class of every error the project reports to a user."""


class DataError(India1853Error):
    """An edition data file is missing or malformed."""


class InputError(India1853Error):
    """Bad user input: an argument, a coordinate, a file, a field."""


class RuleError(India1853Error):
    """A move or action that a rule forbids; the message cites the rule number."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(f"rule {rule}: {message}")
