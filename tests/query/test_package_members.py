"""The member names installed packages spell (query.package_members)."""

from __future__ import annotations

from pathlib import Path

from astmcp.query.package_members import package_spells


def _package(root: Path, name: str, files: dict[str, str]) -> None:
    folder = root / "node_modules" / name
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)


def test_javascript_package_spells_its_object_keys_and_members(tmp_path: Path) -> None:
    _package(
        tmp_path,
        "widgetlib",
        {
            "index.js": "export function makeWidget(label) {\n"
            "  const shown = label;\n"
            "  return { label, render() { return shown; }, size: 1 };\n"
            "}\n",
            "nested/node_modules/dep/index.js": "export const x = { hidden: 1 };\n",
        },
    )
    root = str(tmp_path / "app")
    (tmp_path / "app").mkdir()
    assert package_spells(root, "widgetlib", "render")  # a method of an object literal
    assert package_spells(root, "widgetlib", "label")  # a shorthand key
    assert package_spells(root, "widgetlib", "size")
    assert not package_spells(root, "widgetlib", "shown")  # a local variable, no member
    assert not package_spells(root, "widgetlib", "makeWidgetX")
    assert not package_spells(root, "widgetlib", "hidden")  # its own node_modules are not read


def test_declarations_are_read_instead_of_the_javascript(tmp_path: Path) -> None:
    _package(
        tmp_path,
        "typedlib",
        {
            "index.js": "exports.make = () => ({ paint() {} });\n",
            "index.d.ts": "export interface Widget {\n  draw(): void;\n  readonly size: number;\n}\n",
        },
    )
    assert package_spells(str(tmp_path), "typedlib", "draw")
    assert package_spells(str(tmp_path), "typedlib", "size")
    assert not package_spells(str(tmp_path), "typedlib", "paint")  # the declarations say what it has


def test_scoped_types_package_and_missing_package(tmp_path: Path) -> None:
    _package(
        tmp_path, "@types/oldlib", {"index.d.ts": "export declare class Old {\n  render(): string;\n}\n"}
    )
    assert package_spells(str(tmp_path), "oldlib", "render")
    assert not package_spells(str(tmp_path), "notinstalled", "render")
