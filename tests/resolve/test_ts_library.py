"""The lib types' member table (generated from TypeScript's lib.*.d.ts by scripts/ts_lib_members.py)."""

from __future__ import annotations

from astmcp.resolve.ts_library import lib_type_members


def test_members_include_newer_library_methods() -> None:
    members = lib_type_members("Set")
    assert members is not None
    assert {"add", "has", "size", "isSubsetOf", "symmetricDifference"} <= members
    assert "map" not in members


def test_members_follow_extended_interfaces_and_platform_callbacks() -> None:
    button = lib_type_members("HTMLButtonElement")
    assert button is not None
    # its own, HTMLElement's, Element's, Node's and EventTarget's, and the custom-element callbacks
    assert {"disabled", "click", "querySelector", "appendChild", "addEventListener"} <= button
    assert {"connectedCallback", "attributeChangedCallback", "observedAttributes"} <= button


def test_interfaces_with_no_constructor_and_object_members() -> None:
    promise_like = lib_type_members("PromiseLike")
    assert promise_like is not None and "then" in promise_like and "catch" not in promise_like
    error = lib_type_members("Error")
    assert error is not None
    assert {"message", "name", "stack", "cause", "toString"} <= error
    assert "map" not in error


def test_unknown_types_are_none() -> None:
    assert lib_type_members("NoSuchLibType") is None
    assert lib_type_members("") is None
