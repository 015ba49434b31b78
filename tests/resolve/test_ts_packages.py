"""Reading a package's generic types from its installed declarations (resolve/ts_packages.py)."""

from __future__ import annotations

from pathlib import Path

from astmcp.resolve.ts_packages import (
    PackageFunction,
    PackageMember,
    own_package_names,
    package_function,
    package_member,
)

_DECLARATIONS = """
declare class Store<T, A = never> {
  static create<T>(value: T): Store<T>;
  readonly actions: A;
  get state(): T;
  set state(value: T);
  get<T>(): T;
  peek(): Readonly<T>;
  setState(updater: (prev: T) => T): void;
  update(updater: <T>(prev: T) => T, ...rest: Array<(x: T) => T>): void;
  on(event: "change", listener: (value: T) => void): void;
  on(event: "error", listener: (error: Error) => void): void;
  notify: (value: T) => A;
  size: number;
  [Symbol.iterator](): Iterator<T>;
}
export { Store };
"""


def _install(root: Path, name: str, files: dict[str, str]) -> None:
    package = root / "node_modules" / name
    package.mkdir(parents=True)
    for file, text in files.items():
        (package / file).write_text(text, encoding="utf-8")


def test_members_given_back_as_type_parameters(tmp_path: Path) -> None:
    _install(tmp_path, "@scope/store", {"index.d.ts": _DECLARATIONS})
    root = str(tmp_path)

    def member(name: str) -> PackageMember | None:
        return package_member(root, "@scope/store.Store", name)

    assert member("state") == PackageMember(False, 0, None, (), True)  # the getter; the setter left out
    assert member("actions") == PackageMember(False, 1, None, (), True)
    assert member("peek") == PackageMember(True, None, 0, (), True)  # `Readonly<T>` has T's members
    assert member("setState") == PackageMember(True, None, None, (((0,), 0),), True)
    # a method's own `T` hides the class's; so does a callback's; a rest parameter is not read
    assert member("get") == PackageMember(True, None, None, (), False)
    assert member("update") == PackageMember(True, None, None, (((None,), None), None), True)
    # overloads that differ are not judged
    assert member("on") == PackageMember(True, None, None, (), True)
    assert member("notify") == PackageMember(True, None, 1, (None,), True)  # a function-typed property
    assert member("size") == PackageMember(False, None, None, (), False)
    assert member("create") is None  # static: no member of an instance
    assert member("missing") is None


def test_unknown_when_not_installed_or_not_one_declaration(tmp_path: Path) -> None:
    root = str(tmp_path)
    assert package_member(root, "@scope/store.Store", "state") is None
    _install(
        tmp_path,
        "twice",
        {
            "a.d.ts": "export interface Box<T> { value: T }",
            "b.d.ts": "export interface Box<T> { value: T }",  # the same again (`.d.cts` beside `.d.ts`)
            "c.d.ts": "export interface Cell<T> { value: T }\nexport interface Cell<T> { other: T }",
            "d.d.ts": "export type Alias<T> = { value: T };\nexport interface Alias<T> { value: T }",
        },
    )
    assert package_member(root, "twice.Box", "value") == PackageMember(False, 0, None, (), True)
    assert package_member(root, "twice.Cell", "value") is None  # merged declarations: not judged
    assert package_member(root, "twice.Alias", "value") is None  # a type alias of that name too


def test_aliases_of_a_class_are_followed(tmp_path: Path) -> None:
    """``declare const X: typeof Impl`` with ``type X<T> = Impl<T>`` (a package choosing its
    implementation in one file) reads the aliased class; an alias of anything else is not read."""
    _install(
        tmp_path,
        "evbus",
        {
            "client.d.ts": (
                "export declare class EventClient<M> {\n"
                "  on<E extends keyof M & string>(name: E, cb: (payload: M[E]) => void): void;\n"
                "  emit<E extends string & keyof M>(name: E, payload: M[E]): void;\n"
                "  pick(key: keyof M): void;\n"
                "  onAny(name: keyof M | string): void;\n"
                "}\n"
            ),
            "index.d.ts": (
                "import { EventClient as Impl } from './client.js';\n"
                "declare const EventClient: typeof Impl;\n"
                "type EventClient<M> = Impl<M>;\n"
                "export { EventClient };\n"
                "declare const Lost: typeof Nowhere;\n"
                "type Lost<M> = Nowhere<M>;\n"
                "type Narrowed<M> = Impl<M & {}>;\n"
            ),
        },
    )
    root = str(tmp_path)
    on = package_member(root, "evbus.EventClient", "on")
    assert on is not None and on.keys == (0, None)  # the name takes M's member names
    emit = package_member(root, "evbus.EventClient", "emit")
    assert emit is not None and emit.keys == (0, None)
    pick = package_member(root, "evbus.EventClient", "pick")
    assert pick is not None and pick.keys == (0,)
    any_name = package_member(root, "evbus.EventClient", "onAny")
    assert any_name is not None and any_name.keys == ()  # other strings too
    assert package_member(root, "evbus.Lost", "on") is None  # an alias of nothing declared
    assert package_member(root, "evbus.Narrowed", "on") is None  # no plain alias


