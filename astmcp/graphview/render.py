"""Mermaid and DOT text for a :class:`~astmcp.graphview.graph.Graph` (JSON is Graph.to_json)."""

from __future__ import annotations

import json

from astmcp.graphview.graph import Graph

_ARROWS = {"imports": "-->", "calls": "==>", "inherits": "-.->"}


def _mermaid_label(text: str) -> str:
    return text.replace('"', "#quot;").replace("\n", " ")


def to_mermaid(graph: Graph) -> str:
    ids = {node.id: f"n{index}" for index, node in enumerate(graph.nodes)}
    lines = ["flowchart LR"]
    if graph.omitted_nodes or graph.omitted_edges:
        lines.append(
            f"%% left out: {graph.omitted_nodes} nodes and {graph.omitted_edges} edges (raise --max-nodes)"
        )
    for node in graph.nodes:
        lines.append(f'  {ids[node.id]}["{_mermaid_label(node.label)}"]')
    for edge in graph.edges:
        label = edge.kind if edge.count == 1 else f"{edge.kind} x{edge.count}"
        lines.append(f"  {ids[edge.source]} {_ARROWS.get(edge.kind, '-->')}|{label}| {ids[edge.target]}")
    return "\n".join(lines) + "\n"


def _dot_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid DOT quoted string


def to_dot(graph: Graph) -> str:
    lines = ["digraph astmcp {", "  rankdir=LR;", '  node [shape=box, fontname="Helvetica"];']
    if graph.omitted_nodes or graph.omitted_edges:
        lines.append(
            f"  // left out: {graph.omitted_nodes} nodes and {graph.omitted_edges} edges (raise --max-nodes)"
        )
    for node in graph.nodes:
        lines.append(f"  {_dot_string(node.id)} [label={_dot_string(node.label)}];")
    styles = {"imports": "solid", "calls": "bold", "inherits": "dashed"}
    for edge in graph.edges:
        label = edge.kind if edge.count == 1 else f"{edge.kind} x{edge.count}"
        lines.append(
            f"  {_dot_string(edge.source)} -> {_dot_string(edge.target)}"
            f" [label={_dot_string(label)}, style={styles.get(edge.kind, 'solid')}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_json_text(graph: Graph) -> str:
    return json.dumps(graph.to_json(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"
