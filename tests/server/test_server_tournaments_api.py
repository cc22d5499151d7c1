"""The tournaments' HTTP API on a real server: who may do what, the answers' shapes,
every refusal a 4xx with a code and a message id, and the exports."""

from __future__ import annotations

import csv
import io

import httpx
from server_helpers import ServerThread

from cardtable.messages import CATALOG

HEADERS = {"X-Cardtable-Client": "1"}


def session(base: str, name: str) -> httpx.Client:
    answer = httpx.post(
        f"{base}/api/account/register",
        json={"name": name, "password": "a long password", "bearer": True},
        headers=HEADERS,
    )
    assert answer.status_code == 201, answer.text
    token = answer.json()["token"]
    return httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    detail = answer.json()["detail"]
    assert detail["code"] == code
    assert detail["message_id"] in CATALOG


def test_the_api(real_server: ServerThread) -> None:
    base = real_server.base
    guest = httpx.Client(base_url=base, timeout=30)
    org = session(base, "Organiser1")
    ann = session(base, "Ann1")
    body = {"name": "Friday", "game": "candidate", "format": "swiss", "rounds": 2}
    assert guest.post("/api/tournaments", json=body).status_code == 401
    refused(org.post("/api/tournaments", json={**body, "game": "spy"}), 422, "format_game")
    arena = {**body, "format": "arena", "minutes": 30}
    refused(org.post("/api/tournaments", json={**arena, "minutes": 0}), 422, "arena_minutes")
    assert org.post("/api/tournaments", json={**arena, "minutes": 24 * 60 + 1}).status_code == 422
    refused(org.post("/api/tournaments", json={**arena, "duplicate": True}), 422, "arena_duplicate")
    refused(
        org.post("/api/tournaments", json={**arena, "options": {"deals": 0}}), 422, "bad_options"
    )
    refused(
        org.post("/api/tournaments", json={**arena, "game": "spy", "options": {"bogus": 1}}),
        422,
        "bad_options",
    )
    assert org.post("/api/tournaments", json={**body, "format": "knockout"}).status_code == 422
    for game, extra in (("candidate", {"bots_allowed": True}), ("spy", {"table_size": 3})):
        made = org.post(
            "/api/tournaments", json={**arena, "game": game, "start_in": 60, "rated": True, **extra}
        )
        assert made.status_code == 201, made.text
        page = guest.get(f"/api/tournaments/{made.json()['id']}").json()
        assert (page["format"], page["game"], page["minutes"]) == ("arena", game, 30)
        assert page["spec"]["table_size"] == (2 if game == "candidate" else 3)
        assert page["ends_at"] > page["starts_at"]
        assert page["rated"]
    refused(
        org.post("/api/tournaments", json={**body, "options": {"deals": 0}}), 422, "bad_options"
    )
    refused(org.post("/api/tournaments", json={**body, "starts_at": "soon"}), 422, "bad_time")
    assert org.post("/api/tournaments", json={**body, "rounds": 0}).status_code == 422
    refused(guest.get("/api/tournaments/nosuchthing"), 404, "no_tournament")

    created = org.post("/api/tournaments", json={**body, "access": "invite", "start_in": 900})
    assert created.status_code == 201, created.text
    tid, code = created.json()["id"], created.json()["invite_code"]
    assert created.json()["url"] == f"/tournament/{tid}"
    refused(ann.post(f"/api/tournaments/{tid}/register", json={"code": "x"}), 403, "bad_code")
    page = ann.post(f"/api/tournaments/{tid}/register", json={"code": code}).json()
    assert page["you"]["registered"]
    assert page["you"]["invite_code"] is None  # the organiser's only
    assert org.get(f"/api/tournaments/{tid}").json()["you"]["invite_code"] == code
    refused(ann.post(f"/api/tournaments/{tid}/start"), 403, "not_organiser")
    # Check-in opens 600 s before a start 900 s away.
    refused(ann.post(f"/api/tournaments/{tid}/checkin"), 409, "checkin_closed")

    listed = guest.get("/api/tournaments", params={"status": "upcoming"}).json()["tournaments"]
    mine = next(t for t in listed if t["id"] == tid)
    assert mine["access"] == "invite"
    assert mine["players"] == 1
    assert mine["round"] == 0
    assert guest.get("/api/tournaments", params={"status": "nope"}).status_code == 422
    seen = guest.get(f"/api/tournaments/{tid}").json()
    assert seen["you"] is None
    assert [p["name"] for p in seen["players"]] == ["Ann1"]
    assert ann.get("/api/tournaments/me").json() == {"next": None}

    ann.post(f"/api/tournaments/{tid}/withdraw").raise_for_status()
    refused(ann.post(f"/api/tournaments/{tid}/withdraw"), 409, "not_registered")
    org.post(f"/api/tournaments/{tid}/end").raise_for_status()
    refused(org.post(f"/api/tournaments/{tid}/pause"), 409, "finished")
    exported = guest.get(f"/api/tournaments/{tid}/export.json").json()
    assert exported["tournament"]["status"] == "finished"
    text = guest.get(f"/api/tournaments/{tid}/export.csv").text
    assert next(csv.reader(io.StringIO(text)))[:4] == ["rank", "player", "bot", "points"]
