"""``meio play --variant FILE``: a rule variant at the terminal table (docs/variants.md).

Whole matches of three variants are played by keys through Textual's pilot: the split
takes exactly the variant's pack, the screen counts the variant's tricks and packs, and
every score the summary shows is the engine's.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meio.cli import app as cli
from meio.engine import Phase
from meio.engine.record import Record
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import load_variant, parse_variant
from meio.tui.app import PlayApp
from meio.tui.panels import status_text, table_rules_text
from meio.tui.replay import Replay, ReplayApp
from meio.tui.screens import HelpScreen, SummaryScreen, help_text
from meio.tui.session import PlaySettings, Session, SessionError
from meio.tui.start import StartScreen
from meio.tui.widgets import Choice
from tests.tui.pilot import advance_to, ready_table, screen_text, take_turn, wait_for

SIZE = (80, 24)
SIX_SEVEN = Path(__file__).parents[2] / "examples" / "variants" / "six-seven.toml"

#: 12 cards in two halves of 6, no trump, squared scores, 2 rounds; an invented special
TWELVE = """
name = "twelve"
preset = "meio"
trump = "none"
partnership = false

[hand]
size = 12
first_half = 6
pack = 6

[deck]
2 = false
4 = false
5 = false

[deck.3]
specials = 2

[scoring]
form = "squared"

[match.default]
form = "totals"
rounds = 2

[[special]]
code = "-2H"
name = "the gambler"
value = [20, "above"]
suit = "S"
follows = false
pile = "winner_chooses"

[[special]]
preset = "Q+"
"""

#: 8 cards in the first half and a pack of 5, no trump, one round victory wins
EIGHT_FIVE = """
name = "eight-five"
preset = "meio"
trump = "none"

[hand]
first_half = 8
pack = 5

