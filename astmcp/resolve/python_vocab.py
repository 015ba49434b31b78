"""Builtin, typing and pytest names the Python fact pass gives a meaning to."""

from __future__ import annotations

import ast
import builtins
import re

BUILTINS = frozenset(dir(builtins))
# names every module has without binding them
MODULE_NAMES = frozenset(
    {"__file__", "__name__", "__doc__", "__spec__", "__loader__", "__package__", "__builtins__", "__path__"}
    | {"__cached__", "__annotations__", "__dict__", "__getattr__", "__all__"}
)
# members every object, class or module has, holding a string
OBJECT_STRINGS = frozenset({"__name__", "__qualname__", "__module__"})


def _continuing() -> str:
    """The characters (of the Basic Multilingual Plane) an identifier may go on with that ``\\w``
    does not match: combining marks (the points of ``עִברִית``), ``·``. A character class's body."""
    return "".join(
        re.escape(c) for c in map(chr, range(0x80, 0x10000)) if not c.isalnum() and ("a" + c).isidentifier()
    )


_WORD = rf"[^\W\d](?:\w|[{_continuing()}])*"  # an identifier as Python reads one
IDENT = re.compile(_WORD)
# the stored target of a name hit on a name a doctest binds (`>>> first, rest = spy(it)`): a
# variable of the doctest's namespace, a hit of a module-level symbol of that name, never of a
# member (no chain of either language starts so)
DOCTEST_LOCAL = "*D:"
# the stored target of a word of a doctest example's expected output: `*O:<first>-<last>`, the
# code lines of the example that printed it (query.printed_names)
DOCTEST_OUTPUT = "*O:"
# the stored target of a string used as a data key: a dict display's key (`{"name": v}`) or a
# subscript (`row["name"]`); a name hit unless nothing can make it an attribute name
# (query.data_keys)
DATA_KEY = "*K:"
# the stored target of a string a class body's `__slots__` lists: `*L:<the class's symbol path>`,
# the attribute the slot declares on that class (query.references)
SLOT_NAME = "*L:"
DOTTED = re.compile(rf"{_WORD}(?:\.{_WORD})+")
DEF_NAME = re.compile(r"(?:async\s+)?(?:def|class)\s+")
WRAPPERS = frozenset({"Optional", "Annotated", "ClassVar", "Final", "Required", "NotRequired", "ReadOnly"})
# subscripted forms that are no instance of their head
SPECIAL_FORMS = frozenset(
    {
        "Literal",
        "Callable",
        "type",
        "Type",
        "TypeGuard",
        "TypeIs",
        "Unpack",
        "Concatenate",
        "Generic",
        "Protocol",
    }
)
# subscripted containers whose items a loop or subscript yields (the first argument; tuple[X, ...])
SEQUENCES = frozenset(
    {
        "list",
        "List",
        "set",
        "Set",
        "frozenset",
        "FrozenSet",
        "Sequence",
        "MutableSequence",
        "Iterable",
        "Iterator",
        "Collection",
        "AbstractSet",
        "MutableSet",
        "Generator",
        "AsyncIterator",
        "AsyncIterable",
        "AsyncGenerator",
        "deque",
        "Deque",
        "tuple",
        "Tuple",
        "KeysView",
        "ValuesView",
        "Reversible",
    }
)
# mappings: the value type (the last argument) is what `m[k]`, `.values()`, `.items()` give
MAPPINGS = frozenset(
    {"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict", "DefaultDict", "ChainMap"}
)
# generic forms whose subscription at module or class level is a type alias (`Map = dict[K, V]`)
ALIASABLE = SEQUENCES | MAPPINGS | {"Union", "Optional"}
# `unittest.mock.patch("pkg.m.obj")`: a mock standing in for pkg.m.obj while it is entered
PATCHES = frozenset(
    {
        "I:0:unittest.mock:patch",
        "I:0:unittest.mock:/patch",
        "I:0:mock:patch",
        "I:0:mock:/patch",
        "I:0:unittest:/mock/patch",
    }
)
CASTS = frozenset(
    {"I:0:typing:cast", "I:0:typing:/cast", "I:0:typing_extensions:cast", "I:0:typing_extensions:/cast"}
)
# outside functions giving an object of their first argument's type (a copy, a changed copy)
COPIES = frozenset(
    f"I:0:{module}:{sep}{name}"
    for module, names in (("copy", ("copy", "deepcopy", "replace")), ("dataclasses", ("replace",)))
    for name in names
    for sep in ("", "/")
) | frozenset(f"I:0:{module}:{sep}evolve" for module in ("attr", "attrs") for sep in ("", "/"))
# `attrs.evolve(x, size=…)`: keywords are `__init__`'s (a private field `_size` takes `size`)
EVOLVES = frozenset(f"I:0:{module}:{sep}evolve" for module in ("attr", "attrs") for sep in ("", "/"))
# standard modules and builtin types whose functions and methods, and what those make, give only
# values of their own or builtin types, whatever they are passed (`text.split()`, `re.finditer`; not
# `json`, `copy`, `functools`, `traceback`: hooks and frames hand back the caller's objects)
CLOSED_ORIGINS = frozenset(
    {"re", "os", "posixpath", "ntpath", "string", "math", "cmath", "time", "struct", "hashlib", "hmac"}
    | {"base64", "binascii", "zlib", "unicodedata", "textwrap", "shlex", "fnmatch", "glob", "pathlib"}
    | {"str", "bytes", "bytearray", "int", "float", "complex", "bool", "range"}
)
# `pytest.param(v, …)` in a parametrize list: what the test is given
PYTEST_PARAMS = frozenset({"I:0:pytest:param", "I:0:pytest:/param"})
# `with pytest.raises(E) as info`: `info.value` is the E raised
RAISES = frozenset({"I:0:pytest:raises", "I:0:pytest:/raises"})
# `with case.assertRaises(E) as cm` of a unittest case (a name unittest alone uses): `cm.exception` is the E raised
ASSERT_RAISES = frozenset({"assertRaises", "assertRaisesRegex"})
# `functools.partial(f, …)`: called, it is f called
PARTIALS = frozenset({"I:0:functools:partial", "I:0:functools:/partial"})
# builtins whose items are the items of their first argument
SAME_ITEMS = frozenset({"sorted", "reversed", "list", "tuple", "set", "frozenset", "iter"})
# builtins making a new builtin container of an iterable's items
NEW_CONTAINERS = frozenset({"sorted", "list", "tuple", "set", "frozenset"})
# builtins making an iterator over an iterable's items
ITERATORS = frozenset({"iter", "reversed"})
# builtins returning (an item of) an argument: their result is no builtin object
PASS_THROUGH = frozenset({"max", "min", "next", "anext", "getattr", "type"})
TYPE_VARS = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple"})
# calls whose first argument names what they declare: `T = TypeVar("T")`
NAMES_ITSELF = TYPE_VARS | {"NewType", "NamedTuple", "TypedDict", "namedtuple"}
# names whose string value lists names (`__slots__ = "x y"`, an Enum's `_order_`/`_ignore_`)
NAME_LISTS = frozenset({"__slots__", "_order_", "_ignore_", "__match_args__"})
EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
# builtins whose second argument names an attribute of the first: `getattr(x, "name")` reads `x.name`
STR_ATTR_FUNCS = frozenset({"getattr", "setattr", "hasattr", "delattr"})
# calls whose `(x, "name", ...)` arguments name an attribute of x as those builtins do
ATTR_PATCHERS = frozenset(
    {
        "F:monkeypatch/setattr",
        "F:monkeypatch/delattr",
        "F:mocker/patch/object",
        "I:0:unittest:/mock/patch/object",
        "I:0:unittest:mock/patch/object",
        "I:0:unittest.mock:/patch/object",
        "I:0:unittest.mock:patch/object",
        "I:0:mock:/patch/object",
        "I:0:mock:patch/object",
    }
)
# calls whose first argument is the dotted path of what they set (`mock.patch("pkg.m.make", fake)`,
# `monkeypatch.setattr("pkg.m.make", fake)`): a store into it
PATH_PATCHERS = frozenset(
    {
        "F:monkeypatch/setattr",
        "F:mocker/patch",
        "I:0:unittest:/mock/patch",
        "I:0:unittest:mock/patch",
        "I:0:unittest.mock:/patch",
        "I:0:unittest.mock:patch",
        "I:0:mock:/patch",
        "I:0:mock:patch",
    }
)
# annotations any object satisfies: a string naming an attribute of such a receiver probes any
# class's member (`hasattr(o: object, "x")`), so it stays a name hit
ANY_OBJECT = frozenset(
    f"{annotation}/{instance}"
    for annotation in (
        "G:object",
        "G:type",
        "I:0:typing:Any",
        "I:0:typing:/Any",
        "I:0:typing_extensions:Any",
        "I:0:typing_extensions:/Any",
    )
    for instance in ("()", "(i)")  # (an annotation's chain ends `/(i)`: an instance of)
)
# what loads a module by name (any project module): `sys.modules[k]`, `importlib.import_module(k)`
MODULE_LOADERS = (
    "I:0:sys:/modules/",
    "I:0:sys:modules/",
    "I:0:importlib:/import_module/",
    "I:0:importlib:import_module/",
    "G:__import__/",
    "I:0:pytest:/importorskip/",
    "I:0:pytest:importorskip/",
)
MAX_STRING = 20_000  # longer literals (embedded data, bundles) are not read for names
# literals and displays: builtin objects, whose members are outside the project
LITERALS: dict[type, str] = {
    ast.JoinedStr: "str",
    ast.List: "list",
    ast.ListComp: "list",
    ast.Dict: "dict",
    ast.DictComp: "dict",
    ast.Set: "set",
    ast.SetComp: "set",
    ast.Tuple: "tuple",
}
# decorators that keep what calling the function returns (a return may be inferred through them)
TRANSPARENT = frozenset(
    {"staticmethod", "classmethod", "property", "cached_property", "cache", "lru_cache", "abstractmethod"}
)
FIXTURES = frozenset({"I:0:pytest:/fixture", "I:0:pytest:fixture"})
# annotations that name no class: `Any` (anything: its members are name hits) and `Self` (the
# enclosing class), however imported
_TYPING = ("typing", "typing_extensions")
ANY_TYPES = frozenset(f"I:0:{m}:{sep}Any" for m in _TYPING for sep in ("", "/"))
SELF_TYPES = frozenset(f"I:0:{m}:{sep}Self" for m in _TYPING for sep in ("", "/"))
# decorators making a generator function a context manager: `with f() as x` is what it yields
CONTEXT_MANAGERS = frozenset(
    f"I:0:contextlib:{sep}{name}" for sep in ("", "/") for name in ("contextmanager", "asynccontextmanager")
)
PARAMETRIZE = frozenset({"I:0:pytest:/mark/parametrize", "I:0:pytest:mark/parametrize"})
NESTED = (ast.keyword, ast.arguments, ast.comprehension, ast.withitem, ast.match_case, ast.arg, ast.alias)


