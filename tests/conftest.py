"""Shared test configuration."""

from tests.fakediscord.fixtures import *  # noqa: F403
