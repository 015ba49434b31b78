"""Rename safety on real code: a seeded sample of symbols renamed by astmcp (and, on Python, by
rope and jedi on the same symbols), each applied rename checked by an independent oracle, then
the tree restored.

- ``--corpus click``: click 8.5.1 (PyPI sdist), checked by click's own test suite; likewise
  ``jinja2`` 3.1.6, ``marshmallow`` 3.26.1, ``itsdangerous`` 2.2.0, ``wtforms`` 3.2.1, ``flask`` 3.1.2,
  ``structlog`` 25.4.0, ``blinker`` 1.9.0, ``packaging`` 24.2, ``cachetools`` 5.5.0, ``boltons`` 25.0.0
  ``more-itertools`` 10.5.0, ``tomlkit`` 0.13.3, ``humanize`` 4.12.1, ``markdown`` 3.7, ``attrs``
  25.4.0 (the sample from its ``attr`` package), ``sqlparse`` 0.5.3, ``toolz`` 1.1.0 (tests in
  ``src/toolz/tests``), ``mistune`` 3.1.4, ``pyparsing`` 3.2.5, ``tinydb`` 4.8.2, ``jmespath`` 1.0.1,
  ``inflect`` 7.4.0, ``munch`` 4.0.0, ``funcy`` 2.0, ``voluptuous`` 0.15.2 (tests in
  ``src/voluptuous/tests``) and ``pyflakes`` 3.2.0 (tests in ``src/pyflakes/test``), whose suites run
  in a venv of their own under ``benchmarks/.cache/tools`` with their test requirements
  (marshmallow's test of its installed distribution's metadata is left out: a source tree has none;
  boltons and more-itertools, whose flat sdists are moved under ``src/``, also run their doctests).
- ``--corpus zod``: zod 4.6.7 ``src`` (npm), checked by ``tsc -p .`` from typescript 7.0.2: a rename
  is broken when it adds any diagnostic (multiset on code, file, message; positions ignored).
- ``--corpus rxjs``: rxjs 7.8.2 ``src`` (npm) with its own tsconfig (made acceptable to typescript 7),
  checked the same way; ``--corpus mobx``: mobx 6.15.0 ``src`` with mobx's own strictness;
  ``--corpus query-core``: @tanstack/query-core 5.62.0 ``src``, ``--corpus immer``: immer 10.1.1
  ``src``, ``--corpus table-core``: @tanstack/table-core 8.21.3 ``src`` and ``--corpus
  virtual-core``: @tanstack/virtual-core 3.19.13 ``src``, ``--corpus redux``: redux 5.0.1 ``src``
  and ``--corpus reselect``: reselect 5.3.0 ``src``, all ``strict``. ``TS_INSTALLED`` corpora
  (``trpc-server``, ``pacer``, ``redux-toolkit``, ``router-core``, ``ajv``, ``db``, ``form-core``,
  ``trpc-client``, ``db-ivm``, ``mobx-keystone``, ``react-query``, ``react-router``,
  ``start-client-core``, ``router-generator``, ``store``, ``query-db-collection``,
  ``query-persist-client-core``, ``trpc-react-query``, ``trpc-tanstack-react-query``, ``effect``,
  ``offline-transactions``, ``start-server-core``, ``react-pacer``, ``react-db``, ``ai``,
  ``hotkeys``, and the sixty-fourth round's ``typeclass``, ``platform``, ``cli``, ``wonka``,
  ``solid-query``):
  the package's sources with what they import installed from npm into ``node_modules``.

Outcomes per symbol and tool: ``clean`` (applied, oracle passes), ``broken`` (applied, oracle fails:
silent breakage), ``blocked`` (astmcp only: plan prepared but blocked on uncertain references or new
errors), ``refused`` (the tool raised or changed nothing; astmcp: an error code before a plan).
rope 1.15.0 (``Rename(...).get_changes(new)``, its defaults) and jedi 0.20.1 (``Script.rename``,
file limits raised as in ``references_accuracy.py``) run in their own venvs under
``benchmarks/.cache/tools``. Corpora and tools are fetched at run time; nothing third-party is
committed. Writes ``benchmarks/results/rename_safety_<corpus>.json`` and the README section (both
corpora; ``--report`` only rewrites the section). ``--tools`` reruns some tools and keeps the others'
results from the JSON when the sample is the same.

    python benchmarks/rename_safety.py [--corpus click|jinja2|…|zod|rxjs|mobx|query-core|immer|table-core|virtual-core|redux|reselect]
                                       [--tools astmcp,rope,jedi]
                                       [--sample 50] [--seed 0] [--workdir DIR] [--report]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import venv
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _corpora import CACHE, fetch_npm, fetch_pypi_sdist, npm_tool, update_readme_section

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

RESULTS = Path(__file__).resolve().parent / "results"
# pydash's tests checked by pytest-mypy-testing, which runs mypy on them (left out)
_PYDASH_TYPED = (
    "arrays",
    "chaining",
    "collections",
    "functions",
    "numerical",
    "objects",
    "predicates",
    "strings",
    "utilities",
)
# Python corpora: name, version, test requirements beyond pytest (None: click's need none, its
# tests run in this interpreter), test files left out
PYTHON_CORPORA: dict[str, tuple[str, str, tuple[str, ...] | None, tuple[str, ...]]] = {
    "click": ("click", "8.5.1", None, ()),
    "jinja2": ("jinja2", "3.1.6", ("MarkupSafe==3.0.4", "trio==0.35.0"), ()),
    "marshmallow": ("marshmallow", "3.26.1", ("simplejson==4.3.0",), ("tests/test_version_attributes.py",)),
    "itsdangerous": ("itsdangerous", "2.2.0", ("freezegun==1.5.5",), ()),
    "wtforms": ("wtforms", "3.2.1", ("MarkupSafe==3.0.4", "Babel==2.17.0", "email_validator==2.3.0"), ()),
    "structlog": (
        "structlog",
        "25.4.0",
        (
            "freezegun==1.5.5",
            "pretend==1.0.9",
            "pytest-asyncio==1.3.0",
            "simplejson==3.20.2",
            "structlog==25.4.0",
        ),
        (),
    ),
    "blinker": ("blinker", "1.9.0", ("pytest==8.3.3", "pytest-asyncio==0.24.0"), ()),
    "flask": (
        "flask",
        "3.1.2",
        (
            "pytest==8.4.2",
            "Werkzeug==3.1.3",
            "Jinja2==3.1.6",
            "itsdangerous==2.2.0",
            "click==8.5.1",
            "blinker==1.9.0",
            "asgiref==3.13.0",
            # its metadata (test_get_version); the code under test comes first, from src
            "flask==3.1.2",
        ),
        (),
    ),
    "packaging": ("packaging", "24.2", ("pretend==1.0.9",), ()),
    "cachetools": ("cachetools", "5.5.0", (), ()),
    "boltons": ("boltons", "25.0.0", ("pytest==8.3.3",), ()),
    "more-itertools": ("more-itertools", "10.5.0", (), ()),
    "tomlkit": ("tomlkit", "0.13.3", ("PyYAML==6.0.4",), ()),
    # coverage: its pytest warning filters name a coverage warning class
    "humanize": ("humanize", "4.12.1", ("freezegun==1.5.5", "coverage==7.17.5"), ()),
    # Python-Markdown: extension classes registered by name; unittest suites pytest collects
    # (test_legacy.py turns warnings into errors at import, so pytest's warning that it cannot
    # collect the `TestSuite` test_md_in_html.py imports fails the run: that file is left out)
    "markdown": (
        "markdown",
        "3.7",
        ("PyYAML==6.0.4",),
        ("tests/test_syntax/extensions/test_md_in_html.py",),
    ),
    # attrs: classes whose methods are written as source text naming their fields; the sample
    # comes from `attr` (`attrs` re-exports it); pympler/cloudpickle tests skip without them, and
    # test_converters.py fails on Python 3.11 before any rename (`TestPipe.test_wrapped_annotation`);
    # its installed metadata for test_packaging (the code under test comes first, from src)
    "attrs": ("attrs", "25.4.0", ("hypothesis==6.151.9", "attrs==25.4.0"), ("tests/test_converters.py",)),
    # sqlparse: filters dispatch to `_process_<token class name, lowered>`
    "sqlparse": ("sqlparse", "0.5.3", (), ()),
    # toolz: `toolz.curried` wraps every function by name; its tests live inside the package
    "toolz": ("toolz", "1.1.0", (), ()),
    # mistune: block and inline rules dispatched to `parse_<rule name>` / renderer methods by name
    "mistune": ("mistune", "3.1.4", (), ()),
    # tinydb: tables, queries built from attribute paths (`Query().name == "x"`), middlewares
    "tinydb": ("tinydb", "4.8.2", ("PyYAML==6.0.4",), ()),
    # jmespath: a tree interpreter visiting nodes by `visit_<node type>`
    "jmespath": ("jmespath", "1.0.1", (), ()),
    # pyflakes: handlers found by the upper-cased name of an `ast` node class; tests in the package
    # (its test_api.py runs `python -m pyflakes` in a subprocess, which finds no pyflakes there)
    "pyflakes": ("pyflakes", "3.2.0", (), ("pyflakes/test/test_api.py",)),
    # inflect: an engine whose methods are checked by typeguard and named in its docs' doctests
    "inflect": ("inflect", "7.4.0", ("more-itertools==10.5.0", "typeguard==4.4.2", "pygments==2.19.2"), ()),
    # munch: a dict whose keys are attributes (`__getattr__` over items)
    "munch": ("munch", "4.0.0", ("PyYAML==6.0.4",), ()),
    # funcy: function families made from one another and listed by name; voluptuous: schema
    # markers and validators (tests inside the package)
    "funcy": ("funcy", "2.0", ("whatever==0.7",), ()),
    "voluptuous": ("voluptuous", "0.15.2", (), ()),
    # pyparsing: camelCase aliases of snake_case methods, results read by name
    "pyparsing": ("pyparsing", "3.2.5", ("railroad-diagrams==3.0.1", "Jinja2==3.1.6"), ()),
    # lark: transformers and visitors call methods named after grammar rules; parsimonious: node
    # visitors dispatch to `visit_<rule name>`; pycparser: ply finds `p_<rule>` grammar functions
    # by name and reads their docstrings; transitions: callbacks named in strings (`before="f"`,
    # `on_enter_<state>`); glom: specs; cssselect: `xpath_<pseudo>` handlers; pathspec: registered
    # pattern factories
    "lark": ("lark", "1.2.2", (), ()),
    # (parsimonious: test_benchmarks.py times snippets against each other, flaky on a busy machine)
    "parsimonious": (
        "parsimonious",
        "0.10.0",
        ("regex==2024.11.6",),
        ("parsimonious/tests/test_benchmarks.py",),
    ),
    "pycparser": ("pycparser", "2.22", (), ()),
    # (transitions: test_codestyle.py checks line lengths, which any longer name may pass)
    "transitions": ("transitions", "0.9.2", ("six==1.17.0", "dill==0.4.0"), ("tests/test_codestyle.py",)),
    # (glom: test_cli.py runs the `glom` console script, which only an install provides)
    "glom": (
        "glom",
        "24.11.0",
        ("boltons==25.0.0", "attrs==25.4.0", "face==24.0.0", "PyYAML==6.0.4"),
        ("glom/test/test_cli.py",),
    ),
    "cssselect": ("cssselect", "1.2.0", ("lxml==6.0.2",), ()),
    "pathspec": ("pathspec", "0.12.1", (), ()),
    # tqdm: a progress bar whose format fields are read by name; dateutil: parsers and rule sets;
    # markupsafe: str subclasses escaping through `__html__`; colorama: ANSI codes as class
    # attributes listed by name; wcwidth: tables
    "tqdm": ("tqdm", "4.67.1", ("pytest==8.3.3", "pytest-asyncio==0.24.0", "pytest-timeout==2.3.1"), ()),
    "dateutil": (
        "python-dateutil",
        "2.9.0.post0",
        ("pytest==8.3.3", "pytest-cov==6.0.0", "freezegun==1.5.5", "hypothesis==6.151.9", "six==1.17.0"),
        (),
    ),
    "markupsafe": ("markupsafe", "3.0.2", (), ()),
    "colorama": ("colorama", "0.4.6", (), ()),
    "wcwidth": ("wcwidth", "0.2.13", ("pytest-cov==6.0.0",), ()),
    # isodate: duration and date parsers; pytz: tzinfo classes and lazy collections (tests in the
    # package); simplejson: an encoder/decoder pair with a C-less fallback (tests in the package);
    # webcolors: name tables
    "isodate": ("isodate", "0.7.2", (), ()),
    # (pytz: test_docs.py opens README.rst beside the package, which an sdist keeps elsewhere)
    "pytz": ("pytz", "2025.2", (), ("pytz/tests/test_docs.py",)),
    "simplejson": ("simplejson", "3.19.3", (), ()),
    "webcolors": ("webcolors", "24.11.1", (), ()),
    # mako: a template compiler whose visitors dispatch to `visit<Node class name>`; pyasn1: codecs
    # keyed by type tags, components by name; docutils: node visitors `visit_<node class name>`
    # (their tests of highlighted code expect another Pygments' output: left out)
    "mako": ("mako", "1.3.8", ("MarkupSafe==3.0.2",), ("test/test_exceptions.py",)),
    "pyasn1": ("pyasn1", "0.6.1", (), ()),
    "docutils": (
        "docutils",
        "0.21.2",
        (),
        (
            "test/test_parsers/test_rst/test_directives/test_code.py",
            "test/test_parsers/test_rst/test_directives/test_code_long.py",
            "test/test_parsers/test_rst/test_directives/test_include.py",  # (imports test_code)
        ),
    ),
    # the thirty-seventh round: semver (its pytest options need pytest-cov), prettytable, and the
    # flat freezegun, arrow (its tox options: coverage) and tabulate (tests in `test`)
    "semver": ("semver", "3.0.4", ("pytest-cov==7.1.0",), ()),
    "prettytable": ("prettytable", "3.16.0", ("wcwidth==0.2.13", "pytest-lazy-fixtures==1.4.1"), ()),
    "freezegun": ("freezegun", "1.5.5", ("python-dateutil==2.9.0.post0",), ()),
    "arrow": (
        "arrow",
        "1.3.0",
        (
            "python-dateutil==2.9.0.post0",
            "dateparser==1.2.2",
            "pytest-cov==7.1.0",
            "pytest-mock==3.17.0",
            "pytz==2025.2",
            "simplejson==3.20.2",
        ),
        (),
    ),
    # (its test_cli.py runs the installed `tabulate` script, which a source tree has not)
    "tabulate": ("tabulate", "0.9.0", ("wcwidth==0.2.13",), ("test/test_cli.py",)),
    # the thirty-eighth round: dataclass-heavy dacite (its pytest options need pytest-benchmark),
    # typeguard (an import hook instrumenting code), validators, python-slugify, decorator and webob
    # (dacite's tests/test_types.py imports a tests/common.py its sdist lacks; typeguard's mypy
    # tests run mypy, and its optimized-mode tests a typeguard installed; validators' Ethereum
    # address tests need eth-hash)
    "dacite": ("dacite", "1.9.2", ("pytest-benchmark==5.3.1",), ("tests/test_types.py",)),
    "typeguard": (
        "typeguard",
        "4.6.1",
        ("typing_extensions==4.15.0",),
        ("tests/mypy/test_type_annotations.py", "tests/test_typechecked.py"),
    ),
    "validators": ("validators", "0.36.0", (), ("tests/crypto_addresses/test_eth_address.py",)),
    "python-slugify": ("python-slugify", "9.2.0", ("text-unidecode==1.3",), ()),
    "decorator": ("decorator", "5.3.1", (), ()),
    "webob": ("webob", "1.8.11", (), ()),
    # the thirty-ninth round: the sans-IO h11 (tests inside its package), python-dotenv (its
    # test_cli.py runs the installed `dotenv` script, which a source tree has not), tenacity
    # (retrying decorators; its tornado test needs tornado), pyrsistent (persistent collections, here
    # without its C extension; tests named `*_test.py`) and parse (its pytest options need pytest-cov)
    "h11": ("h11", "0.16.0", (), ()),
    "python-dotenv": ("python-dotenv", "1.2.4", ("click==8.3.1", "sh==2.2.2"), ("tests/test_cli.py",)),
    "tenacity": ("tenacity", "9.2.1", ("tornado==6.5.2", "typing_extensions==4.15.0"), ()),
    "pyrsistent": ("pyrsistent", "0.20.0", ("hypothesis==6.151.9",), ("tests/memory_profiling.py",)),
    "parse": ("parse", "1.22.4", ("pytest-cov==7.1.0",), ()),
    # the fortieth round
    "mistletoe": ("mistletoe", "1.5.1", ("parameterized==0.9.0", "pygments==2.21.0"), ("test/benchmark.py",)),
    "croniter": ("croniter", "6.0.0", ("pytz==2026.6", "python-dateutil==2.9.0.post0"), ()),
    # the forty-first round
    "icalendar": (
        "icalendar",
        "7.3.2",
        ("python-dateutil==2.9.0.post0", "tzdata==2026.6", "hypothesis==6.151.9", "pytz==2026.6"),
        # (fetches the CLDR mapping from GitHub)
        ("src/icalendar/tests/test_generate_windows_to_olson_mapping.py",),
    ),
    "pydash": (
        "pydash",
        "8.1.0",
        ("typing_extensions==4.15.0", "pytest-cov==7.1.0"),
        tuple(f"tests/pytest_mypy_testing/test_{name}.py" for name in _PYDASH_TYPED),
    ),
    "python-box": (
        "python-box",
        "8.0.0",
        ("msgpack==1.2.4", "ruamel.yaml==0.19.1", "tomli-w==1.2.0", "toon-format==1.2.0"),
        (),
    ),
    # the sixty-fourth round, projects no rule was written against: markdown-it-py (block, inline
    # and core rules registered by name in rulers, renderer methods found by token type), pyee
    # (event emitters calling handlers registered by event name; its trio and twisted tests need
    # those frameworks), dpath (path globbing over nested data; tests written for nose2),
    # asttokens (token positions marked on `ast` and astroid trees) and jsonschema (validators
    # built from keyword functions by keyword name; its installed metadata for its CLI tests, the
    # code under test comes first, from src; the JSON-Schema-Test-Suite run wants a checkout of
    # the suite beside the package, which moves under src/ here: left out)
    "markdown-it-py": (
        "markdown-it-py",
        "4.3.0",
        ("mdurl==0.1.2", "pytest-regressions==2.11.0", "pytest-datadir==1.9.0", "PyYAML==6.0.4"),
        (),
    ),
    "pyee": (
        "pyee",
        "13.0.1",
        ("pytest-asyncio==1.5.0", "typing_extensions==4.16.0"),
        ("tests/test_trio.py", "tests/test_twisted.py"),
    ),
    "dpath": ("dpath", "2.2.0", ("nose2==0.16.0", "hypothesis==6.170.29"), ()),
    # the sans-IO HTTP/2 and WebSocket state machines of python-hyper (frames and events as classes,
    # handlers looked up by frame and event type)
    "h2": ("h2", "4.4.1", ("hpack==4.2.0", "hyperframe==6.1.0", "hypothesis==6.170.29"), ()),
    "wsproto": ("wsproto", "1.3.2", ("h11==0.16.0",), ()),
    # code analysers walking `ast` trees by `visit_<node class>` (vulture: its pytest options need
    # pytest-cov, and test_script.py runs vulture over its own folder, which moves under src/ here;
    # radon: tests inside the package), docstring_parser (a parser per docstring style; tests inside
    # the package) and python-json-logger (formatter classes)
    "vulture": ("vulture", "2.16", ("pytest-cov==7.1.0",), ("tests/test_script.py",)),
    "radon": ("radon", "6.0.1", ("mando==0.8.2", "colorama==0.4.6", "pytest-mock==3.17.0"), ()),
    "docstring_parser": ("docstring_parser", "0.18.0", (), ()),
    "python-json-logger": ("python-json-logger", "4.2.0", ("freezegun==1.5.5",), ()),
    # prompt_toolkit: key bindings, filters and layout containers (a large application framework)
    "prompt_toolkit": ("prompt_toolkit", "3.0.53", ("wcwidth==0.9.5",), ()),
    "asttokens": ("asttokens", "3.0.2", ("astroid==4.4.0",), ()),
    "jsonschema": (
        "jsonschema",
        "4.26.0",
        (
            "attrs==26.1.0",
            "referencing==0.37.0",
            "jsonschema-specifications==2025.9.1",
            "rpds-py==2026.9.1",
            "jsonpath-ng==1.17.0",
            "jsonschema==4.26.0",
        ),
        ("jsonschema/tests/test_jsonschema_test_suite.py",),
    ),
    # the sixty-fifth round, projects no rule was written against: the PEG parser Arpeggio (visitors
    # dispatching to `visit_<rule name>`; tests inside the package) and textX on it (metamodels
    # building classes from grammar rule names; its tests of languages and generators registered
    # through installed entry points are left out), parso (Python's syntax tree, node classes
    # looked up by grammar symbol; tests in `test`), soupsieve (CSS selectors matched over
    # BeautifulSoup trees) and beautifulsoup4 (tree builders registered by feature name; tests
    # inside the package), PyHamcrest (matcher classes), hyperlink (URL objects; tests inside the
    # package) and python-fire (CLIs calling members named by command-line strings; its
    # `*_test.py` inside the package; the parser fuzz test fails before any rename here)
    "arpeggio": ("Arpeggio", "2.0.3", (), ()),
    "textx": (
        "textX",
        "4.2.2",
        ("Arpeggio==2.0.3", "click==8.3.1", "html5lib==1.1", "memory_profiler==0.61.0", "textX==4.2.2"),
        (
            "tests/functional/registration/projects/data_dsl/tests/test_data_dsl.py",
            "tests/functional/registration/projects/flow_dsl/tests/test_flow_dsl.py",
            "tests/functional/registration/projects/flow_dsl/tests/test_issue196.py",
            "tests/functional/registration/projects/types_dsl/tests/test_types_dsl.py",
            "tests/functional/registration/test_check.py",
            "tests/functional/registration/test_discovery.py",
            "tests/functional/registration/test_generate.py",
            "tests/functional/registration/test_registration.py",
            "tests/functional/registration/test_version.py",
            "tests/functional/subcommands/test_subcommands.py",
            "tests/functional/test_examples.py",
        ),
    ),
    "parso": ("parso", "0.8.5", (), ()),
    "soupsieve": ("soupsieve", "2.7", ("beautifulsoup4==4.13.4",), ()),
    "beautifulsoup4": ("beautifulsoup4", "4.13.4", ("soupsieve==2.7", "typing_extensions==4.15.0"), ()),
    "pyhamcrest": ("PyHamcrest", "2.1.0", (), ()),
    "hyperlink": ("hyperlink", "21.0.0", ("idna==3.10",), ()),
    "fire": (
        "fire",
        "0.7.1",
        ("termcolor==3.1.0", "hypothesis==6.151.9", "levenshtein==0.27.1"),
        ("fire/parser_fuzz_test.py",),
    ),
    # configobj (config sections whose values a spec validates by check name), traitlets (observers
    # and validators registered by trait name; its typing tests run mypy, and its pytest must be
    # older than 8.2), jsonpickle (handlers by class, objects rebuilt from `py/object` names; its
    # backend tests want simplejson), num2words (a converter class per language code; its CLI test
    # runs the installed script) and doit (tasks from `task_<name>` functions; two tests run the
    # installed `doit` or strace)
    "configobj": ("configobj", "5.0.9", (), ()),
    "traitlets": (
        "traitlets",
        "5.14.3",
        ("pytest==8.1.2", "argcomplete==3.6.2", "pytest-mock==3.17.0"),
        ("tests/test_typing.py",),
    ),
    "jsonpickle": ("jsonpickle", "4.1.1", ("simplejson==3.20.2",), ()),
    "num2words": ("num2words", "0.5.14", ("docopt==0.6.2",), ("tests/test_cli.py",)),
    "doit": (
        "doit",
        "0.36.0",
        ("cloudpickle==3.1.1", "importlib-metadata==8.7.0"),
        ("tests/test___main__.py", "tests/test_cmd_strace.py"),
    ),
    # pyte (a terminal emulator whose stream calls screen methods named in its escape tables),
    # factory_boy (declarations resolved by attribute name; its Django and SQLAlchemy tests skip
    # without those) and urwid (widgets emitting signals by name; its pytest options need
    # pytest-cov)
    "pyte": ("pyte", "0.8.2", ("wcwidth==0.2.13",), ()),
    "factory_boy": ("factory_boy", "3.3.3", ("Faker==37.4.2",), ()),
    "urwid": ("urwid", "3.0.2", ("wcwidth==0.2.13", "typing_extensions==4.15.0", "pytest-cov==7.1.0"), ()),
    # dominate (HTML tags as classes named after them), beniget (def-use chains over gast trees by
    # `visit_<node class>`) and pystache (mustache templates reading attributes by the names they
    # hold; tests inside the package)
    "dominate": ("dominate", "2.9.1", (), ()),
    "beniget": ("beniget", "0.4.2.post1", ("gast==0.6.0",), ()),
    "pystache": ("pystache", "0.6.8", (), ()),
    # apispec (OpenAPI specs from plugins called by hook name, marshmallow fields mapped by class)
    "apispec": (
        "apispec",
        "6.8.2",
        ("marshmallow==3.26.1", "PyYAML==6.0.2", "openapi-spec-validator==0.7.2"),
        (),
    ),
    # bleach (an HTML sanitizer over a vendored html5lib whose tree walkers and filters dispatch by
    # token type) and html2text (handlers by tag name; tests in `test`)
    "bleach": ("bleach", "6.2.0", ("webencodings==0.5.1", "tinycss2==1.4.0"), ()),
    "html2text": ("html2text", "2025.4.15", (), ()),
}
# TypeScript corpora whose ``src`` imports other packages: (npm name, version, the packages tsc
# needs, installed from npm into the corpus's node_modules, which astmcp does not index; compiler
# options over ``strict`` with bundler resolution). @trpc/server's adapters import node, express,
# ws, aws-lambda and fastify types (next's are left missing: 12 errors before any rename, which
# the oracle's multiset keeps apart from new ones); @reduxjs/toolkit imports itself by package name
# and ``@internal/*``, mapped to ``src`` as its own tsconfig maps them.
TS_INSTALLED: dict[str, tuple[str, str, tuple[str, ...], dict[str, Any]]] = {
    "trpc-server": (
        "@trpc/server",
        "11.25.2",
        ("@types/node@22.20.7", "@types/express@5.0.6", "@types/ws@8.18.2", "@types/aws-lambda@8.10.164",
         "fastify@5.12.8"),
        {"lib": ["esnext", "dom"], "types": ["node"]},
    ),
    "pacer": (
        "@tanstack/pacer",
        "0.22.0",
        ("@tanstack/store@0.11.3", "@tanstack/devtools-event-client@0.5.1"),
        {"lib": ["esnext", "dom"], "types": []},
    ),
    "redux-toolkit": (
        "@reduxjs/toolkit",
        "2.16.0",
        ("@standard-schema/spec@1.1.0", "@standard-schema/utils@0.3.0", "immer@11.2.14", "redux@5.0.1",
         "redux-thunk@3.1.0", "reselect@5.3.0", "@types/node@22.20.7", "@types/react@19.3.3",
         "react@19.3.1", "react-redux@9.3.1"),
        {
            "lib": ["esnext", "dom"],
            "types": ["node"],
            "jsx": "react-jsx",
            "paths": {
                "@reduxjs/toolkit": ["./src/index.ts"],
                "@reduxjs/toolkit/react": ["./src/react/index.ts"],
                "@reduxjs/toolkit/query": ["./src/query/index.ts"],
                "@reduxjs/toolkit/query/react": ["./src/query/react/index.ts"],
                "@internal/*": ["./src/*"],
            },
        },
    ),
    "router-core": (
        "@tanstack/router-core",
        "1.171.39",
        ("cookie-es@3.1.1", "seroval@1.8.2", "seroval-plugins@1.8.0", "@tanstack/history@1.162.5",
         "@types/node@22.20.7"),
        {
            "lib": ["esnext", "dom"],
            "types": ["node"],
            "paths": {"@tanstack/router-core/isServer": ["./src/isServer/client.ts"]},
        },
    ),
    "ajv": (
        "ajv",
        "8.20.0",
        ("fast-uri@3.1.9", "fast-deep-equal@3.1.3", "require-from-string@2.0.2", "json-schema-traverse@1.0.0",
         "@types/require-from-string@1.2.3", "@types/node@22.20.7"),
        {
            "lib": ["esnext", "dom"],
            "types": ["node"],
            "module": "nodenext",
            "moduleResolution": "nodenext",
            "resolveJsonModule": True,
        },
    ),
    "form-core": (
        "@tanstack/form-core",
        "1.33.5",
        ("@tanstack/devtools-event-client@0.4.1", "@tanstack/pacer-lite@0.1.1", "@tanstack/store@0.11.3"),
        {"lib": ["esnext", "dom"], "types": []},
    ),
    "db": (
        "@tanstack/db",
        "0.15.2",
        ("@standard-schema/spec@1.1.0", "@tanstack/pacer-lite@0.2.1", "@tanstack/db-ivm@0.2.0",
         "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"]},
    ),
    "trpc-client": (
        "@trpc/client",
        "11.25.2",
        ("@trpc/server@11.25.2", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": []},
    ),
    "db-ivm": (
        "@tanstack/db-ivm",
        "0.2.0",
        ("fractional-indexing@3.2.0", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"]},
    ),
    "mobx-keystone": (
        "mobx-keystone",
        "2.2.0",
        ("mobx@6.15.0", "fast-deep-equal@3.1.3", "nanoid@3.3.11", "ts-toolbelt@9.6.0", "tslib@2.8.1"),
        {"lib": ["esnext", "dom"], "types": []},
    ),
    # the thirty-eighth round: React bindings (TSX) and more of TanStack
    "react-query": (
        "@tanstack/react-query",
        "5.108.4",
        ("@tanstack/query-core@5.108.4", "react@19.3.1", "@types/react@19.3.3"),
        {"lib": ["esnext", "dom"], "types": [], "jsx": "react-jsx"},
    ),
    "react-router": (
        "@tanstack/react-router",
        "1.170.46",
        ("@tanstack/react-store@0.11.4", "isbot@5.2.4", "@tanstack/history@1.162.5",
         "@tanstack/router-core@1.171.39", "react@19.3.1", "react-dom@19.3.1", "@types/react@19.3.3",
         "@types/react-dom@19.3.0", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"], "jsx": "react-jsx"},
    ),
    "start-client-core": (
        "@tanstack/start-client-core",
        "1.170.39",
        ("seroval@1.8.2", "@tanstack/router-core@1.171.39", "@tanstack/start-fn-stubs@1.162.0",
         "@tanstack/start-storage-context@1.167.41", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"], "jsx": "react-jsx"},
    ),
    "router-generator": (
        "@tanstack/router-generator",
        "1.168.0",
        ("@babel/types@7.29.17", "jiti@2.7.0", "magic-string@0.30.21", "prettier@3.10.1", "zod@4.6.7",
         "@tanstack/router-core@1.171.39", "@tanstack/router-utils@1.163.0",
         "@tanstack/virtual-file-routes@1.162.0", "@types/node@22.20.7"),
        {"lib": ["esnext"], "types": ["node"]},
    ),
    "store": (
        "@tanstack/store",
        "0.11.3",
        (),
        {"lib": ["esnext", "dom"], "types": []},
    ),
    # the thirty-ninth round: TanStack DB's query collection, query persistence, tRPC's two React
    # Query bindings (each with the tRPC release it ships with), and effect (624 files, 26 MB of
    # heavily generic code importing itself by package name, with `.ts` extensions)
    "query-db-collection": (
        "@tanstack/query-db-collection",
        "1.4.8",
        ("@standard-schema/spec@1.1.0", "@tanstack/db@0.15.2", "@tanstack/query-core@5.108.4",
         "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"]},
    ),
    "query-persist-client-core": (
        "@tanstack/query-persist-client-core",
        "5.104.5",
        ("@tanstack/query-core@5.104.5", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"]},
    ),
    "trpc-react-query": (
        "@trpc/react-query",
        "11.19.0",
        ("@tanstack/react-query@5.80.7", "@trpc/client@11.19.0", "@trpc/server@11.19.0", "react@19.3.1",
         "@types/react@19.3.3"),
        {"lib": ["esnext", "dom"], "types": [], "jsx": "react-jsx"},
    ),
    "effect": (
        "effect",
        "4.1.5",
        ("@types/node@22.20.7",),
        {
            "lib": ["esnext", "dom"],
            "types": ["node"],
            "allowImportingTsExtensions": True,
            "paths": {"effect": ["./src/index.ts"], "effect/*": ["./src/*.ts", "./src/*/index.ts"]},
        },
    ),
    "trpc-tanstack-react-query": (
        "@trpc/tanstack-react-query",
        "11.22.1",
        ("@tanstack/react-query@5.80.7", "@trpc/client@11.22.1", "@trpc/server@11.22.1", "react@19.3.1",
         "@types/react@19.3.3"),
        {"lib": ["esnext", "dom"], "types": [], "jsx": "react-jsx"},
    ),
    # the fortieth round: TanStack DB's offline transactions and React bindings, Start's server
    # core, and Pacer's React bindings
    "offline-transactions": (
        "@tanstack/offline-transactions",
        "1.0.53",
        ("@tanstack/db@0.8.7", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"]},
    ),
    "start-server-core": (
        "@tanstack/start-server-core",
        "1.169.45",
        ("cookie-es@3.1.1", "fetchdts@0.2.0", "seroval@1.8.2", "@tanstack/history@1.162.5",
         "@tanstack/router-core@1.171.39", "@tanstack/start-client-core@1.170.39",
         "@tanstack/start-storage-context@1.167.41", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"], "jsx": "react-jsx"},
    ),
    "react-pacer": (
        "@tanstack/react-pacer",
        "0.23.0",
        ("@tanstack/react-store@0.11.4", "@tanstack/pacer@0.22.0", "react@19.3.1", "react-dom@19.3.1",
         "@types/react@19.3.3", "@types/react-dom@19.3.0"),
        {"lib": ["esnext", "dom"], "types": [], "jsx": "react-jsx"},
    ),
    "react-db": (
        "@tanstack/react-db",
        "0.5.11",
        ("@tanstack/db@0.15.1", "react@19.3.1", "@types/react@19.3.3", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"], "jsx": "react-jsx"},
    ),
    # the forty-first round
    "ai": (
        "@tanstack/ai",
        "0.58.0",
        ("@ag-ui/core@0.1.1-canary.beta.0", "@standard-schema/spec@1.1.0", "partial-json@0.1.7",
         "@tanstack/ai-event-client@0.12.1", "@tanstack/ai-utils@0.4.1", "@opentelemetry/api@1.10.0"),
        {"lib": ["esnext", "dom"], "types": []},
    ),
    # the sixty-fourth round, projects no rule was written against: Effect's typeclass and
    # platform libraries (over effect's types), and TanStack Query for Solid (TSX)
    "typeclass": ("@effect/typeclass", "0.41.0", ("effect@3.22.5",), {"lib": ["esnext", "dom"], "types": []}),
    "platform": (
        "@effect/platform",
        "0.97.2",
        ("effect@3.22.5", "find-my-way-ts@0.1.6", "msgpackr@1.11.10", "multipasta@0.2.8"),
        # (imports itself by package name; two errors before any rename come from a newer lib's
        # typed arrays)
        {
            "lib": ["esnext", "dom"],
            "types": [],
            "paths": {"@effect/platform": ["./src/index.ts"], "@effect/platform/*": ["./src/*.ts"]},
        },
    ),
    "cli": (
        "@effect/cli",
        "0.77.2",
        ("effect@3.22.5", "@effect/platform@0.97.2", "@effect/printer@0.51.0", "@effect/printer-ansi@0.51.0",
         "@effect/typeclass@0.41.0", "ini@4.1.3", "toml@4.3.0", "yaml@2.9.1", "@types/ini@4.1.1",
         "find-my-way-ts@0.1.6", "msgpackr@1.11.10", "multipasta@0.2.8", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"]},
    ),
    # wonka: push/pull streams written as functions over sources and sinks (its tests' packages
    # installed; fifteen errors before any rename: its tests' untyped index reads and imports)
    "wonka": (
        "wonka",
        "6.3.6",
        ("vitest@1.6.1", "callbag-from-iter@1.2.0", "callbag-iterate@1.0.0", "callbag-take@1.5.0",
         "zen-observable@0.10.0", "@types/zen-observable@0.8.7"),
        {"lib": ["esnext", "dom"], "types": []},
    ),
    "solid-query": (
        "@tanstack/solid-query",
        "5.107.1",
        ("@tanstack/query-core@5.107.1", "solid-js@1.9.20", "@types/node@22.20.7"),
        {"lib": ["esnext", "dom"], "types": ["node"], "jsx": "preserve", "jsxImportSource": "solid-js"},
    ),
    "hotkeys": (
        "@tanstack/hotkeys",
        "0.9.0",
        ("@tanstack/store@0.11.3",),
        {"lib": ["esnext", "dom"], "types": []},
    ),
}  # fmt: skip
# where a TS_INSTALLED package ships its sources, when not ``src`` (copied to ``src``: ajv's
# imports are all relative, and the sample is drawn from ``src``); ajv's optional ``re2`` engine is
# left missing, and three of its calls through CommonJS default imports are errors before any rename
TS_SOURCES = {"ajv": "lib"}
# a corpus whose package is not named like its distribution, or whose tests live elsewhere
# (pluggy cannot be one: pytest, which runs the oracle, imports the renamed package itself)
PACKAGES = {
    "attrs": "attr",
    "dateutil": "dateutil",
    "python-slugify": "slugify",
    "python-dotenv": "dotenv",
    "python-box": "box",
    "markdown-it-py": "markdown_it",
    "python-json-logger": "pythonjsonlogger",
    "arpeggio": "arpeggio",
    "textx": "textx",
    "beautifulsoup4": "bs4",
    "pyhamcrest": "hamcrest",
    "factory_boy": "factory",
}
TEST_DIRS = {
    "toolz": "src/toolz/tests",
    "pyflakes": "src/pyflakes/test",
    "voluptuous": "src/voluptuous/tests",
    "parsimonious": "src/parsimonious/tests",
    "glom": "src/glom/test",
    "colorama": "src/colorama/tests",
    "pytz": "src/pytz/tests",
    "simplejson": "src/simplejson/tests",
    "mako": "test",
    "docutils": "test",
    "tabulate": "test",
    "decorator": "tests/test.py",
    "h11": "src/h11/tests",
    "mistletoe": "test",
    "croniter": "src/croniter/tests",
    "icalendar": "src/icalendar/tests",
    "python-box": "test",
    "jsonschema": "src/jsonschema/tests",
    "radon": "src/radon/tests",
    "docstring_parser": "src/docstring_parser/tests",
    "arpeggio": "src/arpeggio/tests",
    "parso": "test",
    "beautifulsoup4": "src/bs4/tests",
    "hyperlink": "src/hyperlink/test",
    "fire": "src/fire",
    "configobj": "src/tests",
    "pystache": "src/pystache/tests",
    "html2text": "test",
}
# corpora whose CI runs their docstrings' examples (boltons: `pytest --doctest-modules`;
# more-itertools: a `load_tests` DocTestSuite): the oracle runs them too
DOCTESTED = {"boltons", "more-itertools"}
CORPORA = {
    **{key: (name, version) for key, (name, version, _, _) in PYTHON_CORPORA.items()},
    "zod": ("zod", "4.6.7"),
    "rxjs": ("rxjs", "7.8.2"),
    "mobx": ("mobx", "6.15.0"),
    "query-core": ("@tanstack/query-core", "5.62.0"),
    "immer": ("immer", "10.1.1"),
    "table-core": ("@tanstack/table-core", "8.21.3"),
    "virtual-core": ("@tanstack/virtual-core", "3.19.13"),
    "redux": ("redux", "5.0.1"),
    "reselect": ("reselect", "5.3.0"),
    **{key: (name, version) for key, (name, version, _, _) in TS_INSTALLED.items()},
}
PYTEST = "pytest==9.2.0"
TYPESCRIPT = ("typescript", "7.0.2")
ROPE = "rope==1.15.0"
JEDI = "jedi==0.20.1"
KINDS = ("function", "method", "class", "variable", "property", "attribute")
TS_KINDS = ("function", "method", "class", "interface", "type", "enum", "variable", "property")
OUTCOMES = ("clean", "broken", "blocked", "refused")
SKIP_DIRS = {".astmcp", "__pycache__", ".pytest_cache", ".ropeproject", "node_modules"}
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "target": "es2022",
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "skipLibCheck": True,
        "lib": ["es2022", "dom"],
        "types": [],
        # zod's own set-up: its package.json exports name the sources under this condition, so
        # its tests' `import * as z from "zod/v4"` type-check against src (the tests are checked too)
        "customConditions": ["@zod/source"],
    },
    "include": ["src"],
}

ROPE_RUNNER = r"""
import json, sys
from rope.base.project import Project
from rope.refactor.rename import Rename
root, path, line, column, new = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
project = Project(root, ropefolder=None)
try:
    resource = project.get_resource(path)
    lines = resource.read().splitlines(keepends=True)
    offset = sum(len(text) for text in lines[: line - 1]) + column - 1
    changes = Rename(project, resource, offset).get_changes(new)
    changed = sorted(r.path for r in changes.get_changed_resources())
    project.do(changes)
    print(json.dumps({"changed": changed}))
