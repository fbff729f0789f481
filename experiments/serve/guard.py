"""Which pages may talk to the server: the `Host` and `Origin` of every request checked.

A browser lets any page it shows open a WebSocket to 127.0.0.1, and a DNS name of an
attacker's can be made to point there (DNS rebinding), so listening on loopback alone
does not keep other sites out. Every HTTP request and WebSocket must name this server
in `Host`: 127.0.0.1, localhost or [::1] with the port it listens on (by default), or
the host of an origin allowed explicitly (`sixnimmt serve --allow-origin`). A request
that carries an `Origin` (browsers send one with every WebSocket and cross-site request)
must come from such an address too. A refused HTTP request gets 403 and one line; a
refused WebSocket is never accepted: the handshake gets the 403 and the reason (uvicorn's
`websocket.http.response`; a browser shows the page only that the handshake failed, since
a page of the wrong address is not one this server wants to talk to).
A client that sends no `Origin` (a script, not a page) passes on `Host` alone.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from sixnimmt_env.core.errors import ConfigError

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
POLICY_VIOLATION = 1008  # the WebSocket close code for a refused connection


def origin_of(text: str) -> str:
    """An origin as given to --allow-origin, normalised: scheme://host[:port] (ConfigError otherwise)."""
    parts = urlsplit(text.strip().lower())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/") or parts.query:
        raise ConfigError(f"--allow-origin {text!r}: give an origin like http://192.168.1.5:8000")
    return f"{parts.scheme}://{parts.netloc}"


class HostGuard:
    """ASGI middleware: requests whose Host or Origin is not this server's are refused."""

    def __init__(self, app, origins=()):
        self.app = app
        self.origins = {origin_of(o) for o in origins}
        self.hosts = {urlsplit(o).netloc for o in self.origins}

    def _loopback(self, port) -> set[str]:
        names = {f"{name}:{port}" for name in LOOPBACK_NAMES}
        return names | (set(LOOPBACK_NAMES) if port == 80 else set())

    def refusal(self, scope) -> str | None:
        """Why the request is refused (None: it passes)."""
        headers: dict[str, list[str]] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.decode("latin-1").lower(), []).append(value.decode("latin-1").strip().lower())
        server = scope.get("server") or (None, None)
        local = self._loopback(server[1])
        hosts, origins = headers.get("host", []), headers.get("origin", [])
        if len(hosts) != 1 or hosts[0] not in local | self.hosts:
            return f"Host {', '.join(hosts)[:80]!r} is not this server's (see sixnimmt serve --allow-origin)"
        if len(origins) > 1 or (origins and origins[0] not in {f"http://{h}" for h in local} | self.origins):
            return f"Origin {', '.join(origins)[:80]!r} may not use this server (see sixnimmt serve --allow-origin)"
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        problem = self.refusal(scope)
        if problem is None:
            return await self.app(scope, receive, send)
        body = (f"forbidden: {problem}\n").encode()
        start = "http.response.start"
        if scope["type"] == "websocket":  # refused unaccepted; the 403 carries the reason where the server can say it
            if "websocket.http.response" not in scope.get("extensions", {}):
                await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": problem[:120]})
                return
            start = "websocket.http.response.start"
        await send({"type": start, "status": 403,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]})
        await send({"type": start.replace(".start", ".body"), "body": body})