_CLASS_FIXTURE = re.compile(r"^F:[^:/]+:")


def fixture_call(chain: str | None) -> str | None:
    """A call chain through a pytest fixture as a test function has it: a test class's method
    requests ``F:<class>:monkeypatch``, the same fixture as ``F:monkeypatch`` (so
    ``monkeypatch.setattr(m, "x", …)`` in a ``TestX`` method is the patcher it is elsewhere)."""
    return _CLASS_FIXTURE.sub("F:", chain) if chain is not None else None


def holds_items(chain: str) -> bool:
    """Whether ``chain`` is a builtin container's (a display's, a new empty one's)."""
    return chain.endswith(("/*s", "/*m", "/*d")) or chain in ("L:list", "L:dict", "L:set")


def unknown_items(chain: str) -> str:
    """A container value's chain with its items unknown (it is changed in place: what its
    displays hold is not all it holds): a list or dict of unknown items, else as it was."""
    if chain.endswith("/*s"):
        return "L:list"
    return "L:dict" if chain.endswith(("/*m", "/*d")) else chain


# what a mock's constructor, `configure_mock`, `create_autospec` and `patch.multiple` take as
# themselves; any other keyword names an attribute to set
MOCK_PARAMETERS = frozenset(
    {"spec", "spec_set", "side_effect", "return_value", "wraps", "name", "unsafe", "parent"}
    | {"new", "new_callable", "autospec", "create", "instance", "_name", "_new_name", "_new_parent"}
)
MOCK_CALLS = frozenset(
    {"Mock", "MagicMock", "AsyncMock", "NonCallableMock", "NonCallableMagicMock", "PropertyMock"}
    | {"create_autospec", "configure_mock", "multiple"}
)
