"""A Python module-level name read off a receiver nobody typed (``line.strip()``) is no hit of it
when no module holding it is handed on as a value anywhere; any way a module object can reach
such a receiver (handed on, loaded by a made name, a namespace read as a mapping) keeps the hit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

_TEXT = "def strip(value):\n    return value\n"
_USE = "def clean(lines):\n    return [line.strip() for line in lines]\n"


def _receiver_hits(caller: Any, root: Path, other: str) -> list[int]:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "text.py").write_text(_TEXT, encoding="utf-8")
    (root / "use.py").write_text(_USE, encoding="utf-8")
    (root / "other.py").write_text(other, encoding="utf-8")
    out = caller(root)("ast_find_references", selector="pkg/text.py::strip", include_declaration=False)
    return [r["line"] for r in out["references"] if r["file"] == "use.py" and r["confidence"] == "name"]


@pytest.mark.parametrize(
    "other",
    [
        "from pkg import text\nprint(text.strip('a'))\n",
        "import pkg.text\nprint(pkg.text.strip('a'))\n",
        "import pkg.text as t\nprint(t.strip('a'))\n",
        "import importlib\nimport sys\nj = importlib.import_module('json')\nprint('pkg' in sys.modules, sys.modules['json'])\n",
        "items = {}\nprint(items.items(), [container for container in items])\n",  # names of no module
        "from pkg import text\ndef f():\n    return vars(text.strip)\n",
    ],
)
def test_receivers_are_no_hits_when_no_module_is_handed_on(caller: Any, tmp_path: Path, other: str) -> None:
    assert _receiver_hits(caller, tmp_path / "p", other) == []


@pytest.mark.parametrize(
    "other",
    [
        "from pkg import text\nMODULES = [text]\n",
        "import pkg\nprint(pkg)\n",  # the package: `p.text.strip` off it
        "import pkg.text\nprint(pkg.text)\n",
        "import importlib\ndef load(name):\n    return importlib.import_module(name)\n",
        "import importlib\nm = importlib.import_module('pkg.text')\n",
        "import sys\ndef load(name):\n    return sys.modules[name]\n",
        "from sys import modules\nall_modules = list(modules.values())\n",
        "from pkg import text\nNAMESPACE = globals()\n",
        "import sys\nf = sys._getframe().f_globals\n",
        "from pkg import *\nREGISTRY = {'text': text}\n",
        "from importlib import import_module as load\nm = load(input())\n",
        "import runpy\nNAMESPACE = runpy.run_path('use.py')\n",
    ],
)
def test_receivers_stay_hits_when_a_module_may_reach_them(caller: Any, tmp_path: Path, other: str) -> None:
    assert _receiver_hits(caller, tmp_path / "p", other) == [2]
