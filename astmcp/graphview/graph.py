"""A bounded, deterministic picture of the index: modules or symbols and their edges."""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

Level = Literal["module", "symbol"]

# Symbol kinds worth drawing; members such as attributes would drown the picture.
DRAWN_KINDS = (
    "class",
    "interface",
    "function",
    "method",
    "constructor",
    "type",
    "enum",
    "namespace",
)
EDGE_KINDS = ("imports", "calls", "inherits")


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    label: str
    kind: str
    file: str
    line: int
    language: str
    layer: str
    signature: str = ""


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    kind: str
    count: int


@dataclass(slots=True)
class Graph:
    level: Level
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    omitted_nodes: int = 0
    omitted_edges: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "nodes": [
                {
                    "id": n.id,
                    "label": n.label,
                    "kind": n.kind,
                    "file": n.file,
                    "line": n.line,
                    "language": n.language,
                    "layer": n.layer,
                    "signature": n.signature,
                }
                for n in self.nodes
            ],
            "edges": [
                {"source": e.source, "target": e.target, "kind": e.kind, "count": e.count} for e in self.edges
            ],
            "omitted": {"nodes": self.omitted_nodes, "edges": self.omitted_edges},
        }


def layer_of(path: str) -> str:
    """The top-level folder of a path: the layer a node is drawn in."""
    head, sep, _ = path.partition("/")
    return head if sep else "."


def _module_graph(conn: sqlite3.Connection) -> tuple[dict[str, Node], Counter[tuple[str, str, str]]]:
    nodes = {
        path: Node(path, path, "module", path, 1, language, layer_of(path))
        for path, language in conn.execute("SELECT path, language FROM files")
    }
    edges: Counter[tuple[str, str, str]] = Counter()
    for source, target in conn.execute(
        "SELECT f.path, i.resolved_path FROM imports i JOIN files f ON f.id = i.file_id"
        " WHERE i.resolved_path IS NOT NULL"
    ):
        if source != target and target in nodes:
            edges[(source, target, "imports")] += 1
    for source, target, kind in conn.execute(
        "SELECT fs.path, fd.path, e.kind FROM edges e"
        " JOIN symbols s ON s.id = e.src_symbol_id JOIN files fs ON fs.id = s.file_id"
        " JOIN symbols d ON d.id = e.dst_symbol_id JOIN files fd ON fd.id = d.file_id"
        " WHERE e.kind IN ('calls', 'inherits')"
    ):
        if source != target:
            edges[(source, target, kind)] += 1
    return nodes, edges


def _symbol_graph(conn: sqlite3.Connection) -> tuple[dict[str, Node], Counter[tuple[str, str, str]]]:
    marks = ",".join("?" * len(DRAWN_KINDS))
    nodes: dict[str, Node] = {}
    ids: dict[int, str] = {}
    for sid, selector, name, kind, line, signature, path, language in conn.execute(
        "SELECT s.id, s.selector, s.symbol_path, s.kind, s.line, s.signature, f.path, f.language"
        f" FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.kind IN ({marks})",
        DRAWN_KINDS,
    ):
        ids[sid] = selector
        nodes[selector] = Node(
            selector, name, kind, path, line, language, layer_of(path), signature.split("\n")[-1][:200]
        )
    edges: Counter[tuple[str, str, str]] = Counter()
    kinds = ",".join("?" * len(EDGE_KINDS))
    for src, dst, kind in conn.execute(
        f"SELECT src_symbol_id, dst_symbol_id, kind FROM edges WHERE kind IN ({kinds})"
        " AND src_symbol_id IS NOT NULL AND dst_symbol_id IS NOT NULL",
        EDGE_KINDS,
    ):
        source, target = ids.get(src), ids.get(dst)
        if source and target and source != target:
            edges[(source, target, kind)] += 1
    return nodes, edges


def build_graph(conn: sqlite3.Connection, level: Level, focus: str | None, max_nodes: int) -> Graph:
    """Nodes under ``focus`` (a path or selector prefix), at most ``max_nodes`` of them:
    the highest fan-in + fan-out first, ties by id, so the output is deterministic."""
    nodes, edges = _module_graph(conn) if level == "module" else _symbol_graph(conn)
    if focus:
        nodes = {k: v for k, v in nodes.items() if k.startswith(focus)}
    live = {key: n for key, n in edges.items() if key[0] in nodes and key[1] in nodes}
    degree: Counter[str] = Counter()
    for (source, target, _), count in live.items():
        degree[source] += count
        degree[target] += count
    ranked = sorted(nodes, key=lambda k: (-degree[k], k))
    kept = set(ranked[:max_nodes])
    kept_edges = sorted(
        (Edge(s, t, kind, count) for (s, t, kind), count in live.items() if s in kept and t in kept),
        key=lambda e: (e.source, e.target, e.kind),
    )
    return Graph(
        level=level,
        nodes=[nodes[k] for k in sorted(kept)],
        edges=kept_edges,
        omitted_nodes=len(nodes) - len(kept),
        omitted_edges=len(live) - len(kept_edges),
    )
