"""The open registries: decorator registration, lookups with known names, duplicates refused."""

import pytest

from rhetorica import registry
from rhetorica.registry import DuplicateComponentError, Registry, UnknownComponentError, all_entries



@pytest.fixture(autouse=True)
def _forget_test_registries(monkeypatch):
    """Registries made by a test leave the global list afterwards (``rhetorica list`` would show them)."""
    monkeypatch.setattr(registry, "_ALL", list(registry._ALL))

def test_register_and_get():
    things = Registry("thing")

    @things.register("alpha", description="the first thing")
    def alpha():
        """Ignored: the description given wins."""

    assert things.get("alpha") is alpha
    entry = things.entry("alpha")
    assert (entry.kind, entry.name, entry.description, entry.source) == ("thing", "alpha", "the first thing",
                                                                        "tests")
    assert things.names() == ["alpha"] and "alpha" in things
    assert any(e.kind == "thing" and e.name == "alpha" for e in all_entries())


def test_unknown_lists_known():
    things = Registry("gadget")
    things.add("b", 1)
    things.add("a", 2)
    with pytest.raises(UnknownComponentError, match="unknown gadget 'c'; known: a, b"):
        things.get("c")


def test_duplicate_refused_but_reregistering_same_object_is_fine():
    things = Registry("widget")
    obj = object()
    things.add("x", obj)
    things.add("x", obj)
    with pytest.raises(DuplicateComponentError, match="widget 'x' is registered twice"):
        things.add("x", object())