[match.2]
form = "victories"
to_win = 1
"""


def settings(variant: Variant, players: int, seed: int = 1, **kw: object) -> PlaySettings:
    base: dict[str, object] = {"seed": seed, "speed": "instant", "bots": ("random",)}
    base.update(kw)
    return PlaySettings(players=players, variant=variant, **base).checked()  # type: ignore[arg-type]


VARIANTS = [
    pytest.param(lambda: load_variant(SIX_SEVEN), 3, id="six-seven"),
    pytest.param(lambda: parse_variant(TWELVE, "twelve.toml"), 3, id="twelve-no-trump"),
    pytest.param(lambda: parse_variant(EIGHT_FIVE, "eight-five.toml"), 2, id="eight-five"),
]


@pytest.mark.parametrize(("make", "players"), VARIANTS)
def test_a_whole_variant_match_by_keys(make: object, players: int) -> None:
    """The split accepts exactly the variant's pack; the table counts its tricks and
    packs; each round's summary shows the engine's scores; the match ends by its format."""
    assert callable(make)
    variant: Variant = make()
    first, pack, hand = variant.first_half, variant.pack, variant.hand

    async def run() -> None:
        app = PlayApp(settings(variant, players), setup=False)
        async with app.run_test(size=SIZE) as pilot:
            table = await ready_table(pilot, app)
            session = table.session
            text = screen_text(app)
            assert f"Variant {variant.name}" in text
            assert f"First half — {hand}/{first}:" in text
            assert f"Pick {pack} cards for the second half (0/{pack})" in text
            # one card short of the pack is refused, one card over it too
            await pilot.press("home", *(["space", "right"] * (pack - 1)), "c")
            assert f"A pack is exactly {pack} cards: you picked {pack - 1}." in screen_text(app)
            assert session.view().phase is Phase.SPLIT
            await pilot.press("space")
            assert f"Second-half pack — {pack}/{pack}:" in screen_text(app)
            await pilot.press("right", "space")
            assert f"You already picked {pack} cards: unpick one first." in screen_text(app)
            await pilot.press("c")
            await wait_for(pilot, lambda: not session.view().split_done.count(False))
            await wait_for(pilot, lambda: not table.driving or session.is_over)
            text = screen_text(app)
            assert f"/{hand}" in text and f"Your pack for tricks {first + 1}–{hand}:" in text
            view = session.view()
            if view.phase is Phase.PLAY and view.half == 1:
                assert f"{first - len(view.tricks)} left in this half" in text
            if variant.trump < 0:
                assert "no trump" in text
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            help_text = screen_text(app)
            assert f"{hand} cards: {first} for the first half, a pack of {pack}" in help_text
            if variant.trump < 0:
                assert "No trump: only the led suit wins a trick." in help_text
            await pilot.press("escape")
            seen: set[str] = set()
            summaries = 0
            for _ in range(20000):
                if session.is_over and "summary-final" in seen:
                    break
                screen = app.screen
                if isinstance(screen, SummaryScreen) and summaries < len(session.state.rounds):
                    summaries += 1
                    result = session.state.rounds[summaries - 1]
                    body = screen_text(app)
                    for s, name in enumerate(session.names):
                        h, v = result.piles[s]
                        assert f"{name:<12}{h:>3}{v:>3}{result.scores[s]:>8}" in body
                        if variant.scoring == "squared":
                            assert result.scores[s] == (h - v) ** 2
                await take_turn(pilot, session, seen)
            assert session.is_over and "summary-final" in seen
            assert summaries == len(session.state.rounds)
            fmt = variant.format_for(players, False)
            if fmt.form == "totals":
                assert len(session.state.rounds) >= fmt.rounds
            else:
                assert max(session.state.victories or ()) >= fmt.to_win or \
                    len(session.state.rounds) == 5 * fmt.to_win
            assert "Match over —" in screen_text(app)

    asyncio.run(run())


def test_the_start_screen_offers_the_variant_s_table_sizes_and_bots() -> None:
    variant = parse_variant(TWELVE, "twelve.toml")

    async def run() -> None:
        app = PlayApp(settings(variant, 3), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
            text = screen_text(app)
            assert "Variant twelve" in text and "Edition" not in text
            assert app.screen.query_one("#players", Choice).options == ["3"]
            for i in (1, 2):
                offered = set(app.screen.query_one(f"#bot-{i}", Choice).options)
                # every level, the network for any ruleset and the search standing on
                # it; not the kinds that read the editions' cards
                assert {"random", "heuristic", "search", "expert", "learned",
                        "search:5"} <= offered
                assert "ppo" not in offered
            await pilot.press("enter")
            table = await ready_table(pilot, app)
            assert table.session.state.config.variant == variant

    asyncio.run(run())


def test_the_help_describes_the_variant_and_an_invented_special_by_its_attributes() -> None:
    variant = parse_variant(TWELVE, "twelve.toml")
    view = Session.new(settings(variant, 3)).view()
    text = help_text(False, table_rules_text(view, False), view.config)
    assert "-2H (the gambler): worth 20 in the first half, ½ more than the card before it in " \
        "the second; a card of spades that may be played on any trick; the winner of a " \
        "trick it wins chooses the pile." in text
    assert "Q+: worth 12½; wild: it follows any suit" in text
    assert "(H - V)²" in text and "2 rounds; the lowest total wins" in text
    assert "put a -2H trick in the H or V pile" in text
    assert "the advisor's hint" not in text  # the advisor plays the editions only
    assert "confirm the split (6 cards picked)" in text
    standard = Session.new(PlaySettings(players=3, seed=1, bots=("random",)).checked()).view()
    plain = help_text(False, table_rules_text(standard, False), standard.config)
    assert "Variant" not in plain and "|H - V|; the lowest total wins" in plain
    assert "3 rounds; the lowest total wins (a tie is shared)." in plain


def test_a_variant_game_is_saved_and_resumed_as_the_same_game(tmp_path: Path) -> None:
    variant = load_variant(SIX_SEVEN)
    session = Session.new(settings(variant, 3, seed=4))
    rng = random.Random(4)
    assert advance_to(session, lambda s: s.view().trick_number >= 9, rng)
    path = tmp_path / "six.json"
    session.save(path)
    assert Record.from_json(path.read_text()).variant == variant
    resumed = Session.load(path)
    assert resumed.settings.variant == variant
    assert resumed.state.config == session.state.config
    # the same game: the same record (the splits' order aside, which no record keeps)
    assert Record.from_state(resumed.state).to_text() == Record.from_state(session.state).to_text()
    assert resumed.view() == session.view()
    # and it plays on as the same game: the same moves give the same match
    moves = random.Random(5)
    for match in (session, resumed):
        match.bots = [None] * 3
    while not session.is_over:
        for s in session.state.seats_to_act()[:1]:
            legal = session.state.view(s).legal_actions()
            action = legal[moves.randrange(len(legal))]
            session.play(action, s)
            resumed.play(action, s)
    assert resumed.is_over and resumed.state.rounds == session.state.rounds

    async def run() -> None:
        again = Session.load(path)
        app = PlayApp(again.settings, session=again, save_path=path)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.table is not None)
            text = screen_text(app)
            assert "Variant six-seven" in text and "Resumed from six.json." in text
            assert "trick 9/13" in text

    asyncio.run(run())


def test_the_viewer_replays_a_variant_record(tmp_path: Path) -> None:
    variant = parse_variant(TWELVE, "twelve.toml")
    session = Session.new(settings(variant, 3, seed=2))
    assert not advance_to(session, lambda s: False, random.Random(2), limit=2000)
    path = tmp_path / "twelve.json"
    session.save(path)
    replay = Replay.load(path)

    async def run() -> None:
        app = ReplayApp(replay, title="twelve.json")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            # the replay names the variant its record was played by
            assert "trick 2/12" in screen_text(app) and "(variant twelve)" in screen_text(app)
            await pilot.press("end")
            assert "match over" in screen_text(app) and "You takes" not in screen_text(app)

    asyncio.run(run())
    # the seventh trick of a round is the second half's first
    seventh = [e for e in session.log if e.trick is not None and e.round_index == 0][6]
    assert seventh.half == 2 and "pile" in seventh.text


def test_a_bot_that_does_not_play_variants_is_refused_before_the_game() -> None:
    variant = load_variant(SIX_SEVEN)
    with pytest.raises(SessionError, match="the ppo bot does not play variants"):
        PlaySettings(players=3, variant=variant, bots=("ppo",)).checked()
    PlaySettings(players=3, variant=variant, bots=("expert",)).checked()  # search plays
    result = CliRunner().invoke(
        cli, ["play", "--quick", "--bots", "ppo", "--variant", str(SIX_SEVEN)]
    )
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert "the ppo bot does not play variants" in result.output


def test_play_takes_a_variant_file_and_refuses_a_bad_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[PlaySettings] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: started.append(self.settings))
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "--players", "3", "--seed", "3", "--variant",
                                 str(SIX_SEVEN)])
    assert result.exit_code == 0, result.output
    (chosen,) = started
    assert chosen.variant == load_variant(SIX_SEVEN) and chosen.config().pack_size == 7
    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "meio"\ntrump = "X"\n[hand]\nfirst_half = 8\n')
    result = runner.invoke(cli, ["play", "--variant", str(bad)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{bad}: hand: pack sizes 8 + 6 do not add up to the hand of 13" in lines
    assert any(line.startswith(f"{bad}: trump: ") for line in lines)
    result = runner.invoke(cli, ["play", "--players", "4", "--variant", str(bad.parent / "x")])
    assert result.exit_code == 2
    saved = tmp_path / "g.json"
    saved.write_text("{}")
    result = runner.invoke(cli, ["play", "--resume", str(saved), "--variant", str(SIX_SEVEN)])
    assert result.exit_code == 2 and "drop --variant" in result.output
    assert len(started) == 1


def test_a_match_on_totals_whose_tie_plays_on_says_so() -> None:
    variant = parse_variant(
        'preset = "meio"\n[match.3]\nform = "totals"\nrounds = 1\nshared = false\n', "one.toml"
    )
    for seed in range(60):
        session = Session.new(settings(variant, 3, seed=seed))
        if advance_to(session, lambda s: s.view().round_index == 1, random.Random(seed)):
            break
    else:
        raise AssertionError("no 3-player round tied for the lowest in 60 deals")
    first = session.state.rounds[0].scores
    assert sorted(first)[0] == sorted(first)[1]
    assert "Round 2 (to break a tie)" in status_text(session.view(), "instant")
    assert "Round 1/1" in status_text(Session.new(settings(variant, 3)).view(), "instant")


def test_a_variant_s_special_card_is_drawn_by_its_own_attributes() -> None:
    from meio.engine import cards as C
    from meio.engine.ruleset import card_rules
    from meio.tui.cards import card_face, card_label, is_wild, value_label

    rules = card_rules(parse_variant(TWELVE, "twelve.toml"))
    gambler = C.MINUS_TWO_H
    assert card_label(gambler) == "-2♥" and card_label(gambler, rules=rules) == "-2H"
    assert value_label(gambler, 1, "meio", rules=rules) == "20"
    assert value_label(gambler, 2, "meio", rules=rules) == "+½"
    assert value_label(gambler, 1, "meio") == "-2"
    assert not is_wild(gambler, rules) and is_wild(C.Q_PLUS, rules)
    assert value_label(C.Q_PLUS, 2, "meio", ascii=True, rules=rules) == "12.5"
    face = "".join(row.plain for row in card_face(gambler, half=1, edition="meio", rules=rules))
    assert "-2H" in face and "20" in face
