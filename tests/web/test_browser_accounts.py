"""Accounts in real Chromium: two people sign up, play, and find their match in the
history of another browser where they sign in; a guest signs up in the middle of a
match and keeps the seat."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.web.pages import instant, page_report, take_turn, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "a long enough secret"


def sign_up(page: Any, base: str, username: str) -> None:
    page.goto(base + "/account")
    page.fill("#s-user", username)
    page.fill("#s-pass", PASSWORD)
    page.click("#s-go")
    # a hang guard only (signing up hashes the password, slow on a loaded machine; in
    # the whole run it once passed 30 s where alone it takes under a second)
    page.wait_for_selector("#member:not(.hidden)", timeout=120_000)
    assert page.text_content("#nav-account") == username


def sign_in(page: Any, base: str, username: str) -> None:
    page.goto(base + "/account")
    page.fill("#l-user", username)
    page.fill("#l-pass", PASSWORD)
    page.click("#l-go")
    page.wait_for_selector("#member:not(.hidden)")
    assert page.text_content("#a-who") == f"Signed in as {username}"


def wait_finished(app: Any, table_id: str, timeout: float = 150.0) -> str:
    store = app.state.hub.store
    end = time.time() + timeout
    while time.time() < end:
        info = store.table(table_id)
        if info.current_match is not None:
            m = store.match(info.current_match)
            if m is not None and m.finished_at is not None:
                return str(m.id)
        time.sleep(0.2)
    raise AssertionError("the match did not end in time")


def test_two_accounts_play_and_see_their_history_in_another_browser(
        server: tuple[str, Any], browser: Any) -> None:
    base, app = server
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    for ctx in (ctx_a, ctx_b):
        instant(ctx)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    console = {"a": watch_console(a), "b": watch_console(b)}
    sign_up(a, base, "ana")
    sign_up(b, base, "bia")
    # Ana starts an unlisted table for two with a short turn timer (the timer plays
    # every move, so the match ends without clicks), through the page's own client
    table = a.evaluate("""async () => {
        const { api, saveSeat } = await import('/static/js/api.js');
        const t = await api('/api/tables', { method: 'POST', body: { players: 2, name: 'Ana',
            listed: false, turn_timer_s: 0.1, seats: [{ kind: 'human' }, { kind: 'human' }] } });
        saveSeat(t.table_id, { token: t.token, seat: t.seat, name: 'Ana', invite: t.invite,
                               spectate: t.spectate });
        return t; }""")
    a.goto(f"{base}/t/{table['table_id']}")
    # Bia opens the invite link in her browser and sits down
    b.goto(base + table["invite_url"])
    b.fill("#join-name", "Bia")
    b.click("#join-go")
    try:
        b.wait_for_function("() => document.getElementById('conn').textContent"
                            ".startsWith('seat')")
        match_id = wait_finished(app, table["table_id"])
    except Exception as exc:
        report = "\n".join(page_report(n, p, console[n]) for n, p in (("a", a), ("b", b)))
        raise AssertionError(f"{exc}\n{report}") from exc
    seats = app.state.hub.store.table(table["table_id"]).seats
    assert [s.name for s in seats] == ["Ana", "Bia"]
    # each signs in on a second browser, which holds no seat token, and finds the match
    for username in ("ana", "bia"):
        ctx = browser.new_context()
        instant(ctx)
        page = ctx.new_page()
        sign_in(page, base, username)
        page.goto(base + "/history")
        row = page.wait_for_selector(f'button[data-match="{match_id}"]')
        line = row.evaluate("b => b.parentElement.textContent")
        assert "Ana" in line and "Bia" in line
        page.goto(base + "/")
        page.wait_for_selector(f'#mine a[href="/t/{table["table_id"]}"]')
        ctx.close()
    # a guest's browser does not see the unlisted table's match
    guest = browser.new_context().new_page()
    guest.goto(base + "/history")
    guest.wait_for_function("() => document.getElementById('list').textContent.length > 0")
    assert guest.locator(f'button[data-match="{match_id}"]').count() == 0
    for ctx in (ctx_a, ctx_b):
        ctx.close()


def test_a_guest_signs_up_in_the_middle_of_a_match_and_keeps_the_seat(
        server: tuple[str, Any], browser: Any) -> None:
    base, app = server
    ctx = browser.new_context()
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    # a guest starts the lobby's default table: a seat for them, easy bots in the others
    page.goto(base + "/")
    page.fill("#c-name", "Rui")
    page.click("#c-go")
    page.wait_for_url("**/t/*")
    table_id = page.url.split("/t/")[1].split("?")[0]

    def play(moves: int) -> None:
        made, deadline = 0, time.time() + 60
        while made < moves:
            assert time.time() < deadline, "the guest could not play in time"
            if take_turn(page):
                made += 1
            else:
                time.sleep(0.05)

    try:
        page.wait_for_selector("#hand .card")
        play(4)  # the split and three cards
        # in another tab of the same browser, the guest makes an account
        tab = ctx.new_page()
        sign_up(tab, base, "rui")
        tab.close()
        seq = int(page.get_attribute("#play", "data-seq") or 0)
        play(2)  # the table's page plays on with the same seat token
        page.reload()
        page.wait_for_function(
            "(seq) => document.getElementById('conn').textContent.startsWith('seat') &&"
            " Number(document.getElementById('play').dataset.seq) > seq", arg=seq)
        play(1)
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('guest', page, console)}") from exc
    seat = app.state.hub.store.table(table_id).seats[0]
    assert seat.name == "Rui"
    # another browser where Rui signs in lists the table in play as his
    other = browser.new_context()
    instant(other)
    there = other.new_page()
    sign_in(there, base, "rui")
    there.goto(base + "/")
    row = there.wait_for_selector(f'#mine a[href="/t/{table_id}"]')
    line = row.evaluate("a => a.parentElement.textContent")
    assert "seat 1 as Rui" in line and "playing" in line
    other.close()
    ctx.close()


def test_changing_the_password_on_the_account_page_signs_the_other_browser_out(
        server: tuple[str, Any], browser: Any) -> None:
    """Issue 44: the account page had no way to change a password. The refusals say
    the server's reasons in the page's language: a weak password, a sign-in delay."""
    base, _ = server
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    instant(ctx_a, "pt_BR")
    instant(ctx_b)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    console = {"a": watch_console(a), "b": watch_console(b)}
    sign_up(a, base, "teo")
    sign_in(b, base, "teo")
    try:
        a.fill("#c-pass", PASSWORD)
        a.fill("#c-new", "12345678")
        a.click("#c-go")
        a.wait_for_function("() => document.getElementById('toast')?.textContent"
                            ".startsWith('Esta senha é fácil demais de adivinhar')")
        a.fill("#c-new", "teo changed it on a rainy day")
        a.click("#c-go")
        a.wait_for_function("() => document.getElementById('toast')?.textContent === "
                            "'A senha foi trocada. Sessões desconectadas em outros lugares: 1.'")
        # quick play's bound and a look-alike name, as the lobby and this page say them
        said = a.evaluate("""async () => {
            const { refusalText } = await import('/static/js/api.js');
            return [refusalText({ status: 429, code: 'too_many_quick_seats',
                                  params: { seats: 2 } }),
                    refusalText({ status: 422, code: 'username_confusable', params: {} })];
        }""")
        assert said == ["Você já tem 2 lugares de jogo rápido esperando ou em jogo: termine "
                        "ou deixe um deles antes.",
                        "Este nome de usuário se parece com um que já está em uso (as mesmas "
                        "letras de outro alfabeto, ou letras de mesmo desenho): escolha outro."]
        assert a.evaluate("() => [...window.meioMissing]") == []
        a.reload()
        a.wait_for_selector("#member:not(.hidden)")  # this browser stays signed in
        b.reload()
        b.wait_for_selector("#guest:not(.hidden)")  # the other one is signed out
        assert b.text_content("#nav-account") == "Account"
        # the old password, again and again: after the free failures, a delay in seconds
        b.fill("#l-user", "teo")
        b.fill("#l-pass", PASSWORD)
        for _ in range(6):
            b.click("#l-go")
            b.wait_for_selector("#toast:not(.hidden)")
            if "try again in" in (b.text_content("#toast") or ""):
                break
            b.evaluate("() => document.getElementById('toast').classList.add('hidden')")
        assert re.fullmatch(r"Too many wrong passwords from your address: try again in \d+ s\.",
                            b.text_content("#toast") or "")
    except Exception as exc:
        report = "\n".join(page_report(n, p, console[n]) for n, p in (("a", a), ("b", b)))
        raise AssertionError(f"{exc}\n{report}") from exc
    finally:
        ctx_a.close()
        ctx_b.close()


def test_three_accounts_and_a_bot_play_a_rated_table_and_see_openskills_ratings(
        server: tuple[str, Any], browser: Any) -> None:
    from openskill.models import PlackettLuce

    base, app = server
    names = ["Ana", "Bia", "Caio"]
    contexts = [browser.new_context() for _ in names]
    pages = []
    for ctx, name in zip(contexts, names, strict=True):
        instant(ctx)
        page = ctx.new_page()
        sign_up(page, base, name.lower())
        pages.append(page)
    a = pages[0]
    # Ana's table: rated, 4 players, the last seat an easy bot, a short turn timer (it
    # plays every move, so the match ends without clicks)
    table = a.evaluate("""async () => {
        const { api, saveSeat } = await import('/static/js/api.js');
        const t = await api('/api/tables', { method: 'POST', body: { players: 4, name: 'Ana',
            rated: true, listed: false, turn_timer_s: 0.1, seats: [{ kind: 'human' },
            { kind: 'human' }, { kind: 'human' }, { kind: 'bot', bot: 'heuristic' }] } });
        saveSeat(t.table_id, { token: t.token, seat: t.seat, name: 'Ana', invite: t.invite,
                               spectate: t.spectate });
        return t; }""")
    a.goto(f"{base}/t/{table['table_id']}")
    for page, name in zip(pages[1:], names[1:], strict=True):
        page.goto(base + table["invite_url"])
        page.wait_for_selector("#join-agree-row:not(.hidden)")
        page.fill("#join-name", name)
        page.click("#join-go")   # not agreed yet: the browser asks for the tick
        assert page.is_visible("#join")
        page.check("#join-agree")
        page.click("#join-go")
        page.wait_for_function("() => document.getElementById('conn').textContent"
                               ".startsWith('seat')")
    match_id = wait_finished(app, table["table_id"], timeout=240)
    result = app.state.hub.store.match(match_id).result
    totals = result["totals"]
    # openskill's update, computed here: four new ratings, places by the totals
    model = PlackettLuce()
    ranks = [1 + sum(other < mine for other in totals) for mine in totals]
    after = model.rate([[model.rating()] for _ in totals], ranks=[float(r) for r in ranks])
    shown = [f"{t[0].mu - 3 * t[0].sigma:.1f}?" for t in after]
    for page in pages:
        page.wait_for_selector("#ratings[data-ready]", timeout=30000)
        text = page.text_content("#ratings") or ""
        # a seat at a rated table is named by its account (issue 44)
        for seat, name in enumerate([*(n.lower() for n in names), "Bot 4 (easy)"]):
            # a new rating's ordinal is 25 - 3 * 25/3 = 0: the change is the new one
            change = after[seat][0].mu - 3 * after[seat][0].sigma
            sign = "+" if change >= 0 else "−"
            assert f"{name} {shown[seat]} ({sign}{abs(change):.1f})" in text, (text, shown)
    # the leaderboard and a profile show the same ratings
    a.goto(base + "/ratings?pool=meio-4p")
    a.wait_for_selector("#board tbody tr")
    rows = a.eval_on_selector_all("#board tbody tr", "rs => rs.map(r => r.textContent)")
    assert len(rows) == 3
    a.goto(base + "/players/bia")
    a.wait_for_selector('#p-ratings tr[data-pool="meio-4p"]')
    assert shown[1] in (a.text_content("#p-ratings") or "")
    assert a.locator("#p-history tbody tr").count() == 1
    assert a.text_content("#p-games") == "1"
    assert a.locator(f'#p-matches [data-match="{match_id}"] a[href="/history#{match_id}"]'
                     ).count() == 1
    assert a.is_hidden("#p-tables-box")   # Bia's tables are hers to see
    a.goto(base + "/players/ana")
    a.wait_for_selector("#p-tables-box:not(.hidden)")
    for ctx in contexts:
        ctx.close()


def test_three_players_quick_play_a_rated_table_a_bot_fills_and_ratings_match_openskill(
        server: tuple[str, Any], browser: Any) -> None:
    from openskill.models import PlackettLuce

    base, app = server
    names = ["Dani", "Eva", "Fred"]
    contexts = [browser.new_context() for _ in names]
    pages = []
    for ctx, name in zip(contexts, names, strict=True):
        instant(ctx)
        page = ctx.new_page()
        console = watch_console(page)
        sign_up(page, base, name.lower())
        pages.append(page)
    # each presses Play now for MEIO 4 players; the first waits 15 s for people, the
    # others longer: they all sit at the first one's table
    for page, name, wait in zip(pages, names, ("15", "30", "60"), strict=True):
        page.goto(base + "/")
        page.wait_for_selector('#q-pool option[value="meio-4p"]', state="attached")
        page.fill("#q-name", name)
        page.select_option("#q-pool", "meio-4p")
        page.select_option("#q-wait", wait)
        page.click("#q-go")
        page.wait_for_url("**/t/*")
    table_ids = {p.url.split("/t/")[1].split("?")[0] for p in pages}
    assert len(table_ids) == 1
    table_id = table_ids.pop()
    try:
        pages[0].wait_for_selector("#fill-at")
        match_id = wait_finished(app, table_id, timeout=240)
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('dani', pages[0], console)}") from exc
    seats = app.state.hub.store.table(table_id).seats
    assert [s.name for s in seats[:3]] == [n.lower() for n in names] and seats[3].kind == "bot"
    assert seats[3].bot == "heuristic"
    totals = app.state.hub.store.match(match_id).result["totals"]
    model = PlackettLuce()
    ranks = [1 + sum(other < mine for other in totals) for mine in totals]
    after = model.rate([[model.rating()] for _ in totals], ranks=[float(r) for r in ranks])
    for page in pages:
        page.wait_for_selector("#ratings[data-ready]", timeout=30000)
        text = page.text_content("#ratings") or ""
        # a seat at a rated table is named by its account (issue 44)
        for seat, name in enumerate([*(n.lower() for n in names), "Bot 4 (easy)"]):
            ordinal = after[seat][0].mu - 3 * after[seat][0].sigma
            sign = "+" if ordinal >= 0 else "−"
            assert f"{name} {ordinal:.1f}? ({sign}{abs(ordinal):.1f})" in text, text
    for ctx in contexts:
        ctx.close()
