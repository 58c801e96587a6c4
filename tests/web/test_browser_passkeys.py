"""Passkeys in real Chromium, with the DevTools protocol's virtual authenticator: a
player adds a passkey on the account page, signs out, and signs in with it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.pages import instant, page_report, watch_console
from tests.web.test_browser_accounts import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_a_player_adds_a_passkey_signs_out_and_signs_in_with_it(
        server: tuple[str, Any], browser: Any) -> None:
    base, _ = server
    # a relying party id is a host name, never an address; localhost is a secure context
    base = base.replace("127.0.0.1", "localhost")
    ctx = browser.new_context()
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    cdp = ctx.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})
    authenticator = found["authenticatorId"]
    sign_up(page, base, "pia")
    page.wait_for_selector("#pk-list li.muted")
    page.click("#pk-add")
    page.wait_for_selector("#pk-list li .pk-remove")
    report = page_report("passkey added", page, console)
    assert page.locator("#pk-list li").count() == 1, report
    creds = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(creds["credentials"]) == 1 and creds["credentials"][0]["isResidentCredential"]
    page.click("#a-logout")
    page.wait_for_selector("#guest:not(.hidden)")
    page.reload()
    page.wait_for_selector("#guest:not(.hidden)")
    page.click("#l-passkey")      # no username typed
    page.wait_for_selector("#member:not(.hidden)")
    assert page.text_content("#a-who") == "Signed in as pia", page_report("signed in", page,
                                                                          console)
    page.wait_for_selector("#pk-list li .pk-remove")
    assert "last used" in (page.text_content("#pk-list") or "")
    creds = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert creds["credentials"][0]["signCount"] >= 1
    # the passkey removed, it signs in no more
    page.click("#pk-list .pk-remove")
    page.wait_for_selector("#pk-list li.muted")
    page.click("#a-logout")
    page.wait_for_selector("#guest:not(.hidden)")
    page.click("#l-passkey")
    page.locator("#toast", has_text="This passkey was not accepted here.").wait_for()
    assert page.is_visible("#guest") and not page.is_visible("#member")
    ctx.close()