except Exception as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
finally:
    project.close()
"""

JEDI_RUNNER = r"""
import json, os, sys
import jedi
import jedi.inference.references as refs
refs._PARSED_FILE_LIMIT = 100000
refs._OPENED_FILE_LIMIT = 100000
root, path, line, column, new = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
extra = [os.path.join(root, "src")] if os.path.isdir(os.path.join(root, "src")) else []
project = jedi.Project(root, smart_sys_path=True, added_sys_path=extra)
try:
    script = jedi.Script(path=os.path.join(root, path), project=project)
    refactoring = script.rename(line, column - 1, new_name=new)
    changed = sorted(os.path.relpath(str(p), root) for p in refactoring.get_changed_files())
    refactoring.apply()
    print(json.dumps({"changed": changed}))
except Exception as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
"""


def tool_python(name: str, requirement: str) -> Path:
    """A venv of its own under ``.cache/tools`` with ``requirement`` installed."""
    env = CACHE / "tools" / f"{name}-venv"
    python = env / "bin" / "python"
    usable = python.exists() and (
        subprocess.run([str(python), "-c", f"import {name}"], capture_output=True, check=False).returncode
        == 0
    )
    if not usable:
        venv.create(env, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", requirement], check=True)
    return python


# -- corpora and oracles ---------------------------------------------------------------------------


def pristine_python(corpus: str, workdir: Path) -> Path:
    """The sdist's tree (click: as extracted; others: a copy without the tests left out)."""
    name, version, _, left_out = PYTHON_CORPORA[corpus]
    sdist = fetch_pypi_sdist(name, version)
    flat = not (sdist / "src").is_dir()
    if not left_out and not flat:
        return sdist
    pristine = workdir / "pristine"
    if not (pristine / "src").is_dir():
        shutil.rmtree(pristine, ignore_errors=True)
        shutil.copytree(sdist, pristine)
        for rel in left_out:
            (pristine / rel).unlink(missing_ok=True)
        if flat:  # boltons, more-itertools, tomlkit: the package moves under src/, as the tests run it
            package = import_name(corpus)
            (pristine / "src").mkdir()
            (pristine / package).rename(pristine / "src" / package)
    return pristine


