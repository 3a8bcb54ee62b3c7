"""Fixtures for the CLI tests: the model layer's loopback fake provider server (``rhetorica batch``)."""

from tests.models.conftest import fake_server  # noqa: F401 - a fixture, used by name
