"""``ast-tool export | view | config``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from astmcp.graphview.clients import CLIENTS, snippet
from astmcp.graphview.graph import build_graph
from astmcp.graphview.render import to_dot, to_json_text, to_mermaid
from astmcp.workspace import Workspaces


def add_commands(sub: Any) -> None:
    export = sub.add_parser("export", help="write the graph as Mermaid, DOT or JSON")
    export.add_argument("--format", choices=("mermaid", "dot", "json"), default="mermaid")
    _graph_args(export, default_nodes=60, default_level="module")
    export.add_argument("-o", "--output", help="file to write (default: stdout)")
    export.set_defaults(func=_cmd_export)

    view = sub.add_parser("view", help="draw the graph in a local, self-contained HTML page")
    _graph_args(view, default_nodes=400, default_level="symbol")
    view.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    view.add_argument("--output", help="write the page to FILE.html instead of serving it")
    view.set_defaults(func=_cmd_view)

    config = sub.add_parser("config", help="print the registration snippet for an MCP client")
    config.add_argument("client", choices=CLIENTS)
    config.add_argument("--root", help="project root the server should use (default: the client's cwd)")
    config.set_defaults(func=_cmd_config)


def _graph_args(parser: argparse.ArgumentParser, default_nodes: int, default_level: str) -> None:
    parser.add_argument("--root", default=None, help="project root (default: current directory)")
    parser.add_argument(
        "--level", choices=("module", "symbol"), default=default_level, help=f"default {default_level}"
    )
    parser.add_argument("--focus", help="only nodes whose file path or selector starts with this prefix")
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=default_nodes,
        help=f"keep the most connected nodes (default {default_nodes})",
    )


def _graph(args: argparse.Namespace) -> Any:
    if args.max_nodes < 1:
        raise SystemExit("ast-tool: --max-nodes must be at least 1")
    ws = Workspaces(Path(args.root) if args.root else Path.cwd()).get(args.root)
    return ws, build_graph(ws.db(), args.level, args.focus, args.max_nodes)


def _cmd_export(args: argparse.Namespace) -> int:
    _, graph = _graph(args)
    render = {"mermaid": to_mermaid, "dot": to_dot, "json": to_json_text}[args.format]
    text = render(graph)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if graph.omitted_nodes:
        print(f"left out {graph.omitted_nodes} nodes (raise --max-nodes to see more)", file=sys.stderr)
    return 0


def _cmd_view(args: argparse.Namespace) -> int:
    from astmcp.graphview.view import render_page, serve

    ws, graph = _graph(args)
    page = render_page(graph, ws.root.name)
    if args.output:
        target = Path(args.output)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(page, encoding="utf-8")
        os.replace(tmp, target)
        print(f"wrote {target}", file=sys.stderr)
        return 0
    serve(page, args.port)
    return 0


def _cmd_config(args: argparse.Namespace) -> int:
    root = str(Path(args.root).resolve()) if args.root else None
    sys.stdout.write(snippet(args.client, root))
    return 0
