"""The package's public surface is deliberate: the front doors are console scripts, not imports."""

from __future__ import annotations

import astmcp
from astmcp import errors


def test_package_exports_only_its_version() -> None:
    assert astmcp.__all__ == ["__version__"]
    assert isinstance(astmcp.__version__, str) and astmcp.__version__.count(".") == 2


def test_every_spec_error_code_has_exactly_one_exception_class() -> None:
    spec_classes = [c for c in errors.AstmcpError.__subclasses__() if c.__module__ == "astmcp.errors"]
    codes = [cls.code for cls in spec_classes]
    assert sorted(codes) == sorted(errors.ERROR_CODES)
