"""Shared test configuration."""

from tests.fakediscord.fixtures import *  # noqa: F403
from tests.stores import backend, postgres, store  # noqa: F401  (both stores, every store test)