def test_generic_functions_read_across_overloads(tmp_path: Path) -> None:
    _install(
        tmp_path,
        "hooks",
        {
            "index.d.ts": """
declare namespace Hooks {
  interface RefObject<T> { current: T }
  function useRef<T>(initialValue: T): RefObject<T>;
  function useRef<T>(initialValue: T | null): RefObject<T | null>;
  function useMemo<T>(
    // a comment is no parameter
    factory: () => T,
    deps: readonly unknown[],
  ): T;
  function pick<T>(value: T): T;
  function pick<T>(value: T[]): T;
  function wrap<T>(value: T): RefObject<T>;
  function wrap<T>(value: T[]): T;
  const first: <T>(values: T[]) => T;
}
export = Hooks;
""",
        },
    )
    root = str(tmp_path)
    ref = package_function(root, "hooks.useRef")
    assert ref == PackageFunction(1, (("p", 0),), (None,), ("g", "RefObject", (("p", 0),)))
    assert package_function(root, "hooks.useMemo") == PackageFunction(
        1, (None, None), (((), 0), None), ("p", 0)
    )
    # overloads that differ in their parameters only: what they return is known, not what they take
    assert package_function(root, "hooks.pick") == PackageFunction(1, (None,), (), ("p", 0))
    assert package_function(root, "hooks.wrap") is None  # overloads that return different things
    assert package_function(root, "hooks.first") is None  # a variable holding a function
    assert package_function(root, "hooks.missing") is None


def test_default_import_is_the_namespace_only_where_exports_are_assigned(tmp_path: Path) -> None:
    _install(
        tmp_path, "assigned", {"index.d.ts": "declare namespace A { function id<T>(v: T): T }\nexport = A;"}
    )
    _install(tmp_path, "esm", {"index.d.ts": "export declare function id<T>(v: T): T;\nexport default {};"})
    root = str(tmp_path)
    assert package_function(root, "assigned.default.id") == PackageFunction(1, (("p", 0),), (None,), ("p", 0))
    assert package_function(root, "esm.id") is not None
    assert package_function(root, "esm.default.id") is None  # a member of the default export: not `id`


def test_overloads_differing_in_parameters_only_keep_what_they_return(tmp_path: Path) -> None:
    _install(
        tmp_path,
        "state",
        {
            "index.d.ts": """
type Dispatch<A> = (value: A) => void;
export declare function useState<S>(initialState: S | (() => S)): [S, Dispatch<S>];
export declare function useState<S = undefined>(): [S | undefined, Dispatch<S | undefined>];
""",
        },
    )
    found = package_function(str(tmp_path), "state.useState")
    # the one overload taking an argument declares it `S | (() => S)`: an object literal there is an S
    assert found == PackageFunction(1, (("p", 0),), (), ("t", (("p", 0), ("g", "Dispatch", (("p", 0),)))))


def test_own_package_names_skip_installed_ones(tmp_path: Path) -> None:
    """The project's own package names (a package importing itself by name reads its sources):
    its package.json files, not those under node_modules or hidden folders."""
    (tmp_path / "package.json").write_text('{"name": "root-app"}', encoding="utf-8")
    for folder, text in {
        "packages/core": '{"name": "@app/core"}',
        "packages/broken": "{not json",
        "packages/anonymous": '{"private": true}',
        "node_modules/left-pad": '{"name": "left-pad"}',
        ".cache/copy": '{"name": "hidden-copy"}',
    }.items():
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "package.json").write_text(text, encoding="utf-8")
    assert own_package_names(str(tmp_path)) == frozenset({"root-app", "@app/core"})