def import_name(corpus: str) -> str:
    """The package a Python corpus's distribution installs (``more-itertools``: ``more_itertools``)."""
    return PACKAGES.get(corpus) or PYTHON_CORPORA[corpus][0].replace("-", "_")


def tests_python(corpus: str) -> str:
    """The interpreter running a Python corpus's tests: this one for click, else a venv of its own
    with pytest and the corpus's test requirements."""
    _, _, requirements, _ = PYTHON_CORPORA[corpus]
    if requirements is None:
        return sys.executable
    env = CACHE / "tools" / f"tests-{corpus}-venv"
    python = env / "bin" / "python"
    marker = env / "requirements.txt"
    # a corpus may pin its own pytest (flask 3.1.2's conftest reads `monkeypatch.notset`, gone in 9)
    pins = requirements if any(r.startswith("pytest==") for r in requirements) else (PYTEST, *requirements)
    wanted = "\n".join(pins)
    if not python.exists() or not marker.is_file() or marker.read_text(encoding="utf-8") != wanted:
        shutil.rmtree(env, ignore_errors=True)
        venv.create(env, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *pins], check=True)
        marker.write_text(wanted, encoding="utf-8")
    return str(python)


def pristine_zod(workdir: Path) -> Path:
    pristine = workdir / "pristine"
    package = fetch_npm(*CORPORA["zod"])
    if not (pristine / "src").is_dir():
        shutil.rmtree(pristine, ignore_errors=True)
        shutil.copytree(package / "src", pristine / "src")
    (pristine / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2), encoding="utf-8")
    # the published manifest (name "zod", exports with the "@zod/source" condition): the
    # tests' self-imports resolve to src for tsc and astmcp alike
    shutil.copyfile(package / "package.json", pristine / "package.json")
    return pristine


