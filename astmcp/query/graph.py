"""``ast_inspect_graph``: structural questions answered from the index alone.

One tool, a forced chain of thought (``question``, ``draft``, ``review``) and a
request union. Answers carry names, signatures, first doc lines, edges and
spans, never bodies; each is cut to a byte cap (default 4 KiB) and says what to
do next: ``answer`` now, ``inspect`` with one named follow-up, or look
``outside`` the graph.
"""

from __future__ import annotations

import json
import posixpath
import sqlite3
from collections import Counter, deque
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from astmcp.errors import AstmcpError
from astmcp.query.common import Formatted, SymbolRow, SymbolTarget, query_symbols, resolve_symbol
from astmcp.query.graph_likely import EDGE_KIND, Likely, is_python
from astmcp.query.graph_tests import TestBlocks, is_block_selector
from astmcp.query.references import twins
from astmcp.query.search import SearchHit, SearchInput, SearchOutput, search_symbols, words
from astmcp.resolve.python import is_test_file, untyped
from astmcp.tools import ToolOutput, tool
from astmcp.workspace import Workspace

DEFAULT_CAP = 4096
_FLOW = ("calls", "references", "inherits")
_IMPACT = ("calls", "references", "inherits", "imports", "tests")
_SIG_CHARS = 160
_EDGES_PER_SIDE = 10
_DATA_KINDS = frozenset({"variable", "attribute", "property", "enum_member", "type", "interface"})
# (other end: symbol id, or a test block's negated id; edge kind; line; certain/likely)
Edge = tuple[int, str, int, str]
_STOP = frozenset(
    {"the", "and", "how", "does", "what", "work", "works", "for", "with", "from", "into", "this"}
)


