"""What a member's written declaration says of its return (astmcp.refactor.ts_returns)."""

from __future__ import annotations

import pytest

from astmcp.refactor.ts_returns import promised, returned_type, returns_disagree


@pytest.mark.parametrize(
    ("name", "text", "returned"),
    [
        ("get", "get(key: string): Promise<string | null>", "Promise<string | null>"),
        ("get", "get: (key: string) => Promise<string | null>", "Promise<string | null>"),
        ("get", "get?: (key: string) => string;", "string"),
        ("set", "set(key: K, value: V): this;", "this"),
        ("get", "get<T>(pick: (x: number) => string): T | undefined", "T | undefined"),
        ("load", "async load(url: string): Promise<Response>", "Promise<Response>"),
        ("size", "size: number", None),  # no function
        ("run", "run(callback: (value: Map<string, number>) => void", None),  # cut short
        ("keys", "keys(): Promise<Array<string>> …", None),
        ("other", "get(): string", None),
    ],
)
def test_returned_type(name: str, text: str, returned: str | None) -> None:
    assert returned_type(name, text) == returned


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Promise<void>", True),
        ("PromiseLike<X> | Promise<Y>", True),
        ("Promise<X> | X", None),
        ("boolean", False),
        ("this", False),
        ("string[] | null", False),
        ('"a" | 3', False),
        ("V | undefined", None),
        ("MapIterator<K>", None),
        (None, None),
    ],
)
def test_promised(written: str | None, expected: bool | None) -> None:
    assert promised(written) is expected


def test_returns_disagree() -> None:
    assert returns_disagree("Promise<void>", False)  # `set(): this` is no `set(): Promise<void>`
    assert returns_disagree("boolean", True)
    assert not returns_disagree("void", False)  # any function is a `() => void`
    assert not returns_disagree("unknown", True)
    assert not returns_disagree("Promise<void>", None)  # a type parameter may be a promise
    assert not returns_disagree("T", False)
    assert not returns_disagree("Promise<number>", True)
