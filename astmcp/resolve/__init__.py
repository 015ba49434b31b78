"""Project-level resolution passes: imports, references and edges."""
