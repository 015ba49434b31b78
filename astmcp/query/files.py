"""``ast_list_files``: the indexed source files."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel

from astmcp.query.common import Paged, PageOut, page_fields
from astmcp.query.globs import compile_glob
from astmcp.tools import tool
from astmcp.workspace import Workspace

Language = Literal["python", "typescript", "javascript"]


class ListFilesInput(Paged):
    default_limit: ClassVar[int] = 100
    glob: str | None = None
    language: Language | None = None


class FileEntry(BaseModel):
    file: str
    language: str
    lines: int
    symbols: int


class ListFilesOutput(PageOut):
    files: list[FileEntry]


@tool("ast_list_files", ListFilesInput, ListFilesOutput, list_field="files")
def list_files(ws: Workspace, params: ListFilesInput) -> ListFilesOutput:
    """List indexed source files with language, line and symbol counts. `glob` is a real glob
    (`src/**/*.py`; a pattern without `/` matches base names anywhere). Use to orient in a
    project, not to read code."""
    conn = ws.db()
    sql = (
        "SELECT f.path, f.language, f.lines, (SELECT COUNT(*) FROM symbols s WHERE s.file_id = f.id)"
        " FROM files f"
    )
    args: tuple[str, ...] = ()
    if params.language:
        sql += " WHERE f.language = ?"
        args = (params.language,)
    rows = conn.execute(sql + " ORDER BY f.path", args).fetchall()
    if params.glob:
        pattern = compile_glob(params.glob)
        rows = [r for r in rows if pattern.match(r[0])]
    limit = params.page_size()
    window = rows[params.offset : params.offset + limit]
    return ListFilesOutput(
        files=[FileEntry(file=r[0], language=r[1], lines=r[2], symbols=r[3]) for r in window],
        **page_fields(len(rows), params.offset, limit),
    )
