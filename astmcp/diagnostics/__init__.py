"""Diagnostics: built-in checks, external checkers and the delta plans are checked against."""
