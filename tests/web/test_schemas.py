"""The HTTP API's answers are typed models: ``/openapi.json`` documents each one, and
no JSON route answers an untyped dict."""

from __future__ import annotations

import inspect
import typing
from typing import Any

from fastapi.responses import Response
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel

from meio.web import create_app
from meio.web.schemas import PublicTable
from meio.web.settings import Settings


def _returns_a_response(route: APIRoute) -> bool:
    hint = typing.get_type_hints(route.endpoint).get("return")
    return inspect.isclass(hint) and issubclass(hint, Response)


def _routes(routes: list[Any]) -> list[APIRoute]:
    """Every route, those of the included routers too."""
    out: list[APIRoute] = []
    for r in routes:
        if isinstance(r, APIRoute):
            out.append(r)
        elif hasattr(r, "original_router"):  # FastAPI's included router
            out += _routes(r.original_router.routes)
    return out


def test_no_json_route_answers_an_untyped_dict() -> None:
    app = create_app(Settings(database_url="sqlite://"))
    routes = _routes(app.routes)
    assert len(routes) > 40
    untyped = [r.path for r in routes
               if not (inspect.isclass(r.response_model) and issubclass(r.response_model,
                                                                        BaseModel))
               and not (_returns_a_response(r) and not r.include_in_schema)]
    # a route that answers a Response itself (a page, the metrics) is not in the schema;
    # one that is (a record's download, readiness) declares the model it answers
    assert untyped == []
    assert len([r for r in routes if _returns_a_response(r)]) >= 10  # the pages, /metrics


def test_the_openapi_schema_documents_the_answers(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for name in ("PublicTable", "Lobby", "CreatedTable", "Me", "Profile", "Puzzle"):
        assert name in schemas, name
    ok = spec["paths"]["/api/lobby"]["get"]["responses"]["200"]["content"]["application/json"]
    assert ok["schema"] == {"$ref": "#/components/schemas/Lobby"}
    assert set(PublicTable.model_fields) <= set(schemas["PublicTable"]["properties"])
    created = spec["paths"]["/api/tables"]["post"]["responses"]["201"]
    assert created["content"]["application/json"]["schema"]["$ref"].endswith("CreatedTable")


def test_an_answer_leaves_out_what_it_did_not_set(client: TestClient) -> None:
    """A table's facts carry the spectator code for an invite's holder only (the field
    is absent, not null, for the rest), as the dict the route once built."""
    made = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
    url = f"/api/tables/{made['table_id']}"
    by_invite = client.get(url, params={"key": made["invite"]}).json()
    by_link = client.get(url, params={"key": made["spectate"]}).json()
    assert by_invite["key"] == "invite" and by_invite["spectate"] == made["spectate"]
    assert by_link["key"] == "spectate" and "spectate" not in by_link
    assert client.get("/api/account").json() == {"account": None}