def pristine_rxjs(workdir: Path) -> Path:
    """rxjs's ``src`` with its own tsconfig, made acceptable to typescript 7 (``moduleResolution:
    node`` and ``baseUrl`` are gone there: ``bundler``, and its ``paths`` are relative already)."""
    pristine = workdir / "pristine"
    package = fetch_npm(*CORPORA["rxjs"])
    if not (pristine / "src").is_dir():
        shutil.rmtree(pristine, ignore_errors=True)
        shutil.copytree(package / "src", pristine / "src")
    config = json.loads((package / "tsconfig.json").read_text(encoding="utf-8"))
    options = config["compilerOptions"]
    for gone in ("baseUrl", "incremental"):
        options.pop(gone, None)
    options.update({"module": "esnext", "moduleResolution": "bundler"})
    config["include"] = ["src/**/*.ts"]
    (pristine / "tsconfig.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return pristine


def pristine_mobx(workdir: Path) -> Path:
    """mobx's ``src`` (its package ships no tsconfig) with mobx's own strictness: ``strict`` but
    implicit ``any`` allowed (its sources rely on it), and the ES2025 library its ``Set`` methods use."""
    pristine = workdir / "pristine"
    package = fetch_npm(*CORPORA["mobx"])
    if not (pristine / "src").is_dir():
        shutil.rmtree(pristine, ignore_errors=True)
        shutil.copytree(package / "src", pristine / "src")
    options = {
        "strict": True,
        "noImplicitAny": False,
        "noImplicitThis": False,
        "noEmit": True,
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
        "skipLibCheck": True,
        "lib": ["es2025", "dom"],
    }
    config = {"compilerOptions": options, "include": ["src/**/*.ts"]}
    (pristine / "tsconfig.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return pristine


def pristine_strict(corpus: str, workdir: Path) -> Path:
    """The ``src`` of a package with no dependencies that ships no tsconfig (@tanstack/query-core,
    immer, @tanstack/table-core, redux, reselect), checked ``strict`` with bundler resolution (their
    imports name no extension)."""
    pristine = workdir / "pristine"
    package = fetch_npm(*CORPORA[corpus])
    if not (pristine / "src").is_dir():
        shutil.rmtree(pristine, ignore_errors=True)
        shutil.copytree(package / "src", pristine / "src")
    options = {
        "strict": True,
        "noEmit": True,
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
        "skipLibCheck": True,
        "lib": ["es2022", "dom"],
    }
    config = {"compilerOptions": options, "include": ["src/**/*.ts"]}
    (pristine / "tsconfig.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return pristine


def pristine_installed(corpus: str, workdir: Path) -> Path:
    """The ``src`` of a package in ``TS_INSTALLED``, with the packages it imports installed from
    npm into ``node_modules`` (no scripts run) and a ``strict`` tsconfig with its options."""
    name, version, needs, extra = TS_INSTALLED[corpus]
    pristine = workdir / "pristine"
    package = fetch_npm(name, version)
    if not (pristine / "src").is_dir() or not (pristine / "node_modules").is_dir():
        shutil.rmtree(pristine, ignore_errors=True)
        shutil.copytree(package / TS_SOURCES.get(corpus, "src"), pristine / "src")
        (pristine / "node_modules").mkdir()  # (a package importing nothing: left empty)
        if needs:
            subprocess.run(
                ["npm", "install", "--prefix", str(pristine), "--no-save", "--no-audit", "--no-fund",
                 "--ignore-scripts", "--no-package-lock", *needs],
                check=True,
                capture_output=True,
            )  # fmt: skip
    options = {
        "strict": True,
        "noEmit": True,
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
        "skipLibCheck": True,
        **extra,
    }
    config = {"compilerOptions": options, "include": ["src/**/*.ts", "src/**/*.tsx"]}
    (pristine / "tsconfig.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return pristine


def tree(root: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            path = Path(dirpath) / name
            out[str(path.relative_to(root))] = path
    return out


def restore(root: Path, pristine: Path) -> list[str]:
    """Make ``root`` equal to ``pristine`` again (changed, added and deleted files); the changed paths."""
    mine, theirs = tree(root), tree(pristine)
    changed = []
    for rel, path in mine.items():
        if rel not in theirs:
            path.unlink()
            changed.append(rel)
        elif path.read_bytes() != theirs[rel].read_bytes():
            path.write_bytes(theirs[rel].read_bytes())
            changed.append(rel)
    for rel, path in theirs.items():
        if rel not in mine:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(path.read_bytes())
            changed.append(rel)
    return sorted(changed)


def run_tests(
    root: Path, python: str = sys.executable, doctests: str | None = None, tests: str = "tests"
) -> tuple[bool, str]:
    """The corpus's tests (the folder ``tests``); then, for a package whose docstrings are tested
    (``doctests``: its folder under ``src``), its doctests too (``--doctest-modules``, as its own
    CI runs them). A suite whose requirements pin Hypothesis runs under Hypothesis's own ``ci``
    profile (``--hypothesis-profile``, and ``HYPOTHESIS_PROFILE`` for one that picks its profile
    so, as dpath's does): without per-example deadlines, which on a busy machine failed twice in a
    row (h2, dpath) with no break of a rename behind them."""
    runs = [[tests], *([[f"src/{doctests}", "--doctest-modules"]] if doctests else [])]
    marker = Path(python).parent.parent / "requirements.txt"
    profile = ["--hypothesis-profile=ci"] if marker.is_file() and "hypothesis==" in marker.read_text() else []
    for args in runs:
        proc = subprocess.run(
            [python, "-m", "pytest", *args, *profile, "-x", "-q", "-p", "no:cacheprovider"],
            cwd=root,
            env={
                "PYTHONPATH": str(root / "src"),
                "PATH": "/usr/bin:/bin",
                "PYTHONDONTWRITEBYTECODE": "1",
                "HYPOTHESIS_PROFILE": "ci",
            },
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        lines = proc.stdout.strip().splitlines() or [""]
        failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
        if proc.returncode != 0:
            return False, "; ".join([lines[-1], *failed[:3]])
    return True, lines[-1]


def tsc_errors(root: Path, tsc: Path) -> list[str]:
    proc = subprocess.run([str(tsc), "-p", "."], cwd=root, capture_output=True, text=True, check=False)
    out = []
    for line in proc.stdout.splitlines():
        match = re.match(r"^(.+?)\(\d+,\d+\): error (TS\d+): (.*)$", line)
        if match:
            out.append(f"{match.group(2)} {match.group(1)} {match.group(3)}")
    return sorted(out)


def checked(oracle: Callable[[], tuple[bool, str]]) -> tuple[str, str]:
    """clean or broken; a failure that passes on a rerun is flaky, not a break."""
    ok, tail = oracle()
    if not ok:
        again, _ = oracle()
        if again:
            tail = f"flaky: failed once ({tail}), passed on rerun"
        ok = again
    return ("clean" if ok else "broken"), tail


# -- the sample and the three tools ------------------------------------------------------------------


def sample(workspaces: Workspaces, size: int, seed: int, corpus: str) -> list[dict[str, Any]]:
    conn = workspaces.get(None).db()
    python = corpus in PYTHON_CORPORA
    kinds = KINDS if python else TS_KINDS
    where = (
        f"f.path LIKE 'src/{import_name(corpus)}/%' AND f.path NOT LIKE '%/tests/%'"
        f" AND f.path NOT LIKE '%/test/%'"
        if python
        else "f.path NOT LIKE '%test%' AND f.path LIKE 'src/%'"
    )
    marks = ",".join("?" * len(kinds))
    rows = conn.execute(
        f"SELECT s.selector, s.name, s.kind, f.path, s.name_line, s.name_col FROM symbols s"
        f" JOIN files f ON f.id = s.file_id WHERE {where} AND s.kind IN ({marks}) ORDER BY s.selector",
        kinds,
    ).fetchall()
    # dunders, and anonymous default exports (`export default function () {}`: no name to rename,
    # importers choose their own; astmcp refuses them with INVALID_INPUT)
    rows = [r for r in rows if not (r[1].startswith("__") and r[1].endswith("__")) and not _anonymous(r)]
    picked = random.Random(seed).sample(rows, min(size, len(rows)))
    keys = ("selector", "name", "kind", "file", "line", "column")
    return [dict(zip(keys, row, strict=True)) for row in picked]


def _anonymous(row: tuple[Any, ...]) -> bool:
    selector, name = row[0], row[1]
    return bool(name == "default" and selector.endswith("::default"))


def renamed(name: str, corpus: str) -> str:
    """The new name: ``name_rn`` (Python) / ``nameRn`` (TS); a quoted member name that is no
    identifier (``"~validate"``) keeps its identifier characters (``validateRn``)."""
    base = re.sub(r"[^\w$]", "", name) or "member"
    return f"{base}_rn" if corpus in PYTHON_CORPORA else f"{base}Rn"


def reason_class(kinds: Counter[str]) -> str:
    """Why a plan blocked: names in strings, receivers that could not be typed, same-named
    members of related types (``override`` hits), outside bases astmcp could not read (``base``),
    stand-ins (``double``), data (``data``), unparsed files (``unparsed``), joined by ``+``."""
    parts = []
    if kinds.get("override", 0):
        parts.append("related")
    if kinds.get("base", 0):
        parts.append("unread-base")
    named = {"double": "stand-ins", "data": "data", "unparsed": "unparsed"}
    parts += [label for kind, label in named.items() if kinds.get(kind, 0)]
    if sum(n for kind, n in kinds.items() if kind not in ("string", "override", "base", *named)):
        parts.append("receivers")
    if kinds.get("string", 0):
        parts.append("strings")
    return "+".join(parts) or "receivers"


def _why(record: dict[str, Any]) -> str:
    """A blocked or refused record's class (a blocked one's classed anew from its kinds)."""
    kinds = record.get("uncertain_kinds")
    if record["outcome"] == "blocked" and kinds:
        return reason_class(Counter(kinds))
    return str(record.get("reason", "?"))


def astmcp_rename(
    workspaces: Workspaces, item: dict[str, Any], new_name: str, oracle: Callable[[], tuple[bool, str]]
) -> dict[str, Any]:
    started = time.perf_counter()
    prepared = call_tool(
        workspaces, "ast_rename_symbol", {"selector": item["selector"], "new_name": new_name}
    )
    prepare_s = round(time.perf_counter() - started, 3)
    if prepared.is_error:
        error = prepared.data["error"]
        return {
            "outcome": "refused",
            "reason": error["code"],
            "detail": f"{error['code']}: {error['message']}",
            "seconds": prepare_s,
        }
    plan = prepared.data
    if plan["blocked"]:
        kinds = Counter(h["kind"] for h in plan["uncertain_references"])
        reason = reason_class(kinds) if plan["uncertain_references"] else "new_errors"
        return {
            "outcome": "blocked",
            "reason": reason,
            "uncertain_kinds": dict(kinds),
            "detail": plan["block_reason"],
            "seconds": prepare_s,
        }
    applied = call_tool(
        workspaces,
        "ast_apply_operation",
        {"operation_id": plan["operation_id"], "plan_hash": plan["plan_hash"]},
    )
    seconds = round(time.perf_counter() - started, 3)
    if applied.is_error:
        return {
            "outcome": "refused",
            "reason": "apply_failed",
            "detail": applied.text[:300],
            "seconds": seconds,
        }
    outcome, tail = checked(oracle)
    return {
        "outcome": outcome,
        "detail": tail,
        "references": plan["reference_count"],
        "files": len(plan["affected_files"]),
        "seconds": seconds,
        "prepare_s": prepare_s,
    }


def external_rename(
    python: Path,
    runner: str,
    root: Path,
    item: dict[str, Any],
    new_name: str,
    oracle: Callable[[], tuple[bool, str]],
) -> dict[str, Any]:
    args = [str(root), item["file"], str(item["line"]), str(item["column"]), new_name]
    started = time.perf_counter()
    try:
        env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}  # jedi would infer in that venv
        proc = subprocess.run(
            [str(python), "-c", runner, *args],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"outcome": "refused", "reason": "timeout", "detail": "no answer in 600 s"}
    seconds = round(time.perf_counter() - started, 3)
    lines = proc.stdout.strip().splitlines()
    answer = json.loads(lines[-1]) if lines else {"error": proc.stderr.strip()[-300:]}
    if "error" in answer:
        reason = answer["error"].split(":")[0]
        return {"outcome": "refused", "reason": reason, "detail": answer["error"][:300], "seconds": seconds}
    if not answer["changed"]:
        return {
            "outcome": "refused",
            "reason": "no_edits",
            "detail": "the tool changed no file",
            "seconds": seconds,
        }
    outcome, tail = checked(oracle)
    return {"outcome": outcome, "detail": tail, "files": len(answer["changed"]), "seconds": seconds}


def run_corpus(corpus: str, tools: list[str], size: int, seed: int, workdir: Path) -> dict[str, Any]:
    python = corpus in PYTHON_CORPORA
    pristine = (
        pristine_python(corpus, workdir)
        if python
        else pristine_zod(workdir)
        if corpus == "zod"
        else pristine_rxjs(workdir)
        if corpus == "rxjs"
        else pristine_mobx(workdir)
        if corpus == "mobx"
        else pristine_installed(corpus, workdir)
        if corpus in TS_INSTALLED
        else pristine_strict(corpus, workdir)
    )
    root = workdir / "work"
    shutil.rmtree(root, ignore_errors=True)
    # a fresh index, as a new user's: none a tool left in the cached corpus
    shutil.copytree(pristine, root, ignore=shutil.ignore_patterns(".astmcp"))
    renaming = {"old": "", "new": ""}  # the rename the oracle judges
    if python:
        interpreter = tests_python(corpus)
        if interpreter != sys.executable:
            # the corpus's dependencies live there: astmcp runs as with the project's virtualenv
            # active, and reads outside classes from it (resolve.python_external)
            os.environ["VIRTUAL_ENV"] = str(Path(interpreter).parent.parent)
        doctests = import_name(corpus) if corpus in DOCTESTED else None
        tests = TEST_DIRS.get(corpus, "tests")
        ok, tail = run_tests(root, interpreter, doctests, tests)
        if not ok:
            raise SystemExit(f"{corpus}'s tests fail before any rename: {tail}")

        def oracle() -> tuple[bool, str]:
            return run_tests(root, interpreter, doctests, tests)
    else:
        tsc = npm_tool(*TYPESCRIPT, "tsc")
        baseline = Counter(tsc_errors(root, tsc))

        def oracle() -> tuple[bool, str]:
            # an error there before that named the renamed symbol names the new name after (`… index
            # type 'ZodObject<…, $strip>'`): the same error, not a new one (the new names, `…Rn`,
            # occur nowhere else, so they are read back as the old one)
            old, new = renaming["old"], renaming["new"]
            word = re.compile(rf"(?<![\w$]){re.escape(new)}(?![\w$])")
            after = Counter(
                word.sub(lambda _: old, error) if old else error for error in tsc_errors(root, tsc)
            )
            added = list((after - baseline).elements())
            return not added, f"{len(added)} new tsc error(s)" + (f": {added[0][:160]}" if added else "")

    pythons = (
        {t: tool_python(t, r) for t, r in (("rope", ROPE), ("jedi", JEDI)) if t in tools} if python else {}
    )
    runners = {"rope": ROPE_RUNNER, "jedi": JEDI_RUNNER}
    workspaces = Workspaces(root.resolve())
    workspaces.get(None).plans.state_dir = workdir / "state"
    items = sample(workspaces, size, seed, corpus)
    results: dict[str, list[dict[str, Any]]] = {tool: [] for tool in tools}
    for item in items:
        new_name = renamed(item["name"], corpus)
        renaming.update(old=item["name"], new=new_name)
        for tool in tools:
            if tool == "astmcp":
                record = astmcp_rename(workspaces, item, new_name, oracle)
            else:
                record = external_rename(pythons[tool], runners[tool], root, item, new_name, oracle)
            record = {"selector": item["selector"], "kind": item["kind"], "new_name": new_name, **record}
            restore(root, pristine)
            results[tool].append(record)
            print(
                f"{tool:>6} {record['outcome']:>8}  {item['selector']}  {record['detail'][:100]}", flush=True
            )
    workspaces.close()
    name, version = CORPORA[corpus]
    return {
        "corpus": f"{name} {version}",
        "sample": len(items),
        "seed": seed,
        "symbols": [item["selector"] for item in items],
        "tools": {tool: {"counts": counts(records), "results": records} for tool, records in results.items()},
    }


def counts(records: list[dict[str, Any]]) -> dict[str, int]:
    found = Counter(r["outcome"] for r in records)
    return {outcome: found.get(outcome, 0) for outcome in OUTCOMES}


# -- report ------------------------------------------------------------------------------------------


def merge(fresh: dict[str, Any], path: Path) -> dict[str, Any]:
    """Keep the results of tools not rerun when they cover the same sample."""
    if path.is_file():
        old = json.loads(path.read_text(encoding="utf-8"))
        if old.get("symbols") == fresh["symbols"]:
            fresh["tools"] = {**old.get("tools", {}), **fresh["tools"]}
    return fresh


def report() -> None:
    lines = [
        "`python benchmarks/rename_safety.py --corpus click`, `--corpus zod` and `--corpus rxjs` (50 seeded symbols each, seed 0,",
        "no dunders), and `--corpus jinja2|marshmallow|itsdangerous` (corpora added in the ninth round to",
        "look for breaks on code not tuned against; `flask` in the thirteenth, `wtforms` in the fifteenth,",
        "`structlog`, `blinker` and `mobx` in the seventeenth, first run on commit 30b2c9f with no rule changed for them;",
        "mobx's first run found two breaks, fixed since; `packaging`, `cachetools`, `query-core` (@tanstack/query-core)",
        "and `immer` in the nineteenth: packaging's first run found one break, fixed since; `boltons`,",
        "`more-itertools` and `table-core` (@tanstack/table-core) in the twentieth, `tomlkit` and `virtual-core`",
        "(@tanstack/virtual-core) in the twenty-first, `humanize` in the twenty-third, `markdown`",
        "(Python-Markdown) in the twenty-seventh, each first run with no rule changed for it: no break;",
        "`attrs`, `sqlparse`, `toolz`, `mistune`, `pyparsing`, `tinydb`, `jmespath`, `pyflakes`, `inflect`, `munch`,",
        "`funcy`, `voluptuous`,",
        "`redux` and `reselect` in the thirty-fifth: sqlparse's first run broke 2, toolz's 1 (and seed 13 one more),",
        "tinydb's 1, pyflakes's 5, munch's 4 and pyparsing's second 1, each fixed since; `lark`,",
        "`parsimonious`, `pycparser`, `transitions`, `glom`, `cssselect`, `pathspec`, `tqdm`, `dateutil`,",
        "`markupsafe`, `colorama`, `wcwidth`, `isodate`, `pytz`, `simplejson`, `webcolors`, `mako`, `pyasn1`",
        "and `docutils` in the thirty-sixth: first runs broke parsimonious 2, pycparser 1, cssselect 2,",
        "colorama 3, mako 1, dateutil 1 (an internal error, refused), and seed-13/41 hunts dateutil 2, pytz 1",
        "and cssselect 1 more, each fixed since; `trpc-server` (@trpc/server), `pacer` (@tanstack/pacer),",
        "`redux-toolkit` (@reduxjs/toolkit), `router-core` (@tanstack/router-core), `ajv`, `db`",
        "(@tanstack/db), `form-core` (@tanstack/form-core), `trpc-client` (@trpc/client), `db-ivm`",
        "(@tanstack/db-ivm), `mobx-keystone`, `semver`, `prettytable`, `freezegun`, `arrow` and `tabulate`",
        "in the thirty-seventh: first runs broke trpc-server 1, pacer 4, db 2, prettytable 7, freezegun 2",
        "and arrow 1 (and form-core's index never finished), each fixed since; `react-query`, `react-router`,",
        "`start-client-core`, `router-generator`, `store` (@tanstack/*), `dacite`, `typeguard`, `validators`,",
        "`python-slugify`, `decorator` and `webob` in the thirty-eighth: first runs broke python-slugify 1,",
        "decorator 6 and webob 1, each fixed since; tests left out where they cannot pass as the sdist",
        "unpacks or time snippets: see `PYTHON_CORPORA`). Each",
        "applied rename is checked by an oracle, then the tree is restored: the project's own test suite (click:",
        "2,400+ tests; jinja2 909, marshmallow 1,237, itsdangerous 297, wtforms 354, flask 485 with pytest 8.4.2 and its dependencies as of",
        "3.1.2, structlog, blinker, packaging, cachetools, boltons, more-itertools, tomlkit, humanize, markdown, attrs",
        "(without tests/test_converters.py, which fails on Python 3.11 before any rename), sqlparse, toolz (its",
        "src/toolz/tests), mistune, pyparsing, tinydb, jmespath, inflect, munch, funcy, voluptuous (its",
        "src/voluptuous/tests) and pyflakes (its src/pyflakes/test without",
        "test_api.py, which runs pyflakes in a subprocess that cannot import it) with their test",
        "requirements (markdown without tests/test_syntax/extensions/test_md_in_html.py, which pytest cannot run after",
        "its test_legacy.py makes warnings errors),",
        "boltons and more-itertools also with their docstrings' doctests (`pytest --doctest-modules src/<package>`, as their CI",
        "runs them); astmcp runs with that test virtualenv as `VIRTUAL_ENV`, so it reads the corpus's dependencies",
        "as from a user's project virtualenv, and indexes a fresh copy: no index a tool left in the cached corpus),",
        "or for zod no new `tsc` diagnostic from typescript 7.0.2 (multiset on",
        "code/file/message) over zod's `src` with its published package.json and `customConditions:",
        "[\"@zod/source\"]` (zod's own set-up), so the tests' `zod/v4` self-imports type-check against the",
        "sources and are judged too (tsc only: a name left behind in generated code or a test title is not",
        "seen); for rxjs the same over its `src` with its own tsconfig (`moduleResolution: bundler`, no",
        "`baseUrl`, which typescript 7 removed); for mobx its `src` with mobx's own strictness (`strict`, implicit `any`",
        "allowed, ES2025 library); for query-core, immer, table-core, virtual-core, redux and reselect, which ship no",
        "tsconfig, their `src` with `strict` and",
        "bundler resolution; for the `TS_INSTALLED` corpora (trpc-server, pacer, redux-toolkit, router-core, ajv,",
        "db, form-core, trpc-client, db-ivm, mobx-keystone) their `src` (ajv's `lib`) with the packages they import installed from npm into",
        "`node_modules` (which astmcp does not index; since the forty-fifth round it reads their `.d.ts`), `strict`, and their own path mappings. **broken** = applied and the oracle fails (silent breakage; a failure that",
        "passes on a rerun counts as flaky, not broken); **blocked** = astmcp prepared a plan but blocked it",
        "(uncertain references to review, or new errors); **refused** = an error instead of edits. rope",
        "1.15.0 (`Rename.get_changes`, defaults) and jedi 0.20.1 (`Script.rename`, file limits raised) rename",
        "the same Python symbols at the same positions; they have no blocked state. Target for astmcp:",
        "0 broken, ≥ 90 % not blocked.",
        "",
        "| corpus | tool | clean | broken | blocked | refused | not blocked | median s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    reasons: list[str] = []
    for corpus in CORPORA:
        path = RESULTS / f"rename_safety_{corpus}.json"
        if not path.is_file():
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        if "tools" not in doc:
            continue
        for tool in ("astmcp", "rope", "jedi"):
            if tool not in doc["tools"]:
                continue
            c = doc["tools"][tool]["counts"]
            records = doc["tools"][tool]["results"]
            seconds = sorted(r["seconds"] for r in records)
            median = seconds[len(seconds) // 2] if seconds else 0.0
            total = sum(c.values())
            free = 100.0 * (total - c["blocked"]) / total if total else 0.0
            lines.append(
                f"| {doc['corpus']} | {tool} | {c['clean']} | **{c['broken']}** | {c['blocked']} | {c['refused']} |"
                f" {free:.0f} % | {median:.2f} |"
            )
            if tool != "astmcp" and "astmcp" in doc["tools"] and c["broken"]:
                ours = {r["selector"]: r["outcome"] for r in doc["tools"]["astmcp"]["results"]}
                fate = Counter(ours.get(r["selector"], "?") for r in records if r["outcome"] == "broken")
                parts = ", ".join(f"{k} {v}" for k, v in sorted(fate.items()))
                reasons.append(f"- {doc['corpus']}: the {c['broken']} symbols {tool} broke, astmcp: {parts}")
            why = Counter(
                f"{r['outcome']}: {_why(r)}" for r in records if r["outcome"] in ("blocked", "refused")
            )
            if why:
                parts = ", ".join(f"{k} {v}" for k, v in sorted(why.items()))
                reasons.append(f"- {doc['corpus']}, {tool}: {parts}")
    lines += [
        "",
        "*median s* is per symbol: the rename alone (astmcp: prepare, plus apply when not blocked; rope/jedi:",
        "a fresh process that computes and writes the rename), never the oracle.",
        "Why not clean, by class. astmcp `blocked`: *strings* = only names inside string literals (dict keys,",
        "`getattr`/`setattr` arguments, TS string-keyed access and literal types); *receivers* = only",
        "`obj.name` hits whose receiver could not be typed; *related* = same-named members of related types",
        "(a class whose base is unknown; TS: a type usable as the member's, or the other way round);",
        "*unread-base* = a class deriving from an outside class astmcp could not read (its package not",
        "installed where astmcp runs), which may define the member; *stand-ins* = same-named members of",
        "classes given where the member's class is declared (test doubles); *data* = places where the name",
        "itself is data (a template makes a handler's name from it, a decorator is told it); *unparsed* = files",
        "astmcp could not parse; joined by `+` where a plan has several.",
        "`refused`: the error",
        "code (`MUTATION_BLOCKED` = an override family with a member outside the project, or a related",
        "member the index did not link — the family guard; or a use read through a union with another",
        "type's member, which renaming one would break; `INVALID_INPUT` = no renamable name, e.g. an",
        "anonymous default export; the sample leaves those out, having no name to rename).",
        "rope/jedi `refused` is the exception they raised (or `no_edits`).",
        "",
        *reasons,
    ]
    update_readme_section("rename_safety", "Rename safety: astmcp vs rope and jedi", "\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", choices=tuple(CORPORA), default="click")
    parser.add_argument("--tools", default=None, help="comma-separated subset of astmcp,rope,jedi")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--report", action="store_true", help="only rewrite the README section")
    args = parser.parse_args(argv)
    if not args.report:
        python = args.corpus in PYTHON_CORPORA
        default = "astmcp,rope,jedi" if args.corpus == "click" else "astmcp"
        tools = [t for t in (args.tools or default).split(",") if t]
        unknown = set(tools) - {"astmcp", "rope", "jedi"} or (
            set(tools) - {"astmcp"} if not python else set()
        )
        if unknown:
            parser.error(f"unknown or unsupported tools for {args.corpus}: {sorted(unknown)}")
        workdir = Path(args.workdir or f"/tmp/rename-safety-{args.corpus}")
        workdir.mkdir(parents=True, exist_ok=True)
        out = RESULTS / f"rename_safety_{args.corpus}.json"
        result = merge(run_corpus(args.corpus, tools, args.sample, args.seed, workdir), out)
        RESULTS.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        for tool, doc in result["tools"].items():
            print(tool, doc["counts"])
    report()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
