"""What ``ast_inspect_graph`` answers to each request: overview, lookup, details, trace, tests, tour."""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

from astmcp.errors import AstmcpError
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.graph_index import Graph, edge_of
from astmcp.query.graph_requests import Details, Lookup, Overview, Tests, Tour, Trace
from astmcp.query.search import SearchHit, SearchInput, SearchOutput, search_symbols, words
from astmcp.resolve.python_modules import is_test_file
from astmcp.workspace import Workspace

_FLOW = ("calls", "references", "inherits")
_IMPACT = ("calls", "references", "inherits", "imports", "tests")
_EDGES_PER_SIDE = 10
_STOP = frozenset(
    {"the", "and", "how", "does", "what", "work", "works", "for", "with", "from", "into", "this"}
)


def answer_overview(graph: Graph, req: Overview) -> dict[str, Any]:
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


def _lookup_rows(graph: Graph, query: str, limit: int) -> list[SymbolRow]:
    hits = _search(graph.ws, query, max(limit * 4, 20))
    rows = [r for r in (graph.resolve_quiet(h.selector) for h in hits) if r is not None]
    fan = graph.fan_in([r.id for r in rows])
    order = {r.id: n for n, r in enumerate(rows)}
    # search rank first, fan-in breaks ties inside a rank band of four
    rows.sort(key=lambda r: (order[r.id] // 4, graph.is_test(r), -fan.get(r.id, 0), order[r.id]))
    return rows[:limit]


def answer_lookup(graph: Graph, req: Lookup) -> dict[str, Any]:
    rows = _lookup_rows(graph, req.query, req.limit)
    fan = graph.fan_in([r.id for r in rows])
    nodes = graph.nodes(rows)
    for node, row in zip(nodes, rows, strict=True):
        node["fan_in"] = fan.get(row.id, 0)
    return {"nodes": nodes, "summary": f"{len(rows)} symbols for {req.query!r}"}


def _handles(graph: Graph, handles: list[str]) -> tuple[list[SymbolRow], list[dict[str, Any]]]:
    rows, missing = [], []
    for handle in handles:
        try:
            rows.append(graph.resolve(handle))
        except AstmcpError as error:
            missing.append({"handle": handle, "code": error.code, "details": error.details or {}})
    return rows, missing


def answer_details(graph: Graph, req: Details) -> dict[str, Any]:
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
                edges.append(edge_of(row, target, kind, line, confidence))
                extra[target.id] = target
        for src, kind, line, confidence in incoming[:_EDGES_PER_SIDE]:
            origin = graph.row(src)
            if origin is not None and origin.id != row.id:
                edges.append(edge_of(origin, row, kind, line, confidence))
                extra[origin.id] = origin
    if req.neighbors:
        known = {r.id for r in rows}
        nodes += graph.nodes([r for i, r in extra.items() if i not in known][:20])
    return {"nodes": nodes, "edges": edges, "missing": missing or None}


def answer_trace(graph: Graph, req: Trace) -> dict[str, Any]:
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
                edges.append(edge_of(a, b, kind, line, confidence))
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


def answer_tests(graph: Graph, req: Tests) -> dict[str, Any]:
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
                            edges.append(edge_of(origin, target, "tests", line, confidence))
                elif depth < 2:
                    queue.append((src, depth + 1))
    tests = sorted(found.values(), key=lambda r: (r.file, r.line))
    return {
        "nodes": graph.nodes(tests),
        "edges": edges,
        "missing": missing or None,
        "summary": f"{len(tests)} tests reach {len(rows)} symbol(s) (directly or through ≤2 callers)",
    }


def _tour_entries(graph: Graph, query: str, limit: int) -> list[SymbolRow]:
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


def answer_tour(graph: Graph, req: Tour) -> dict[str, Any]:
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
            edges.append(edge_of(row, target, kind, line, confidence))
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
