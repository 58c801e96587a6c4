"""Players in real Chromium: a second device of an account opens its tables (the seat
follows the account), a guest plays now unrated, a player follows and invites a friend
by name, and the Watch page's live match shows no hidden card (every frame checked).
axe finds nothing serious on the new pages, in both languages."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meio.engine.wire import config_from_json
from tests.web.helpers import assert_no_leak
from tests.web.pages import (
    axe_problems,
    instant,
    launch_chromium,
    new_table,
    open_seat,
    page_report,
    serve,
    take_turn,
    watch_console,
)
from tests.web.test_browser_accounts import sign_in, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
SHOTS = Path(os.environ.get("MEIO_SHOT_DIR", "/tmp"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db: Path = tmp_path_factory.mktemp("players") / "players.db"
    # every page of the module comes from one address: its look-ups share no limit
    with serve(db, quick_min_wait_s=5.0, lookup_rate_per_min=6000.0, lookup_burst=1000) as found:
        yield found


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launch_chromium() as b:
        yield b


def seated(page: Any) -> str:
    """Wait until the table page holds a seat; what its connection line says (in
    English: ``seat N``)."""
    page.wait_for_function(
        "() => /^(seat|lugar) /.test(document.getElementById('conn')?.textContent || '')")
    return str(page.text_content("#conn"))


def test_a_second_device_of_the_account_opens_its_tables_and_sees_its_turn(
        site: tuple[str, Any], chromium: Any) -> None:
    base, app = site
    phone_ctx, desk_ctx = chromium.new_context(), chromium.new_context()
    for ctx in (phone_ctx, desk_ctx):
        instant(ctx)
    phone, desk = phone_ctx.new_page(), desk_ctx.new_page()
    console = {"phone": watch_console(phone), "desk": watch_console(desk)}
    try:
        sign_up(phone, base, "dora")
        phone.goto(base + "/")
        phone.fill("#c-name", "Dora")
        phone.select_option("#c-players", "2")
        phone.click("#more-options summary")
        phone.select_option("#c-turn-based", "86400")
        phone.click("#c-go")
        phone.wait_for_url("**/t/*")
        table_id = phone.url.split("/t/")[1].split("?")[0]
        assert seated(phone).startswith("seat 1")
        # the desktop never held the seat: it signs in and finds the table in the lobby
        sign_in(desk, base, "dora")
        desk.goto(base + "/")
        desk.wait_for_selector(f'#your-turn a[href="/t/{table_id}"]')
        assert "1" in (desk.text_content("#reminder") or "")
        desk.click(f'#mine a[href="/t/{table_id}"]')
        desk.wait_for_url(f"**/t/{table_id}")
        assert seated(desk).startswith("seat 1")
        # it plays the seat: the split made here is the one the server has
        desk.wait_for_selector('#prompt[data-kind="split"]')
        cards = desk.locator("#hand .card")
        for i in range(6):
            cards.nth(i).click()
        desk.click("#split-go")
        room = app.state.hub.tables[table_id]
        deadline = time.time() + 20
        # the table's query for seat 1's own view (its state is its own)
        while (view := room.table.view(0)) is None or not view.pack:
            assert time.time() < deadline, "the desktop's split never reached the server"
            time.sleep(0.05)
        # and the phone, which took the seat first, still holds it
        phone.reload()
        assert seated(phone).startswith("seat 1")
    except Exception:
        print(page_report("phone", phone, console["phone"]))
        print(page_report("desk", desk, console["desk"]))
        raise
    finally:
        phone_ctx.close()
        desk_ctx.close()


def test_a_guest_plays_now_unrated(site: tuple[str, Any], chromium: Any) -> None:
    base, app = site
    ctx = chromium.new_context()
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    try:
        page.goto(base + "/")
        page.wait_for_selector('#q-pool option[value="meio-2p"]', state="attached")
        # a guest cannot ask for a rated match: the box says why, and stays unticked
        assert page.is_disabled("#q-rated") and not page.is_checked("#q-rated")
        page.fill("#q-name", "Gil")
        page.select_option("#q-pool", "meio-2p")
        page.select_option("#q-wait", "15")
        page.click("#q-go")
        page.wait_for_url("**/t/*")
        table_id = page.url.split("/t/")[1].split("?")[0]
        assert seated(page).startswith("seat")
        info = app.state.hub.store.table(table_id)
        assert info.rated is False and info.options.quick == "meio-2p"
    except Exception:
        print(page_report("guest", page, console))
        raise
    finally:
        ctx.close()


def test_a_player_follows_a_friend_by_name_and_invites_them_to_a_table(
        site: tuple[str, Any], chromium: Any) -> None:
    base, _ = site
    ctx_a, ctx_b = chromium.new_context(), chromium.new_context()
    instant(ctx_a, "pt_BR")
    instant(ctx_b)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    console = {"a": watch_console(a), "b": watch_console(b)}
    try:
        sign_up(b, base, "bia")
        b.goto(base + "/")   # a page of the site open: Bia is online
        b.wait_for_selector("#reminder:not(:empty)")
        a.goto(base + "/account")
        # the page has set the browser's messages (an empty field's, in Portuguese)
        a.wait_for_function(
            "() => document.getElementById('s-user').validationMessage === 'Preencha este campo.'")
        a.fill("#s-user", "jo ana!")
        # the browser's own message, in the page's language, says what is wrong
        a.click("#s-go")
        message = a.evaluate("() => document.getElementById('s-user').validationMessage")
        assert "espaços" in message and "“!”" in message
        a.fill("#s-user", "joana")
        a.fill("#s-pass", "a long enough secret")
        a.click("#s-go")
        a.wait_for_selector("#member:not(.hidden)")
        a.goto(base + "/friends")
        a.wait_for_selector("#signed-in:not(.hidden)")
        a.fill("#f-name", "nobody")
        a.click("#f-go")
        a.wait_for_selector("#f-problem:not(.hidden)")
        assert "não existe" in (a.text_content("#f-problem") or "")
        a.fill("#f-name", "Bia")
        a.click("#f-go")
        a.wait_for_selector('#friends .row[data-user="bia"]')
        assert "online" in (a.text_content('#friends .row[data-user="bia"]') or "")
        # a table with a seat kept for a person: Joana invites Bia to it by name
        a.goto(base + "/")
        a.fill("#c-name", "Joana")
        a.select_option("#c-players", "2")
        a.select_option("#c-seat-1", "human")
        a.click("#c-go")
        a.wait_for_url("**/t/*")
        table_id = a.url.split("/t/")[1].split("?")[0]
        seated(a)
        a.goto(base + "/friends")
        row = a.wait_for_selector('#friends .row[data-user="bia"] button.invite')
        row.click()
        a.wait_for_function("() => document.getElementById('toast')?.textContent.includes('bia')")
        # Bia's lobby has the invitation, with the link to sit down
        b.goto(base + "/")
        b.wait_for_selector("#invitations a")
        assert "joana invites you" in (b.text_content("#invitations") or "")
        b.click("#invitations a")
        b.wait_for_url(f"**/t/{table_id}?invite=*")
        b.fill("#join-name", "Bia")
        b.click("#join-go")
        assert seated(b).startswith("seat 2")
        # answered: gone from the lobby
        b.goto(base + "/")
        b.wait_for_selector("#reminder:not(:empty)")
        assert b.locator("#invitations a").count() == 0
    except Exception:
        print(page_report("a", a, console["a"]))
        print(page_report("b", b, console["b"]))
        raise
    finally:
        ctx_a.close()
        ctx_b.close()


def test_the_watch_page_opens_a_live_match_that_shows_no_hidden_card(
        site: tuple[str, Any], chromium: Any) -> None:
    base, app = site
    # Ana and three bots at a listed table; Ana plays in her own browser meanwhile
    table = new_table(base, players=4, seed=17, listed=True, name="Ana",
                      seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3)
    ctx, player_ctx = chromium.new_context(), chromium.new_context()
    for c in (ctx, player_ctx):
        instant(c)
    page, ana = ctx.new_page(), player_ctx.new_page()
    got: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: got.append(json.loads(payload))))
    console = watch_console(page)
    try:
        open_seat(ana, base, table)
        seated(ana)
        page.goto(base + "/watch")
        link = page.wait_for_selector(f'#live a[href^="/t/{table["table_id"]}?watch="]')
        link.click()
        page.wait_for_url(f"**/t/{table['table_id']}?watch=*")
        page.wait_for_function("() => document.getElementById('conn').textContent === 'watching'")
        deadline = time.time() + 90
        while sum(1 for f in got if f["type"] == "event") < 30:
            assert time.time() < deadline, "the spectator saw too little of the match"
            if not take_turn(ana):
                time.sleep(0.05)
        # a spectator holds no hand, and its page offers no move
        assert page.locator("#hand .card").count() == 0
    except Exception:
        print(page_report("watcher", page, console))
        raise
    finally:
        ctx.close()
        player_ctx.close()
    store = app.state.hub.store
    match_id = store.table(table["table_id"]).current_match
    m = store.match(match_id)
    actions = [(e.seat, e.action) for e in store.events(match_id)]
    # every frame the spectator received named only cards a spectator could see then
    assert assert_no_leak(config_from_json(m.config), actions, None, got) >= 30


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_new_pages_have_no_serious_violation(site: tuple[str, Any], chromium: Any,
                                                  lang: str) -> None:
    base, _ = site
    ctx = chromium.new_context()
    instant(ctx, lang)
    page = ctx.new_page()
    problems: list[str] = []
    sign_up(page, base, f"axe{lang.lower().replace('_', '')}")
    for path, ready in (("/", "#your-turn-box:not(.hidden)"),
                        ("/friends", "#signed-in:not(.hidden)"), ("/watch", "#live:not(:empty)"),
                        ("/nosuchpage", "h2"), ("/history", "#list:not(:empty)")):
        page.goto(base + path)
        page.wait_for_selector(ready)
        if path == "/":
            page.click("#more-options summary")
        problems += axe_problems(page, f"{path} ({lang})")
    ctx.close()
    assert not problems, "\n".join(problems)


def test_a_newcomer_on_a_phone_meets_play_now_first_and_the_options_folded(
        site: tuple[str, Any], chromium: Any) -> None:
    """Issue 40 §3: the phone lobby was ~2,800 px tall, its second box a rule variant
    in TOML. It leads with Play now and Learn to play; the advanced options wait behind
    More options."""
    base, _ = site
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True)
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    try:
        page.goto(base + "/")
        page.wait_for_selector('#q-pool option[value="meio-2p"]', state="attached")
        shown = page.evaluate("""() => [...document.querySelectorAll('main > section')]
            .filter(s => s.offsetParent !== null)
            .map(s => s.id || s.querySelector('h2').textContent)""")
        assert shown[:3] == ["quick", "learn-cta", "Start a table"], shown
        # the variant, the specials, the timers: folded away until asked for
        assert not page.evaluate("() => document.getElementById('more-options').open")
        for box in ("#c-variant-box", "#c-turn-based", "#c-rated"):
            assert not page.is_visible(box), box
        height = page.evaluate("() => document.documentElement.scrollHeight")
        assert height < 2200, height
        page.screenshot(path=str(SHOTS / "web-lobby-phone.png"))
        page.click("#more-options summary")
        assert page.is_visible("#c-variant-box") and page.is_visible("#c-turn-based")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    except Exception:
        print(page_report("newcomer", page, console))
        raise
    finally:
        ctx.close()


def test_an_unknown_page_is_the_sites_own_in_the_visitors_language(
        site: tuple[str, Any], chromium: Any) -> None:
    """Issue 40 §3: /nosuchpage answered raw JSON in English; a browser set to
    Portuguese (and no language chosen on the site) reads the site's own page in it."""
    base, _ = site
    ctx = chromium.new_context(locale="pt-BR")
    instant(ctx, None)
    page = ctx.new_page()
    try:
        answer = page.goto(base + "/nosuchpage")
        assert answer is not None and answer.status == 404
        page.wait_for_function(
            "() => document.querySelector('h2').textContent === 'Esta página não existe'")
        assert page.get_attribute("a.button.primary", "href") == "/"
        assert "detail" not in (page.text_content("body") or "")
    finally:
        ctx.close()
