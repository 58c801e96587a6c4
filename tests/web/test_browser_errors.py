"""Every way into a table that cannot work ends on a page that says what happened and
what to do, in the page's language (Debian's Chromium): an unknown table, a wrong invite
or spectator code, a full table, no link at all, a forgotten seat, a seat taken meanwhile. And the
lobby's bots: four levels with their strength, the same words on every page, and a
default table that starts at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.pages import instant, launch_chromium, new_table, serve

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

TITLES = {
    "en": {"no_table": "There is no such table", "bad_invite": "This invite link does not work",
           "bad_code": "This spectator link does not work", "full": "Every seat is taken",
           "private": "This table is private", "no_link": "You need a link to this table",
           "bad_token": "Your seat at this table is gone"},
    "pt_BR": {"no_table": "Esta mesa não existe",
              "bad_invite": "Este link de convite não funciona",
              "bad_code": "Este link de espectador não funciona",
              "full": "Todos os lugares estão ocupados",
              "private": "Esta mesa é privada",
              "no_link": "Você precisa de um link para esta mesa",
              "bad_token": "Seu lugar nesta mesa não existe mais"},
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    with serve(tmp_path_factory.mktemp("errors") / "e2e.db") as found:
        yield found


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launch_chromium() as b:
        yield b


def problem(page: Any, url: str) -> dict[str, Any]:
    """Open ``url``; what its problem page shows (fails when it shows none)."""
    page.goto(url)
    page.wait_for_selector("#problem:not(.hidden)")
    out: dict[str, Any] = page.evaluate("""() => ({
        kind: document.getElementById('problem').dataset.kind,
        title: document.getElementById('problem-title').textContent,
        text: document.getElementById('problem-text').textContent,
        links: [...document.querySelectorAll('#problem-actions a')]
          .map(a => a.getAttribute('href')),
        shown: ['join', 'links', 'waiting', 'play'].filter(id =>
          !document.getElementById(id).classList.contains('hidden')),
        missing: [...window.meioMissing] })""")
    return out


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_each_dead_end_has_a_page_that_says_what_to_do(
        site: tuple[str, Any], chromium: Any, lang: str) -> None:
    base, _ = site
    listed = new_table(base, players=3, name="Ana", listed=True,
                       seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
    private = new_table(base, players=3, name="Ana", listed=False,
                        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
    full = new_table(base, players=2, name="Ana", seats=[{"kind": "human"}, {"kind": "bot"}])
    ctx = chromium.new_context(viewport={"width": 1100, "height": 900})
    instant(ctx, lang)
    page = ctx.new_page()
    seen = {}
    try:
        seen["no_table"] = problem(page, f"{base}/t/nosuchtable")
        seen["no_table, by a spectator link"] = problem(page, f"{base}/t/nosuchtable?watch=x")
        seen["no_table, by an invite link"] = problem(page, f"{base}/t/nosuchtable?invite=x")
        seen["bad_invite"] = problem(page, f"{base}/t/{listed['table_id']}?invite=wrong")
        seen["bad_invite, private"] = problem(page, f"{base}/t/{private['table_id']}?invite=no")
        seen["bad_code"] = problem(page, f"{base}/t/{listed['table_id']}?watch=wrong")
        seen["private"] = problem(page, f"{base}/t/{private['table_id']}")
        seen["no_link"] = problem(page, f"{base}/t/{listed['table_id']}")
        seen["full"] = problem(page, base + full["invite_url"])
        # a seat this browser held that the server does not know (a database reset)
        page.evaluate("""(id) => localStorage.setItem('meio:seats', JSON.stringify(
            {[id]: {token: 'forgotten', seat: 1, name: 'Ana'}}))""", listed["table_id"])
        seen["bad_token"] = problem(page, f"{base}/t/{listed['table_id']}")
        page.evaluate("() => localStorage.removeItem('meio:seats')")
        # the full table offers to watch the match: the link works
        watch = seen["full"]["links"][0]
        page.goto(base + watch)
        page.wait_for_selector('#play:not(.hidden)')
        watching = page.text_content("#conn")
    finally:
        ctx.close()
    for where, shown in seen.items():
        kind = where.split(",")[0]
        assert shown["kind"] == kind, where
        assert shown["title"] == TITLES[lang][kind], where
        assert shown["text"] and shown["missing"] == [], where
        assert shown["links"][-1] == "/", f"{where}: no way back to the lobby"
        # no name field, no seat list, no invite link shown under it
        assert shown["shown"] == [], f"{where}: {shown['shown']} still shown"
    assert seen["full"]["links"][0] == f"/t/{full['table_id']}?watch={full['spectate']}"
    assert watching == ("watching" if lang == "en" else "assistindo")


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_a_seat_taken_meanwhile_is_named_from_1_and_the_other_seats_offered(
        site: tuple[str, Any], chromium: Any, lang: str) -> None:
    base, _ = site
    table = new_table(base, players=3, name="Ana",
                      seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    ctx = chromium.new_context(viewport={"width": 1100, "height": 900})
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    instant(ctx, lang)
    page = ctx.new_page()
    try:
        page.goto(base + table["invite_url"])
        page.wait_for_selector("#join:not(.hidden)")
        # the invitee is told the links of the table, each with a copy button
        assert page.is_visible("#invite-copy") and page.is_visible("#watch-copy")
        assert page.text_content("#watch-link") == f"{base}{table['spectate_url']}"
        page.click("#invite-copy")
        page.wait_for_function("() => document.getElementById('invite-copy').textContent"
                               " !== document.getElementById('watch-copy').textContent")
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == f"{base}{table['invite_url']}"
        assert page.locator("#join-seat option").all_inner_texts() == (
            ["seat 2", "seat 3"] if lang == "en" else ["lugar 2", "lugar 3"])
        r = httpx.post(f"{base}/api/tables/{table['table_id']}/join",
                       json={"invite": table["invite"], "name": "Bo", "seat": 1})
        assert r.status_code == 200
        page.fill("#join-name", "Cy")
        page.select_option("#join-seat", "1")
        page.click("#join-go")
        page.wait_for_selector("#toast:not(.hidden)")
        toast = page.text_content("#toast")
        options = page.locator("#join-seat option").all_inner_texts()
    finally:
        ctx.close()
    assert toast == ("Seat 2 is not free any more: pick another." if lang == "en"
                     else "O lugar 2 não está mais livre: escolha outro.")
    assert options == (["seat 3"] if lang == "en" else ["lugar 3"])


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_lobby_offers_four_bot_levels_and_its_default_table_starts_at_once(
        site: tuple[str, Any], chromium: Any, lang: str) -> None:
    base, _ = site
    waiting = new_table(base, players=3, listed=True,
                        seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"},
                               {"kind": "bot", "bot": "search:4"}])
    ctx = chromium.new_context(viewport={"width": 1100, "height": 900})
    instant(ctx, lang)
    page = ctx.new_page()
    try:
        page.goto(base + "/")
        page.wait_for_selector("#c-seat-3")
        menu = page.locator("#c-seat-1 option").all_inner_texts()
        defaults = [page.input_value(f"#c-seat-{i}") for i in range(4)]
        levels = page.locator("#c-levels li").all_inner_texts()
        page.wait_for_function("(id) => document.getElementById('open').innerHTML.includes(id)",
                               arg=waiting["table_id"])
        listed = page.text_content("#open") or ""
        # "you" is the first seat kept for a person, wherever it is
        page.select_option("#c-seat-0", "bot:random")
        page.select_option("#c-seat-1", "human")
        you = [page.text_content(f"#c-seat-{i} option[value=human]") for i in (0, 1)]
        page.select_option("#c-seat-0", "human")
        page.select_option("#c-seat-1", "bot:heuristic")
        missing = page.evaluate("() => [...window.meioMissing]")
        page.fill("#c-name", "Ana")
        page.click("#c-go")
        # no seat waits for a second person: the deal is there at once
        page.wait_for_selector('#prompt[data-kind="split"]', timeout=20_000)
        names = [page.text_content(f'.seatbox[data-seat="{s}"] .name') for s in range(4)]
    finally:
        ctx.close()
    assert defaults == ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
    assert missing == []
    assert you == (["a person (invite them)", "you"] if lang == "en"
                   else ["uma pessoa (convide-a)", "você"])
    if lang == "en":
        assert menu == ["a person (invite them)", "beginner bot", "easy bot", "strong bot",
                        "expert bot"]
        assert levels[0] == "beginner bot: plays any allowed card at random"
        assert levels[1].startswith("easy bot: plays by rules of thumb; scores better than")
        assert "Bot 2 (easy), Bot 3 (expert)" in listed
        assert names[1] == "Bot 2 (easy)"
    else:
        assert menu == ["uma pessoa (convide-a)", "robô iniciante", "robô fácil",
                        "robô forte", "robô especialista"]
        assert levels[3].startswith("robô especialista: o mais forte")
        assert "Robô 2 (fácil), Robô 3 (especialista)" in listed
        assert names[1] == "Robô 2 (fácil)"