class _Req(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Overview(_Req):
    type: Literal["overview"]
    aspect: Literal["all", "layers", "hotspots", "public_api"] = "all"


class Lookup(_Req):
    type: Literal["lookup"]
    query: str = Field(min_length=1, max_length=200)
    limit: int = Field(5, ge=1, le=20)


class Details(_Req):
    type: Literal["details"]
    handles: list[str] = Field(min_length=1, max_length=5)
    neighbors: bool = False


class Trace(_Req):
    type: Literal["trace"]
    from_: str = Field(alias="from")
    to: str | None = None
    direction: Literal["forward", "reverse", "impact"] = "forward"
    max_depth: int = Field(2, ge=1, le=6)
    max_nodes: int = Field(8, ge=1, le=50)


class Tests(_Req):
    type: Literal["tests"]
    handles: list[str] = Field(min_length=1, max_length=10)


class Tour(_Req):
    type: Literal["tour"]
    query: str = Field(min_length=1, max_length=200)
    limit: int = Field(4, ge=1, le=8)


class Escape(_Req):
    type: Literal["escape"]
    reason: str = Field(min_length=1, max_length=500)


Request = Annotated[Overview | Lookup | Details | Trace | Tests | Tour | Escape, Field(discriminator="type")]


class GraphInput(Formatted):
    question: str = Field(min_length=1, max_length=2000, description="The question, restated.")
    draft: str = Field(
        min_length=1, max_length=2000, description="Intended request and why it is the smallest."
    )
    review: str = Field(min_length=1, max_length=2000, description="Self-correction of the draft.")
    request: Request


class GraphOutput(ToolOutput):
    type: str
    summary: str | None = None
    nodes: list[dict[str, Any]] | None = None
    edges: list[dict[str, Any]] | None = None
    paths: list[list[str]] | None = None
    anchors: list[dict[str, Any]] | None = None
    counts: dict[str, Any] | None = None
    layers: list[dict[str, Any]] | None = None
    missing: list[dict[str, Any]] | None = None
    truncated: bool
    next: dict[str, Any]


# -- nodes and edges ------------------------------------------------------------------


def _node(row: SymbolRow, errors: int = 0) -> dict[str, Any]:
    node: dict[str, Any] = {
        "selector": row.selector,
        "name": row.name,
        "kind": row.kind,
        "file": row.file,
        "line": row.line,
        "end_line": row.end_line,
    }
    signature = row.signature.split("\n")[-1]
    if signature:
        node["signature"] = signature if len(signature) <= _SIG_CHARS else signature[: _SIG_CHARS - 1] + "…"
    if row.doc:
        node["doc"] = row.doc
    if errors:
        node["errors"] = errors
    return node


class _Graph:
    """Read helpers over the index for one request."""

    def __init__(self, ws: Workspace, conn: sqlite3.Connection) -> None:
        self.ws = ws
        self.conn = conn
        self._rows: dict[int, SymbolRow | None] = {}
        self.blocks = TestBlocks(conn)
        self.likely = Likely(conn)

    def row(self, symbol_id: int) -> SymbolRow | None:
        """A symbol, or a TS/JS test block for a negative id."""
        if symbol_id < 0:
            block = self.blocks.block(-symbol_id)
            return block.row if block is not None else None
        if symbol_id not in self._rows:
            found = query_symbols(self.conn, "s.id = ?", (symbol_id,))
            self._rows[symbol_id] = found[0] if found else None
        return self._rows[symbol_id]

    def resolve(self, selector: str) -> SymbolRow:
        if is_block_selector(selector):
            return self.blocks.resolve(selector)
        row = resolve_symbol(self.ws, self.conn, SymbolTarget.model_validate({"selector": selector}))
        self._rows[row.id] = row
        return row

    def resolve_quiet(self, selector: str) -> SymbolRow | None:
        try:
            return self.resolve(selector)
        except AstmcpError:
            return None

    def nodes(self, rows: list[SymbolRow]) -> list[dict[str, Any]]:
        errors: Counter[tuple[str, str]] = Counter()
        files = sorted({r.file for r in rows})
        if files:
            marks = ",".join("?" * len(files))
            for path, symbol_path, count in self.conn.execute(
                "SELECT f.path, d.symbol_path, COUNT(*) FROM diagnostics d JOIN files f ON f.id = d.file_id"
                f" WHERE d.severity = 'error' AND d.symbol_path IS NOT NULL AND f.path IN ({marks})"
                " GROUP BY 1, 2",
                files,
            ):
                errors[(path, symbol_path)] = count
        return [_node(r, errors[(r.file, r.symbol_path)]) for r in rows]

    def out_edges(self, symbol_id: int, kinds: tuple[str, ...]) -> list[Edge]:
        """(target, kind, line, confidence) of the edges from a symbol or a test block, certain
        ones from the index and ``likely`` ones from untyped member uses; one per target and kind."""
        if symbol_id < 0:
            return self._block_edges(symbol_id, kinds)
        marks = ",".join("?" * len(kinds))
        out: dict[tuple[int, str], Edge] = {}
        for dst, kind, line in self.conn.execute(
            f"SELECT dst_symbol_id, kind, MIN(line) FROM edges WHERE src_symbol_id = ? AND kind IN ({marks})"
            " AND dst_symbol_id IS NOT NULL GROUP BY 1, 2 ORDER BY 3",
            (symbol_id, *kinds),
        ):
            out[(dst, kind)] = (dst, kind, line, "certain")
        row = self.row(symbol_id)
        if row is not None and row.kind not in _DATA_KINDS and ("calls" in kinds or "references" in kinds):
            python = is_python(row.file)
            for name, ref_kind, line in self.likely.uses_in(row):
                kind = EDGE_KIND.get(ref_kind, "references")
                target = self.likely.target(name, python) if kind in kinds else None
                if target is not None and target.id != symbol_id:
                    out.setdefault((target.id, kind), (target.id, kind, line, "likely"))
        return sorted(out.values(), key=lambda e: e[2])

    def _block_edges(self, block_id: int, kinds: tuple[str, ...]) -> list[Edge]:
        """A test block's uses: ``tests`` edges when asked for, else calls/references."""
        block = self.blocks.block(-block_id)
        if block is None:
            return []
        if "contains" in kinds:
            return [(-child.id, "contains", child.line, "certain") for child in self.blocks.children(block)]
        python = is_python(block.row.file)
        out: dict[tuple[int, str], Edge] = {}
        for symbol_id, name, ref_kind, line, confidence, target_key in self.blocks.uses(block):
            kind = "tests" if "tests" in kinds else EDGE_KIND.get(ref_kind, "references")
            if kind not in kinds:
                continue
            if symbol_id is not None and confidence == "certain":
                out.setdefault((symbol_id, kind), (symbol_id, kind, line, "certain"))
            elif confidence == "name" and untyped(target_key):
                target = self.likely.target(name, python)
                if target is not None:
                    out.setdefault((target.id, kind), (target.id, kind, line, "likely"))
        return sorted(out.values(), key=lambda e: e[2])

    def in_edges(self, symbol_id: int, kinds: tuple[str, ...]) -> list[Edge]:
        """(source, kind, line, confidence) of the edges into a symbol: the index's, test blocks
        (``tests``, when asked for) and ``likely`` untyped member uses."""
        if symbol_id < 0:
            return []
        marks = ",".join("?" * len(kinds))
        out: dict[tuple[int, str], Edge] = {}
        for src, kind, line in self.conn.execute(
            f"SELECT src_symbol_id, kind, MIN(line) FROM edges WHERE dst_symbol_id = ? AND kind IN ({marks})"
            " AND src_symbol_id IS NOT NULL GROUP BY 1, 2 ORDER BY 3, kind = 'tests' DESC",
            (symbol_id, *kinds),
        ):
            out[(src, kind)] = (src, kind, line, "certain")
        tests = "tests" in kinds
        if tests:
            for block, line in self.blocks.reaching(symbol_id):
                out.setdefault((block, "tests"), (block, "tests", line, "certain"))
        row = self.row(symbol_id)
        if row is not None:
            for file_id, path, line, col, ref_kind, scope in self.likely.uses_of(row):
                kind = EDGE_KIND.get(ref_kind, "references")
                if is_python(path):
                    src = self._python_scope(file_id, scope)
                elif file_id in self.blocks.files():
                    src = self.blocks.source(file_id, line, col, scope)
                    kind = "tests" if src is not None and src < 0 else kind
                else:
                    src = self.blocks.owner_symbol(file_id, scope)
                if src is not None and src != symbol_id and kind in kinds:
                    out.setdefault((src, kind), (src, kind, line, "likely"))
        order = sorted(out.values(), key=lambda e: (e[2], e[1] != "tests"))
        return order

    def twins(self, row: SymbolRow) -> list[SymbolRow]:
        return [row] if row.id < 0 else twins(self.conn, row)

    def _python_scope(self, file_id: int, scope: str | None) -> int | None:
        if scope is None:
            return None
        found = self.conn.execute(
            "SELECT id FROM symbols WHERE file_id = ? AND symbol_path = ? ORDER BY line LIMIT 1",
            (file_id, scope),
        ).fetchone()
        return found[0] if found else None

    def fan_in(self, ids: list[int]) -> dict[int, int]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(
            self.conn.execute(
                f"SELECT dst_symbol_id, COUNT(DISTINCT src_symbol_id) FROM edges WHERE dst_symbol_id IN ({marks})"
                " AND kind IN ('calls', 'references', 'inherits') GROUP BY 1",
                ids,
            ).fetchall()
        )

    def is_test(self, row: SymbolRow) -> bool:
        if row.id < 0:
            return True  # a TS/JS test block
        if not is_test_file(row.file) and "test" not in posixpath.basename(row.file):
            return False
        name = row.name
        return name.startswith(("test", "Test")) or name.endswith(("Test", "Tests", "TestCase"))


def _edge(src: SymbolRow, dst: SymbolRow, kind: str, line: int, confidence: str) -> dict[str, Any]:
    return {"from": src.selector, "to": dst.selector, "kind": kind, "line": line, "confidence": confidence}


# -- requests ---------------------------------------------------------------------------


def _overview(graph: _Graph, req: Overview) -> dict[str, Any]:
    conn = graph.conn
    out: dict[str, Any] = {}
    if req.aspect in ("all",):
        out["counts"] = {
            "files": dict(conn.execute("SELECT language, COUNT(*) FROM files GROUP BY 1").fetchall()),
            "symbols": dict(
                conn.execute("SELECT kind, COUNT(*) FROM symbols GROUP BY 1 ORDER BY 2 DESC").fetchall()
            ),
            "edges": dict(
                conn.execute("SELECT kind, COUNT(*) FROM edges GROUP BY 1 ORDER BY 2 DESC").fetchall()
            ),
        }
        blocks = dict(conn.execute("SELECT kind, COUNT(*) FROM test_blocks GROUP BY 1").fetchall())
        if blocks:
            out["counts"]["test_blocks"] = blocks  # TS/JS describe/it/test calls (graph-only nodes)
    if req.aspect in ("all", "layers"):
        paths = [r[0] for r in conn.execute("SELECT path FROM files")]
        depth = 2 if len({p.split("/", 1)[0] for p in paths if "/" in p}) <= 2 else 1
        layer_files: Counter[str] = Counter(
            "/".join(p.split("/")[:depth]) if "/" in p else "." for p in paths
        )
        out["layers"] = [{"layer": name, "files": n} for name, n in layer_files.most_common(12)]
    if req.aspect in ("all", "hotspots"):
        hot = conn.execute(
            "SELECT dst_symbol_id, COUNT(DISTINCT src_symbol_id) AS n FROM edges"
            " WHERE kind IN ('calls', 'references', 'inherits') AND dst_symbol_id IS NOT NULL"
            " GROUP BY 1 ORDER BY n DESC LIMIT 8"
        ).fetchall()
        rows = [r for r in (graph.row(i) for i, _ in hot) if r is not None]
        out["nodes"] = graph.nodes(rows)
        for node, (_, n) in zip(out["nodes"], hot, strict=False):
            node["fan_in"] = n
    if req.aspect == "public_api":
        rows = query_symbols(
            conn,
            "s.exported = 1 AND s.parent_path IS NULL AND s.kind IN ('class', 'function')"
            " AND (f.path LIKE '%__init__.py' OR f.path LIKE '%index.ts' OR f.path LIKE '%index.js')"
            " ORDER BY f.path, s.line LIMIT 40",
        )
        if not rows:
            ids = [
                r[0]
                for r in conn.execute(
                    "SELECT e.dst_symbol_id FROM edges e JOIN symbols s ON s.id = e.dst_symbol_id"
                    " WHERE e.kind = 'imports' AND s.exported = 1 AND s.parent_path IS NULL"
                    " GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 20"
                )
            ]
            rows = [r for r in (graph.row(i) for i in ids) if r is not None]
        out["nodes"] = graph.nodes(rows)
    out["summary"] = f"overview ({req.aspect})"
    return out


def _search(ws: Workspace, query: str, limit: int) -> list[SearchHit]:
    found = search_symbols(
        ws, SearchInput.model_validate({"query": query, "limit": limit, "detail": "selectors"})
    )
    assert isinstance(found, SearchOutput)
    return found.symbols


def _lookup_rows(graph: _Graph, query: str, limit: int) -> list[SymbolRow]:
    hits = _search(graph.ws, query, max(limit * 4, 20))
    rows = [r for r in (graph.resolve_quiet(h.selector) for h in hits) if r is not None]
    fan = graph.fan_in([r.id for r in rows])
    order = {r.id: n for n, r in enumerate(rows)}
    # search rank first, fan-in breaks ties inside a rank band of four
    rows.sort(key=lambda r: (order[r.id] // 4, graph.is_test(r), -fan.get(r.id, 0), order[r.id]))
    return rows[:limit]


def _lookup(graph: _Graph, req: Lookup) -> dict[str, Any]:
    rows = _lookup_rows(graph, req.query, req.limit)
    fan = graph.fan_in([r.id for r in rows])
    nodes = graph.nodes(rows)
    for node, row in zip(nodes, rows, strict=True):
        node["fan_in"] = fan.get(row.id, 0)
    return {"nodes": nodes, "summary": f"{len(rows)} symbols for {req.query!r}"}


def _handles(graph: _Graph, handles: list[str]) -> tuple[list[SymbolRow], list[dict[str, Any]]]:
    rows, missing = [], []
    for handle in handles:
        try:
            rows.append(graph.resolve(handle))
        except AstmcpError as error:
            missing.append({"handle": handle, "code": error.code, "details": error.details or {}})
    return rows, missing


def _details(graph: _Graph, req: Details) -> dict[str, Any]:
    rows, missing = _handles(graph, req.handles)
    nodes = graph.nodes(rows)
    edges: list[dict[str, Any]] = []
    extra: dict[int, SymbolRow] = {}
    for node, row in zip(nodes, rows, strict=True):
        members = [graph.row(edge[0]) for edge in graph.out_edges(row.id, ("contains",))]
        if members:
            node["members"] = [f"{m.name}:{m.kind}@{m.line}" for m in members if m is not None][:40]
        outgoing = graph.out_edges(row.id, ("calls", "references", "inherits", "tests"))
        incoming = graph.in_edges(row.id, _IMPACT)
        node["edges_out"], node["edges_in"] = len(outgoing), len(incoming)
        for dst, kind, line, confidence in outgoing[:_EDGES_PER_SIDE]:
            target = graph.row(dst)
            if target is not None and target.id != row.id:
                edges.append(_edge(row, target, kind, line, confidence))
                extra[target.id] = target
        for src, kind, line, confidence in incoming[:_EDGES_PER_SIDE]:
            origin = graph.row(src)
            if origin is not None and origin.id != row.id:
                edges.append(_edge(origin, row, kind, line, confidence))
                extra[origin.id] = origin
    if req.neighbors:
        known = {r.id for r in rows}
        nodes += graph.nodes([r for i, r in extra.items() if i not in known][:20])
    return {"nodes": nodes, "edges": edges, "missing": missing or None}


def _trace(graph: _Graph, req: Trace) -> dict[str, Any]:
    start = graph.resolve(req.from_)
    goal = graph.resolve(req.to) if req.to else None
    kinds = _IMPACT if req.direction == "impact" else _FLOW
    reverse = req.direction != "forward"
    depth_cap = max(req.max_depth, 6) if goal is not None else req.max_depth
    # Overloads, accessors and a stub beside the source are one symbol: start from all of them.
    start_ids = [row.id for row in graph.twins(start)]
    goal_ids = {row.id for row in graph.twins(goal)} if goal is not None else set()
    parents: dict[int, tuple[int, str, int] | None] = dict.fromkeys(start_ids)
    queue = deque((symbol_id, 0) for symbol_id in start_ids)
    order = [start.id]
    edges: list[dict[str, Any]] = []
    cut = False
    while queue:
        current, depth = queue.popleft()
        if depth >= depth_cap or current in goal_ids:
            continue
        steps = graph.in_edges(current, kinds) if reverse else graph.out_edges(current, kinds)
        for other, kind, line, confidence in steps:
            if other in parents:
                continue
            parents[other] = (current, kind, line)
            if goal is None and len(order) >= req.max_nodes:
                cut = True
                break
            order.append(other)
            queue.append((other, depth + 1))
            a, b = (
                (graph.row(other), graph.row(current)) if reverse else (graph.row(current), graph.row(other))
            )
            if a is not None and b is not None and goal is None:
                edges.append(_edge(a, b, kind, line, confidence))
    out: dict[str, Any] = {}
    if goal is not None:
        reached = next((i for i in goal_ids if i in parents), None)
        if reached is None:
            out["paths"] = []
            out["summary"] = f"no {req.direction} path within depth {depth_cap}"
            out["nodes"] = graph.nodes([start, goal])
            return out
        chain = [reached]
        while parents[chain[-1]] is not None:
            chain.append(parents[chain[-1]][0])  # type: ignore[index]
        chain.reverse()
        rows = [r for r in (graph.row(i) for i in chain) if r is not None]
        out["paths"] = [[r.selector for r in rows]]
        out["nodes"] = graph.nodes(rows)
        return out
    rows = [r for r in (graph.row(i) for i in order) if r is not None]
    out["nodes"] = graph.nodes(rows)
    out["edges"] = edges
    if cut:
        out["summary"] = f"stopped at max_nodes={req.max_nodes}"
        out["cut"] = True
    return out


def _tests(graph: _Graph, req: Tests) -> dict[str, Any]:
    rows, missing = _handles(graph, req.handles)
    found: dict[int, SymbolRow] = {}
    edges: list[dict[str, Any]] = []
    for row in rows:
        seen = {row.id}
        queue = deque([(row.id, 0)])
        while queue:
            current, depth = queue.popleft()
            for src, kind, line, confidence in graph.in_edges(current, ("tests", "calls", "references")):
                if src in seen:
                    continue
                seen.add(src)
                origin = graph.row(src)
                if origin is None:
                    continue
                # a helper function of a test file with test blocks is followed to its blocks
                helper = src > 0 and origin.file in graph.blocks.paths()
                if (kind == "tests" and not helper) or graph.is_test(origin):
                    if src not in found:
                        found[src] = origin
                        target = graph.row(current)
                        if target is not None:
                            edges.append(_edge(origin, target, "tests", line, confidence))
                elif depth < 2:
                    queue.append((src, depth + 1))
    tests = sorted(found.values(), key=lambda r: (r.file, r.line))
    return {
        "nodes": graph.nodes(tests),
        "edges": edges,
        "missing": missing or None,
        "summary": f"{len(tests)} tests reach {len(rows)} symbol(s) (directly or through ≤2 callers)",
    }


def _tour_entries(graph: _Graph, query: str, limit: int) -> list[SymbolRow]:
    """Symbols matching the phrase or its words, most words first, then fan-in."""
    score: Counter[int] = Counter()
    rows: dict[int, SymbolRow] = {}
    probes = [query, *(w for w in dict.fromkeys(words(query)) if len(w) >= 3 and w not in _STOP)]
    wants_tests = "test" in query.lower()
    for n, probe in enumerate(probes):
        for hit in _search(graph.ws, probe, 40):
            row = graph.resolve_quiet(hit.selector)
            if row is None or graph.is_test(row) or (not wants_tests and is_test_file(row.file)):
                continue
            rows[row.id] = row
            score[row.id] += (3 if n == 0 else 1) + (1 if hit.match in ("exact_name", "exact_path") else 0)
            if row.kind in ("variable", "attribute"):
                score[row.id] -= 1  # data is rarely where "how does X work" starts
    # a word of the question in the file's path ("url" in django/urls/) places the symbol in its subsystem
    for row in rows.values():
        score[row.id] += sum(1 for w in probes[1:] if w in row.file.lower())
        if len(probes) > 2 and all(w in row.symbol_path.lower() for w in probes[1:]):
            score[row.id] += 2  # every word in the dotted path: QuerySet.filter for "queryset filter"
    fan = graph.fan_in(list(rows))
    ranked = sorted(rows.values(), key=lambda r: (-score[r.id], -fan.get(r.id, 0), r.selector))
    return ranked[:limit]


def _tour(graph: _Graph, req: Tour) -> dict[str, Any]:
    entries = _tour_entries(graph, req.query, req.limit)
    if not entries:
        return {"summary": f"nothing in the index matches {req.query!r}", "nodes": []}
    fan = graph.fan_in([r.id for r in entries])
    entries.sort(key=lambda r: -fan.get(r.id, 0))
    nodes = graph.nodes(entries)
    for node, row in zip(nodes, entries, strict=True):
        node["fan_in"] = fan.get(row.id, 0)
        node["role"] = "entry"
    edges: list[dict[str, Any]] = []
    flow: dict[int, SymbolRow] = {}
    for row in entries:
        callees = [c for c in graph.out_edges(row.id, ("calls",)) if c[0] != row.id]
        callee_fan = graph.fan_in([c[0] for c in callees])
        callees.sort(key=lambda c: -callee_fan.get(c[0], 0))
        for dst, kind, line, confidence in callees[:3]:
            target = graph.row(dst)
            if target is None:
                continue
            edges.append(_edge(row, target, kind, line, confidence))
            if target.id not in flow and all(target.id != e.id for e in entries):
                flow[target.id] = target
    flow_nodes = graph.nodes(list(flow.values())[:6])
    for node in flow_nodes:
        node["role"] = "flow"
    anchors_src = entries[:3] + list(flow.values())[:2]
    anchors = [
        {"selector": r.selector, "file": r.file, "lines": f"{r.start_line}-{r.end_line}", "why": why}
        for r, why in zip(anchors_src, ["entry"] * len(entries[:3]) + ["main callee"] * 2, strict=False)
    ]
    return {
        "nodes": nodes + flow_nodes,
        "edges": edges,
        "anchors": anchors,
        "summary": f"{len(entries)} entry points for {req.query!r}, their main calls, and {len(anchors)} spans to read",
    }


# -- bounding and the tool ------------------------------------------------------------------


def _size(data: dict[str, Any]) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _bound(data: dict[str, Any], cap: int) -> bool:
    """Shorten edges, then nodes, then other lists until the answer fits; True when cut."""
    cut = False
    for key in ("edges", "nodes", "anchors", "layers", "paths", "missing"):
        items = data.get(key)
        while isinstance(items, list) and items and _size(data) > cap:
            items.pop()
            cut = True
    return cut


def _next(req: BaseModel, data: dict[str, Any], truncated: bool) -> dict[str, Any]:
    kind = data["type"]
    if kind == "escape":
        return {"action": "outside", "reason": "not a graph question: read the source, docs or run the code"}
    nodes = data.get("nodes") or []
    if truncated:
        if isinstance(req, Trace):
            smaller = req.model_dump(by_alias=True, exclude_none=True)
            smaller["max_nodes"] = max(1, min(req.max_nodes, len(nodes)) - 1)
            return {"action": "inspect", "request": smaller, "reason": "cut to the byte cap; narrower trace"}
        if kind == "details" and nodes:
            return {
                "action": "inspect",
                "request": {
                    "type": "trace",
                    "from": nodes[0]["selector"],
                    "direction": "reverse",
                    "max_nodes": 8,
                },
                "reason": "edges cut to the byte cap; trace one direction, or raise max_bytes",
            }
        if nodes:
            return {
                "action": "inspect",
                "request": {"type": "details", "handles": [n["selector"] for n in nodes[:3]]},
                "reason": "answer cut to the byte cap; inspect the top nodes or raise max_bytes",
            }
    if data.get("missing") and not nodes:
        handle = data["missing"][0]["handle"]
        if is_block_selector(handle):  # test blocks are not searchable: offer the closest one
            details = data["missing"][0]["details"]
            close = details.get("suggestions") or [c["selector"] for c in details.get("candidates", [])]
            if close:
                return {
                    "action": "inspect",
                    "request": {"type": "details", "handles": close[:1]},
                    "reason": "test block not found; the closest one in its file",
                }
            return {
                "action": "outside",
                "reason": "no such test block; a tests request on what it exercises lists the blocks",
            }
        return {
            "action": "inspect",
            "request": {"type": "lookup", "query": handle.rsplit("::", 1)[-1].rsplit(".", 1)[-1]},
            "reason": "handle not found; look it up by name",
        }
    if not nodes and kind in ("lookup", "tour"):
        return {
            "action": "outside",
            "reason": "the index has no symbol for this; search text or docs instead",
        }
    if kind == "lookup" and nodes:
        return {
            "action": "inspect",
            "request": {"type": "details", "handles": [nodes[0]["selector"]]},
            "reason": "details of the best match (signature, members, edges)",
        }
    if kind == "trace" and data.get("cut"):
        return {
            "action": "answer",
            "reason": "partial trace at max_nodes; raise it only if the answer needs more",
        }
    return {"action": "answer", "reason": "the answer is complete; cite file:line from the nodes"}


_HANDLERS: dict[str, Any] = {
    "overview": _overview,
    "lookup": _lookup,
    "details": _details,
    "trace": _trace,
    "tests": _tests,
    "tour": _tour,
}


@tool("ast_inspect_graph", GraphInput, GraphOutput)
def inspect_graph(ws: Workspace, params: GraphInput) -> GraphOutput:
    """Answer structural questions from the code graph (names, signatures, edges, spans; never
    bodies). Fill question/draft/review, then one request: overview, lookup, details, trace
    (forward/reverse/impact, or a path with to), tests, tour ("how does X work": entry points,
    main flow, spans to read first) or escape. Follow next.action. Edges carry confidence
    certain/likely (likely: the only member of that name, receiver untyped). TS/JS
    describe/it/test blocks are test nodes; handle `file::"suite" > "test"`."""
    request = params.request
    if isinstance(request, Escape):
        data: dict[str, Any] = {"type": "escape", "summary": request.reason}
    else:
        conn = ws.db()
        graph = _Graph(ws, conn)
        data = {"type": request.type, **_HANDLERS[request.type](graph, request)}
    data = {k: v for k, v in data.items() if v is not None}
    cap = params.max_bytes if "max_bytes" in params.model_fields_set else DEFAULT_CAP
    truncated = _bound(data, cap - 400)
    data["next"] = _next(request, data, truncated)
    data.pop("cut", None)
    data["truncated"] = truncated
    return GraphOutput(**data)
