"""The secrecy differential of test_secrecy_differential.py (its module docstring says what
is compared and why) for the first edition's scenarios: Bob's whole bid (14.5) and a MIK 2
card rejected face down. A file of their own so that two test workers share the scenarios;
the same server options (``server_url``), the same checks."""

from __future__ import annotations

import pytest
import test_secrecy_differential
from test_secrecy_differential import (
    FIRST,
    after_the_end_every_secret_is_public,
    one_secret_choice_changes_no_byte_another_seat_receives,
)

# test_secrecy_differential.py's server fixture (one server for this module).
server_url = test_secrecy_differential.server_url


@pytest.mark.parametrize("name", FIRST)
def test_one_secret_choice_changes_no_byte_another_seat_receives(
        server_url: str, name: str) -> None:
    one_secret_choice_changes_no_byte_another_seat_receives(server_url, name)


@pytest.mark.parametrize("name", FIRST)
def test_after_the_end_every_secret_is_public(server_url: str, name: str) -> None:
    after_the_end_every_secret_is_public(server_url, name)
