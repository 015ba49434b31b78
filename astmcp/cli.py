"""``ast-tool``: a thin adapter from the command line to the handlers.

Feature packages add their own subcommands through ``add_commands(subparsers)``
(listed in :data:`COMMAND_MODULES`); this module only parses and prints.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from astmcp import __version__
from astmcp.errors import AstmcpError
from astmcp.workspace import Workspaces

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

COMMAND_MODULES = (
    "astmcp.pipeline.cli",
    "astmcp.refactor.cli",
    "astmcp.agents.cli",
    "astmcp.graphview.cli",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # usage errors exit 2 with one line
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _root_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default=None, help="project root (default: current directory)")


BUILTIN_COMMANDS = frozenset({"call", "tools", "index", "stats"})


def build_parser(feature_commands: bool = True) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ast-tool",
        description="Code intelligence and safe refactoring for Python and TypeScript/JavaScript projects.",
    )
    parser.add_argument("--version", action="version", version=f"astmcp {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    call = sub.add_parser("call", help="run one tool and print its JSON result")
    call.add_argument("tool", help="tool name, e.g. ast_search_symbols (see `ast-tool tools`)")
    call.add_argument("--input", default="{}", help="tool input as JSON, or - to read it from stdin")
    _root_arg(call)
    call.set_defaults(func=_cmd_call)

    tools = sub.add_parser("tools", help="list the tools with their descriptions")
    tools.set_defaults(func=_cmd_tools)

    index = sub.add_parser("index", help="build or refresh the index (progress on a terminal)")
    index.add_argument("--full", action="store_true", help="re-parse every file")
    _root_arg(index)
    index.set_defaults(func=_cmd_index)

    stats = sub.add_parser("stats", help="print index counts, skips and timings as JSON")
    _root_arg(stats)
    stats.set_defaults(func=_cmd_stats)

    for name in COMMAND_MODULES if feature_commands else ():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise
            continue
        module.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # A built-in command needs none of the feature modules: not importing them keeps
    # `ast-tool call` (one query, process start included) fast.
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    parser = build_parser(feature_commands=command not in BUILTIN_COMMANDS)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        code: int = args.func(args)
        return code
    except AstmcpError as error:
        from astmcp.tools import dumps_compact

        print(dumps_compact(error.to_wire()), file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`| head`): not an error of ours
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - silence the exit flush
        return EXIT_OK


def _workspaces(args: argparse.Namespace) -> Workspaces:
    # plans outlive this process as plan files: preview/apply them in a later call
    return Workspaces(Path(args.root) if args.root else Path.cwd(), persist_plans=True)


def _cmd_call(args: argparse.Namespace) -> int:
    # The tool models (pydantic) are imported here: `index` and `stats` start without them.
    from astmcp.tools import call_tool, dumps_compact, find_tool, registry

    raw = sys.stdin.read() if args.input == "-" else args.input
    try:
        arguments = json.loads(raw)
    except json.JSONDecodeError as exc:
        print(
            dumps_compact({"error": {"code": "INVALID_INPUT", "message": f"--input is not JSON: {exc}"}}),
            file=sys.stderr,
        )
        return EXIT_USAGE
    if not isinstance(arguments, dict):
        print(
            dumps_compact({"error": {"code": "INVALID_INPUT", "message": "--input must be a JSON object"}}),
            file=sys.stderr,
        )
        return EXIT_USAGE
    if find_tool(args.tool) is None:
        print(
            dumps_compact(
                {
                    "error": {
                        "code": "INVALID_INPUT",
                        "message": f"unknown tool {args.tool!r}",
                        "details": {"tools": sorted(registry())},
                    }
                }
            ),
            file=sys.stderr,
        )
        return EXIT_USAGE
    workspaces = _workspaces(args)
    result = call_tool(workspaces, args.tool, arguments)
    if result.is_error:
        print(result.text, file=sys.stderr)
        return EXIT_FAILED
    print(result.text)
    data = result.data
    if data.get("status") == "prepared" and isinstance(data.get("operation_id"), str):
        ws = workspaces.get(arguments.get("project_root"))
        path = ws.plans.state_dir / "plans" / f"{data['operation_id']}.astplan"
        print(
            f"plan file: {path}\nreview: ast-tool call ast_get_operation_preview --input"
            f' \'{{"operation_id": "{data["operation_id"]}"}}\'\n'
            f"apply:  ast-tool apply {path} --plan-hash {data.get('plan_hash')}",
            file=sys.stderr,
        )
    return EXIT_OK


def _cmd_tools(args: argparse.Namespace) -> int:
    from astmcp.tools import registry

    for name, spec in registry().items():
        print(f"{name}: {spec.description}")
    return EXIT_OK


def _cmd_index(args: argparse.Namespace) -> int:
    from astmcp.index.progress import TerminalProgress

    ws = _workspaces(args).get(args.root)
    progress = TerminalProgress(sys.stderr)
    try:
        stats = ws.index.refresh(full=args.full, progress=progress)
    finally:
        progress.close()
    summary = {
        "root": ws.root.name,
        "files": stats.files,
        "parsed": stats.parsed,
        "removed": stats.removed,
        "skipped": stats.skipped,
        "seconds": round(stats.walk_s + stats.parse_s + stats.write_s, 3),
    }
    print(json.dumps(summary, ensure_ascii=False, separators=(",", ":")))
    return EXIT_OK


def _cmd_stats(args: argparse.Namespace) -> int:
    ws = _workspaces(args).get(args.root)
    t0 = time.perf_counter()
    refresh = ws.index.refresh()
    conn = ws.index.conn
    counts = {
        table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        for table in ("files", "symbols", "imports", "refs", "edges", "diagnostics")
    }
    by_language = dict(conn.execute("SELECT language, COUNT(*) FROM files GROUP BY language").fetchall())
    stored = dict(conn.execute("SELECT key, value FROM stats").fetchall())
    out = {
        "counts": counts,
        "languages": by_language,
        "parse_errors": conn.execute("SELECT COUNT(*) FROM files WHERE parse_error IS NOT NULL").fetchone()[
            0
        ],
        "files_with_error_nodes": conn.execute("SELECT COUNT(*) FROM files WHERE has_error_nodes").fetchone()[
            0
        ],
        "skipped": refresh.skipped,
        "refresh_s": round(time.perf_counter() - t0, 3),
        "last_index": {k: v for k, v in stored.items() if not k.startswith("skipped_")},
        "index_bytes": sum(
            os.path.getsize(p) for p in (ws.root / ".astmcp").glob("index.db*") if p.is_file()
        ),
    }
    print(json.dumps(out, indent=2))
    return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
