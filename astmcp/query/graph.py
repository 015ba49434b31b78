"""``ast_inspect_graph``: structural questions answered from the index alone.

One tool, a forced chain of thought (``question``, ``draft``, ``review``) and a
request union. Answers carry names, signatures, first doc lines, edges and
spans, never bodies; each is cut to a byte cap (default 4 KiB) and says what to
do next: ``answer`` now, ``inspect`` with one named follow-up, or look
``outside`` the graph.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from astmcp.query.graph_answers import (
    answer_details,
    answer_lookup,
    answer_overview,
    answer_tests,
    answer_tour,
    answer_trace,
)
from astmcp.query.graph_index import Graph
from astmcp.query.graph_requests import Escape, GraphInput, GraphOutput, Trace
from astmcp.query.graph_tests import is_block_selector
from astmcp.tools import tool
from astmcp.workspace import Workspace

DEFAULT_CAP = 4096


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
    "overview": answer_overview,
    "lookup": answer_lookup,
    "details": answer_details,
    "trace": answer_trace,
    "tests": answer_tests,
    "tour": answer_tour,
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
        graph = Graph(ws, conn)
        data = {"type": request.type, **_HANDLERS[request.type](graph, request)}
    data = {k: v for k, v in data.items() if v is not None}
    cap = params.max_bytes if "max_bytes" in params.model_fields_set else DEFAULT_CAP
    truncated = _bound(data, cap - 400)
    data["next"] = _next(request, data, truncated)
    data.pop("cut", None)
    data["truncated"] = truncated
    return GraphOutput(**data)
