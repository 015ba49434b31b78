"""``ast-tool view``: one self-contained HTML page (no CDN), written or served on 127.0.0.1."""

from __future__ import annotations

import json
import sys
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

from astmcp.graphview.graph import Graph


def render_page(graph: Graph, title: str) -> str:
    package = resources.files("astmcp.graphview")
    template = package.joinpath("page.html").read_text(encoding="utf-8")
    library = package.joinpath("static", "cytoscape.min.js").read_text(encoding="utf-8")
    # "</" inside inline data would end the script element early.
    data = json.dumps(graph.to_json(), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    safe_title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (
        template.replace("__TITLE__", safe_title)
        .replace("__CYTOSCAPE__", library.replace("</script", "<\\/script"))
        .replace("__DATA__", data)
    )


class _PageHandler(BaseHTTPRequestHandler):
    def __init__(self, page: bytes, *args: object, **kwargs: object) -> None:
        self.page = page
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def do_GET(self) -> None:
        if self.path not in ("/", "/index.html"):
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(self.page)))
        self.send_header(
            "Content-Security-Policy",
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
        )
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, format: str, *args: object) -> None:
        pass


def make_server(page: str, port: int) -> ThreadingHTTPServer:
    """A server bound to loopback only; port 0 picks a free one."""
    handler = partial(_PageHandler, page.encode("utf-8"))
    return ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(page: str, port: int) -> None:
    server = make_server(page, port)
    print(
        f"serving the graph on http://127.0.0.1:{server.server_port}/ (Ctrl-C to stop)",
        file=sys.stderr,
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
