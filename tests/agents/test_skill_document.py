"""The bundled skill: frontmatter both agents accept, size, and content that matches the SPEC."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from astmcp.errors import ERROR_CODES
from astmcp.tools import registry

SKILL = Path(__file__).parents[2] / "skills" / "structural-code-editing" / "SKILL.md"

SPEC_TOOLS = {
    "ast_list_files",
    "ast_get_outline",
    "ast_get_symbol_source",
    "ast_search_symbols",
    "ast_find_references",
    "ast_get_diagnostics",
    "ast_inspect_graph",
    "ast_rename_symbol",
    "ast_replace_symbol_body",
    "ast_get_operation_preview",
    "ast_apply_operation",
}
GRAPH_REQUESTS = ("overview", "lookup", "details", "trace", "tests", "tour", "escape")


def split_skill() -> tuple[dict[str, str], str]:
    """Frontmatter as ``key: value`` lines (the skill keeps it to plain one-line scalars) and the body."""
    text = SKILL.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    header, body = text[4:].split("\n---\n", 1)
    fields = {}
    for line in header.splitlines():
        key, _, value = line.partition(": ")
        fields[key] = value
    return fields, body


def test_frontmatter_has_exactly_a_valid_name_and_description() -> None:
    fields, _ = split_skill()

    assert set(fields) == {"name", "description"}
    assert fields["name"] == SKILL.parent.name
    assert re.fullmatch(r"[a-z0-9-]{1,64}", fields["name"])


def test_description_says_what_and_when_within_1024_characters_as_a_plain_yaml_scalar() -> None:
    description = split_skill()[0]["description"]

    assert 0 < len(description) <= 1024
    assert "Use it when" in description
    # A plain YAML scalar may not contain ": " or " #", start with an indicator, or hold XML-like tags.
    assert ": " not in description and " #" not in description
    assert description[0].isalpha()
    assert "<" not in description and ">" not in description


def test_body_is_under_300_lines() -> None:
    assert len(split_skill()[1].splitlines()) < 300


def test_every_spec_tool_is_taught_and_no_other_tool_name_appears() -> None:
    body = split_skill()[1]
    named = set(re.findall(r"\bast_[a-z_]+\b", body))

    assert named == SPEC_TOOLS


def test_every_graph_request_type_and_error_code_is_explained() -> None:
    body = split_skill()[1]

    for request in GRAPH_REQUESTS:
        assert f"`{request}`" in body, request
    for code in ERROR_CODES:
        assert f"`{code}`" in body, code


def test_mutation_flow_covers_blocked_uncertain_references_and_diagnostics_before_apply() -> None:
    body = split_skill()[1]
    flow = body[body.index("## Changing code") : body.index("## The batch CLI")]

    for term in ("blocked", "uncertain_references", "added_errors", "allow_new_errors", "plan_hash"):
        assert term in flow, term
    assert flow.index("**Prepare**") < flow.index("**Review**") < flow.index("**Apply**")


def test_every_json_example_in_the_skill_is_valid_json() -> None:
    blocks = re.findall(r"```json\n(.*?)```", split_skill()[1], flags=re.DOTALL)

    assert len(blocks) >= 2
    for block in blocks:
        json.loads(block)


def test_the_skills_batch_example_runs_with_ast_tool(tmp_path: Path) -> None:
    (tmp_path / "store.py").write_text(
        "class Store:\n    def open(self):\n        return 1\n", encoding="utf-8"
    )
    blocks = re.findall(r"```json\n(.*?)```", split_skill()[1], flags=re.DOTALL)
    document = next(json.loads(b) for b in blocks if '"steps"' in b)
    document["project_root"] = str(tmp_path)

    done = subprocess.run(
        [sys.executable, "-m", "astmcp.cli", "run", "-"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "ok"
    assert "class Store" in json.dumps(result["result"])


def test_hermes_reads_the_same_name_and_description_with_its_own_parser(agent_clis: Any) -> None:
    hermes_python = Path(agent_clis.hermes).parent / "python"
    script = (
        "import json,sys\n"
        "from agent.skill_utils import parse_frontmatter\n"
        "fm, body = parse_frontmatter(open(sys.argv[1], encoding='utf-8').read())\n"
        "print(json.dumps({k: str(v) for k, v in fm.items()}))\n"
    )

    done = subprocess.run(
        [str(hermes_python), "-c", script, str(SKILL)], capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == split_skill()[0]


def test_the_wheel_ships_the_skill_where_an_installed_astmcp_finds_it(tmp_path: Path) -> None:
    repo = SKILL.parents[2]
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp_path / "dist"),
            str(repo),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("astmcp-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("astmcp/agents/skill/SKILL.md") == SKILL.read_bytes()
        archive.extractall(tmp_path / "site")
    # Import astmcp from the unpacked wheel, ahead of the editable install, far from the repo's skills/.
    script = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from astmcp.agents import skills\n"
        "assert skills.__file__.startswith(sys.argv[1]), skills.__file__\n"
        "assert not skills._REPO_COPY.exists()\n"
        "sys.stdout.buffer.write(skills.skill_text())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "site")], capture_output=True, timeout=120, cwd=tmp_path
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout == SKILL.read_bytes()


PLACEHOLDERS = {"operation_id": "8c0f8f3e-6d43-4a4e-9a52-1f1f3c5d2b7a", "plan_hash": "a" * 64}


def test_every_example_call_in_the_skill_is_accepted_by_that_tools_input_model() -> None:
    body = split_skill()[1]
    calls = [(name, json.loads(raw)) for name, raw in re.findall(r"`(ast_[a-z_]+) (\{[^`]*\})`", body)]
    graph = next(
        json.loads(b) for b in re.findall(r"```json\n(.*?)```", body, flags=re.DOTALL) if '"question"' in b
    )
    calls.append(("ast_inspect_graph", graph))

    assert len(calls) >= 8
    tools = registry()
    for name, arguments in calls:
        # "..." stands for a value copied from an earlier answer.
        filled = {k: PLACEHOLDERS.get(k, v) if v == "..." else v for k, v in arguments.items()}
        tools[name].input_model.model_validate(filled)
