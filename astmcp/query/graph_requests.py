"""The requests ``ast_inspect_graph`` answers (a union on ``type``) and its input and output."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from astmcp.query.common import Formatted
from astmcp.tools import ToolOutput


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
