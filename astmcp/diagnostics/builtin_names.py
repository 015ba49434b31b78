"""Names that exist without a binding in the file: builtins across language versions.

Written out rather than taken only from the running interpreter, so the answer
does not depend on which Python serves the index.
"""

from __future__ import annotations

__all__ = ["PYTHON_BUILTINS"]

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
