"""TS/JS: generic type aliases are unfolded a bounded number of times.

@tanstack/form-core's ``DeepKeysAndValuesImpl<T>`` is a conditional alias whose branches name it
again with new type arguments: unfolded for every branch to the depth bound, the link of its
15 files ran over 15 minutes. Each alias is now unfolded once per bindings, and from one outermost
alias at most ``_ALIAS_WORK`` times (then of no known type). The count, not the time, is checked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import astmcp.resolve.typescript as typescript
from astmcp.query.common import query_symbols
from astmcp.workspace import Workspace

RECURSIVE = """
export interface AnyDeepKeyAndValue {
  key: string;
  value: any;
}

export interface ObjectDeepKeyAndValue<TParent extends AnyDeepKeyAndValue, T, TKey extends keyof T>
  extends AnyDeepKeyAndValue {
  key: TParent["key"] extends never ? `${TKey & string}` : `${TParent["key"]}.${TKey & string}`;
  value: T[TKey] | TParent["value"];
}

export interface UnknownDeepKeyAndValue<TParent extends AnyDeepKeyAndValue> extends AnyDeepKeyAndValue {
  key: `${TParent["key"]}.${string}`;
  value: unknown;
}

export type DeepKeyAndValueObject<TParent extends AnyDeepKeyAndValue, T, TAcc, TAllKeys extends keyof T = keyof T> =
  TAllKeys extends any
    ? DeepKeysAndValuesImpl<
        NonNullable<T[TAllKeys]>,
        ObjectDeepKeyAndValue<TParent, T, TAllKeys>,
        TAcc | ObjectDeepKeyAndValue<TParent, T, TAllKeys>
      >
    : never;

export type DeepKeysAndValuesImpl<T, TParent extends AnyDeepKeyAndValue = never, TAcc = never> =
  unknown extends T
    ? TAcc | UnknownDeepKeyAndValue<TParent>
    : T extends string | number | boolean | bigint | Date
      ? TAcc
      : T extends ReadonlyArray<infer E>
        ? DeepKeysAndValuesImpl<E, TParent, TAcc | UnknownDeepKeyAndValue<TParent>>
        : keyof T extends never
          ? TAcc | UnknownDeepKeyAndValue<TParent>
          : T extends object
            ? DeepKeyAndValueObject<TParent, T, TAcc>
            : TAcc;

export type DeepKeysAndValues<T> =
  DeepKeysAndValuesImpl<T> extends AnyDeepKeyAndValue ? DeepKeysAndValuesImpl<T> : never;

export type DeepValue<TValue, TAccessor> = DeepKeysAndValues<TValue> extends infer R
  ? R extends { key: TAccessor; value: infer V } ? V : never
  : never;

export interface Form<TData> {
  values: TData;
  field(name: string): DeepValue<TData, string>;
  reset(): DeepKeysAndValues<TData>;
}

export function read<TData>(form: Form<TData>): unknown {
  return [form.field("a").value, form.reset().key, form.values];
}
"""


def test_a_recursive_conditional_alias_unfolds_a_bounded_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "util-types.ts").write_text(RECURSIVE, encoding="utf-8")
    calls = {"n": 0}
    unfold = typescript.Resolver.alias_instance

    def counted(self: typescript.Resolver, sym: typescript.Sym, bound: typescript.Subst) -> object:
        calls["n"] += 1
        return unfold(self, sym, bound)

    monkeypatch.setattr(typescript.Resolver, "alias_instance", counted)
    ws = Workspace(tmp_path)
    try:
        ws.index.refresh()
        conn = ws.db()
        # the index is complete: the form's members are linked
        assert query_symbols(conn, "s.selector = ?", ("src/util-types.ts::Form.reset",))
        linked = conn.execute("SELECT count(*) FROM refs WHERE name = 'reset' AND confidence = 'certain'")
        assert linked.fetchone()[0] >= 1
    finally:
        ws.index.close()
    # each outermost unfolding stops at _ALIAS_WORK; the few aliases of this file need far fewer in all
    assert 0 < calls["n"] <= 4 * typescript._ALIAS_WORK, calls["n"]
