"""Behind a real reverse proxy (Debian's Caddy on loopback, TLS from its own local
CA, a public-looking ``https://`` origin): WebSockets from the public page get in,
the Origin check still refuses foreign pages, and the rate limits count each
visitor's own address, not the proxy's. And the compose stack trusts exactly its
proxy."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest
import yaml
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.web.conftest import free_port
from tests.web.servers import Serve, caddy, caddy_or_skip, http, insecure

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

SITE = "play.example.org"
ROOT = Path(__file__).resolve().parents[2]


def test_behind_caddy_the_public_origin_gets_in_and_each_visitor_has_its_own_limit(
    tmp_path: Path,
) -> None:
    caddy_or_skip()
    # the server trusts the forwarded headers of its proxy only (loopback here)
    server = Serve(tmp_path, {"FORWARDED_ALLOW_IPS": "127.0.0.1", "MEIO_JOIN_RATE": "20"})
    port = free_port()
    public = f"https://{SITE}:{port}"
    host = {"Host": f"{SITE}:{port}"}
    try:
        with caddy(tmp_path, SITE, port, f"127.0.0.1:{server.port}"):
            # 25 visitors (25 loopback addresses), one table each: none is refused
            made = []
            for n in range(25):
                with http(f"127.0.0.{n + 2}", verify=False) as c:
                    r = c.post(f"https://127.0.0.1:{port}/api/tables", headers=host,
                               json={"players": 2, "name": f"V{n}"})
                    assert r.status_code == 201, (n, r.text)
                    made.append(r.json())
            # one visitor's limit is its own: the 21st table from one address is refused
            with http("127.0.0.30", verify=False) as c:
                codes = [c.post(f"https://127.0.0.1:{port}/api/tables", headers=host,
                                json={"players": 2}).status_code for _ in range(21)]
            assert codes == [201] * 20 + [429], codes
            # the page of the public origin opens its WebSocket through the proxy
            table = made[0]
            url = f"wss://{SITE}:{port}/ws/tables/{table['table_id']}"

            def open_ws(origin: str) -> str:
                sock = socket.create_connection(("127.0.0.1", port))
                with connect(url, sock=sock, ssl=insecure(), server_hostname=SITE,
                             origin=origin, open_timeout=20) as ws:  # type: ignore[arg-type]
                    ws.send(json.dumps({"type": "hello", "token": table["token"]}))
                    return str(json.loads(ws.recv(timeout=20))["type"])

            assert open_ws(public) == "welcome"
            with pytest.raises(InvalidStatus) as refused:
                open_ws("https://evil.example")
            assert refused.value.response.status_code == 403
    finally:
        server.stop()
    assert "Traceback" not in server.text()


def test_the_compose_stack_trusts_exactly_its_proxy() -> None:
    text = (ROOT / "compose.yaml").read_text()
    data = yaml.safe_load(re.sub(r"\$\{(\w+):-([^}]*)\}", r"\2", text))
    services = data["services"]
    proxy_ip = services["proxy"]["networks"]["meio"]["ipv4_address"]
    assert services["meio"]["environment"]["FORWARDED_ALLOW_IPS"] == proxy_ip
    subnet = data["networks"]["meio"]["ipam"]["config"][0]["subnet"]
    import ipaddress

    assert ipaddress.ip_address(proxy_ip) in ipaddress.ip_network(subnet)
    # Docker gives the containers started before the proxy addresses from this range:
    # the proxy's own must lie outside it, or the proxy cannot start
    dynamic = data["networks"]["meio"]["ipam"]["config"][0]["ip_range"]
    assert ipaddress.ip_network(dynamic).subnet_of(ipaddress.ip_network(subnet))
    assert ipaddress.ip_address(proxy_ip) not in ipaddress.ip_network(dynamic)
    # the replicas are reached through the proxy only
    assert "ports" not in services["meio"]
