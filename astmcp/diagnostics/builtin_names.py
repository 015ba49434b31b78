"""Names that exist without a binding in the file: builtins across language versions and hosts.

Written out rather than taken only from the running interpreter, so the answer
does not depend on which Python serves the index.
"""

from __future__ import annotations

__all__ = ["PYTHON_BUILTINS", "TS_ENV_GLOBALS"]

_PY3 = """
abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex
copyright credits delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr
globals hasattr hash help hex id input int isinstance issubclass iter len license list locals map max
memoryview min next object oct open ord pow print property quit range repr reversed round set setattr slice
sorted staticmethod str sum super tuple type vars zip Ellipsis NotImplemented None True False
ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError EncodingWarning EnvironmentError
Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit
IOError ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError KeyError
KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError
NotImplementedError OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError
PythonFinalizationError RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning
StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError
TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError
UnicodeWarning UserWarning ValueError Warning ZeroDivisionError _IncompleteInputError
"""
# Only on Windows, or only in Python 2 code kept behind version checks.
_PLATFORM_AND_PY2 = """
WindowsError VMSError unicode basestring long xrange raw_input unichr file reduce execfile cmp buffer apply
intern coerce StandardError reload
"""
# Understood by type checkers or injected by common hosts (gettext.install, IPython).
_TOOLING = """
reveal_type reveal_locals _ get_ipython display
"""

PYTHON_BUILTINS: frozenset[str] = frozenset((_PY3 + _PLATFORM_AND_PY2 + _TOOLING).split())

# TS/JS values TypeScript's lib does not declare (its lib is in ts_lib_globals.py): language
# specials, Node/CommonJS, other runtimes, and the globals of common test runners.
# `await`/`yield`: the JS grammar reads `await (f)(x)` outside async code as a call of a name.
_JS_SPECIALS = """
globalThis arguments undefined NaN Infinity await yield
"""
_NODE = """
process Buffer global require module exports __dirname __filename setImmediate clearImmediate NodeJS
"""
# Bun, Deno, browser extensions, Cloudflare Workers, AWS Lambda streaming.
_RUNTIMES = """
Bun Deno chrome browser WebSocketPair HTMLRewriter awslambda
"""
# jest, jasmine, vitest (`globals: true`), mocha (BDD and TDD), cypress; node:test has no globals.
_TEST_RUNNERS = """
describe it test expect jest beforeAll beforeEach afterAll afterEach fit fdescribe xit xdescribe xtest
jasmine spyOn pending fail expectAsync vi suite bench expectTypeOf assertType context specify before after
setup teardown suiteSetup suiteTeardown xcontext xspecify mocha run cy Cypress
"""

TS_ENV_GLOBALS: frozenset[str] = frozenset((_JS_SPECIALS + _NODE + _RUNTIMES + _TEST_RUNNERS).split())
