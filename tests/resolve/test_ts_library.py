"""The lib types' member table (generated from TypeScript's lib.*.d.ts by scripts/ts_lib_members.py)."""

from __future__ import annotations

from astmcp.resolve.ts_library import (
    lib_global_values,
    lib_member_result,
    lib_required_members,
    lib_type_members,
)


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


def test_what_members_give_when_every_declaration_agrees() -> None:
    assert lib_member_result("AbortController", "signal") == "AbortSignal"  # a property
    assert lib_member_result("String", "split") == "()String[]"  # a method, its overloads alike
    assert lib_member_result("String", "match") == "()RegExpMatchArray"  # `| null` aside
    assert lib_member_result("Map", "set") == "()this"
    assert lib_member_result("Error", "stack") == "String"  # through `stack?: string`


def test_what_members_give_is_unknown_when_generic_or_split() -> None:
    assert lib_member_result("Array", "map") is None  # generic: `map<U>(…): U[]`
    assert lib_member_result("Object", "assign") is None  # generic, its argument's type
    # `json()` of a response gives a `Promise<any>`, the static `Response.json(data)` a Response:
    # one entity stands for both sides, so neither is followed
    assert lib_member_result("Response", "json") is None
    assert lib_member_result("HTMLButtonElement", "addEventListener") is None  # gives `void`
    assert lib_member_result("AbortController", "nosuchmember") is None
    assert lib_member_result("NoSuchLibType", "signal") is None


def test_required_members_leave_out_what_every_declaration_marks_optional() -> None:
    assert lib_required_members("Iterator") == frozenset({"next"})  # `return?`, `throw?`
    storage = lib_required_members("Storage")
    assert storage is not None and {"getItem", "setItem", "removeItem", "clear", "key"} <= storage
    assert lib_required_members("NoSuchLibType") is None


def test_global_variables_of_a_type() -> None:
    assert lib_global_values("Storage") == frozenset({"localStorage", "sessionStorage"})
    assert "document" in lib_global_values("Document")
    assert lib_global_values("Map") == frozenset()
