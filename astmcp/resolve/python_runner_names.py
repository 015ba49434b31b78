"""Python: what a ``conftest.py`` puts in pytest's ``doctest_namespace``.

An autouse fixture of a conftest may give every doctest below its folder names of its own:
``doctest_namespace["Version"] = semver.Version``, ``doctest_namespace.update(np=numpy)``,
``doctest_namespace.update({"pd": pandas})``. A doctest example reading such a name, which
neither it nor its module binds, reads that value (the linker's ``N:`` chains, in docstrings and
documentation files alike).
"""

from __future__ import annotations

import ast

__all__ = ["FIXTURE", "namespace_values"]

FIXTURE = "doctest_namespace"


def namespace_values(tree: ast.Module) -> list[tuple[str, ast.expr]]:
    """(name, value) of each ``ns["X"] = v``, ``ns.update(X=v)`` and ``ns.update({"X": v})`` of
    the fixture argument ``doctest_namespace``, in the order written."""
    pairs: list[tuple[str, ast.expr]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == FIXTURE
                    and isinstance(target.slice, ast.Constant)
                    and isinstance(target.slice.value, str)
                ):
                    pairs.append((target.slice.value, node.value))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "update"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == FIXTURE
        ):
            pairs += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
            for arg in node.args:
                if isinstance(arg, ast.Dict):
                    pairs += [
                        (k.value, v)
                        for k, v in zip(arg.keys, arg.values, strict=True)
                        if isinstance(k, ast.Constant) and isinstance(k.value, str)
                    ]
    return pairs
