"""The batch runner (SPEC §6): ``ast-tool validate | run`` over JSON pipeline documents."""

from __future__ import annotations

from astmcp.pipeline.errors import BATCH_CODES, BatchError
from astmcp.pipeline.model import BatchLimits, load_json, parse_document
from astmcp.pipeline.runner import Pipeline, check_available, compile_pipeline, run_pipeline

__all__ = [
    "BATCH_CODES",
    "BatchError",
    "BatchLimits",
    "Pipeline",
    "check_available",
    "compile_pipeline",
    "load_json",
    "parse_document",
    "run_pipeline",
]
