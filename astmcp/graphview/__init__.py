"""Pictures of the read graph: export (Mermaid, DOT, JSON), a browser view, client snippets."""
