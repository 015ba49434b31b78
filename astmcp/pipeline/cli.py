"""``ast-tool validate FILE|-`` and ``ast-tool run FILE|- [--output-format json|toon]``.

Success is one JSON (or TOON) value on stdout; failure is one JSON value on
stderr, ``{"status":"error","command","code","step_id"?,"message","details"?}``,
and nothing on stdout. Exit codes: 0 ok, 1 the run failed, 2 the document or
the command line is wrong (caught before any tool runs).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import toons

from astmcp.pipeline.errors import BatchError
from astmcp.pipeline.model import BatchLimits, load_json, parse_document
from astmcp.pipeline.runner import Pipeline, check_available, compile_pipeline, run_pipeline
from astmcp.tools import dumps_compact

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
T = TypeVar("T")


def add_commands(subparsers: Any) -> None:
    validate = subparsers.add_parser("validate", help="check a pipeline document without running it")
    validate.add_argument("file", nargs="?", metavar="FILE", help="pipeline JSON file, or - for stdin")
    validate.set_defaults(func=cmd_validate)
    run = subparsers.add_parser("run", help="run a pipeline document and print one JSON result")
    run.add_argument("file", nargs="?", metavar="FILE", help="pipeline JSON file, or - for stdin")
    # Checked by hand so a bad value is a USAGE error object, not argparse's text.
    run.add_argument("--output-format", default="json", metavar="json|toon", help="json (default) or toon")
    run.set_defaults(func=cmd_run)


def _read(file: str | None, limits: BatchLimits) -> tuple[bytes, Path]:
    """The document's bytes and the directory relative project_root is resolved against."""
    if not file:
        raise BatchError("USAGE", "give a pipeline FILE, or - to read it from stdin")
    if file == "-":
        return sys.stdin.buffer.read(limits.document_bytes + 1), Path.cwd()
    path = Path(file)
    try:
        with open(path, "rb") as handle:
            return handle.read(limits.document_bytes + 1), path.resolve().parent
    except OSError as exc:
        raise BatchError("USAGE", f"cannot read {file}: {exc.strerror or type(exc).__name__}") from None


def _load(file: str | None, limits: BatchLimits) -> tuple[Pipeline, Path]:
    raw, base_dir = _read(file, limits)
    pipeline = compile_pipeline(parse_document(load_json(raw, limits)))
    return pipeline, base_dir


class _Failed(Exception):
    def __init__(self, error: BatchError, exit_code: int) -> None:
        super().__init__(error.message)
        self.error = error
        self.exit_code = exit_code


def _internal(exc: Exception) -> BatchError:
    """An unexpected failure as one error object (where it happened, no traceback)."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = next(
        (
            f"{Path(f.filename).name}:{f.lineno}"
            for f in reversed(frames)
            if "astmcp" in Path(f.filename).parts
        ),
        None,
    )
    details = {"exception": type(exc).__name__, **({"at": where} if where else {})}
    # The exception's text stays on our side: an OSError's carries absolute paths (SPEC §5).
    reason = f": {exc.strerror}" if isinstance(exc, OSError) and exc.strerror else ""
    return BatchError("INTERNAL_ERROR", f"internal error: {type(exc).__name__}{reason}", details=details)


def _quietly(command: str, work: Callable[[], str]) -> int:
    """Run ``work`` with stderr captured, then print its text or exactly one error object.

    Tools log internal failures to stderr; in a batch run those lines would break
    the one-JSON-value contract, so they are held back (the error object names
    the tool, its code and the exception type).
    """
    real_stderr = sys.stderr
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            text = work()
    except _Failed as failed:
        real_stderr.write(dumps_compact(failed.error.to_wire(command)) + "\n")
        return failed.exit_code
    except Exception as exc:  # top of a request
        real_stderr.write(dumps_compact(_internal(exc).to_wire(command)) + "\n")
        return EXIT_FAILED
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return EXIT_OK


def _phase(exit_code: int, work: Callable[[], T]) -> T:
    try:
        return work()
    except BatchError as error:
        raise _Failed(error, exit_code) from None


def cmd_validate(args: argparse.Namespace) -> int:
    def work() -> str:
        pipeline, _ = _phase(EXIT_USAGE, lambda: _load(args.file, BatchLimits()))
        _phase(EXIT_USAGE, lambda: check_available(pipeline))
        return dumps_compact({"version": 1, "status": "valid", "step_count": len(pipeline.steps)})

    return _quietly("validate", work)


def cmd_run(args: argparse.Namespace) -> int:
    limits = BatchLimits()

    def prepare() -> tuple[Pipeline, Path]:
        if args.output_format not in ("json", "toon"):
            raise BatchError("USAGE", f"--output-format must be json or toon, not {args.output_format!r}")
        pipeline, base_dir = _load(args.file, limits)
        if args.output_format == "toon" and pipeline.prepares:
            raise BatchError(
                "USAGE", "--output-format toon is refused for a prepare pipeline; the plan is printed as JSON"
            )
        check_available(pipeline)
        return pipeline, base_dir

    def work() -> str:
        pipeline, base_dir = _phase(EXIT_USAGE, prepare)
        out = _phase(EXIT_FAILED, lambda: run_pipeline(pipeline, base_dir, limits=limits))
        return _phase(EXIT_FAILED, lambda: _encode(out, args.output_format, limits))

    return _quietly("run", work)


def _encode(out: dict[str, Any], output_format: str, limits: BatchLimits) -> str:
    text = dumps_compact(out)
    size = len(text.encode("utf-8"))
    if size > limits.output_bytes:
        raise BatchError(
            "OUTPUT_LIMIT",
            f"the output is {size} bytes; at most {limits.output_bytes} (use emit to select what you need)",
            details={"bytes": size, "limit": limits.output_bytes},
        )
    if output_format == "json":
        return text
    try:
        toon: str = toons.dumps(out)
        same = toons.loads(toon) == out
    except Exception:
        same = False
    if not same:
        raise BatchError(
            "ENCODING_ERROR", "this result does not round-trip through TOON; use --output-format json"
        )
    return toon
