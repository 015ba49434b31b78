"""The family guard reads base names from class headers, generics and qualifiers stripped."""

from __future__ import annotations

from astmcp.refactor.family_guard import _python_bases, _ts_annotation, _ts_bases


def test_python_bases_strip_subscripts_qualifiers_and_keywords() -> None:
    header = "@dataclass\nclass FloatRange(_NumberRangeBase[float, float], mod.FloatParamType, metaclass=M)"
    assert _python_bases(header) == ["_NumberRangeBase", "FloatParamType"]
    assert _python_bases("class Plain") == []


def test_ts_bases_read_extends_and_implements_through_nested_type_arguments() -> None:
    header = "export class A<T> extends Base<Map<K, V>> implements I<T>, ns.J {"
    assert _ts_bases(header) == ["Base", "I", "J"]
    assert _ts_bases("interface Shape extends Named, Sized") == ["Named", "Sized"]


def test_ts_annotation_names_the_types_an_object_literal_must_provide() -> None:
    assert _ts_annotation("const memo: $ZodMemoizer = {…") == ["$ZodMemoizer"]
    assert _ts_annotation("export let m: ns.Memo<Map<K, V>> | Other = make()") == ["Memo", "Other"]
    assert _ts_annotation("const plain = {…") == []
