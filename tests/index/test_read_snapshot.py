"""One answer reads one committed state of the index, even while another process refreshes it."""

from __future__ import annotations

from pathlib import Path

from astmcp.workspace import Workspace


def names(conn: object) -> list[str]:
    return [row[0] for row in conn.execute("SELECT name FROM symbols ORDER BY name")]  # type: ignore[attr-defined]


def test_a_refresh_by_another_workspace_is_invisible_until_the_answer_ends(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def a():\n    pass\n", encoding="utf-8")
    answering, other = Workspace(tmp_path), Workspace(tmp_path)
    try:
        conn = answering.db()
        assert names(conn) == ["a"]
        (tmp_path / "m.py").write_text("def a():\n    pass\n\n\ndef b():\n    pass\n", encoding="utf-8")
        other.db()  # another process refreshes and commits while the first answer is running
        other.release()
        assert names(conn) == ["a"]  # the running answer keeps its state: no half-old, half-new reads
        answering.release()
        assert names(answering.db()) == ["a", "b"]  # the next answer refreshes and sees it
    finally:
        answering.release()
        answering.index.close()
        other.index.close()


def test_db_twice_in_one_answer_sees_its_own_refresh(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def a():\n    pass\n", encoding="utf-8")
    ws = Workspace(tmp_path)
    try:
        assert names(ws.db()) == ["a"]
        (tmp_path / "m.py").write_text("def c():\n    pass\n", encoding="utf-8")
        assert names(ws.db()) == ["c"]
    finally:
        ws.release()
        ws.index.close()
