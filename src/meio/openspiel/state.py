"""A match of the OpenSpiel game: chance events, then the engine's state.

The loop of an agent (``is_terminal``, ``is_chance_node``, ``chance_outcomes``,
``legal_actions``, ``apply_action``) is the hot path, and each of its queries
answers from values kept up to date by the action before; the engine is asked
once per action (``apply_unchecked`` after this module's own check) and once per
decision for the legal plays.

Over 500 lines on purpose: the values the hot path keeps up to date and every query
that reads them belong to one class; split, each query would reach into another
module's state.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from typing import Any

import pyspiel

from meio.bots import observation as O
from meio.bots import spaces as S
from meio.engine import (
    ConfigError,
    IllegalActionError,
    MatchConfig,
    Phase,
    State,
    View,
    eligible_leaders,
    legal_plays,
    sample_world,
)
from meio.engine import actions as A
from meio.engine import cards as C
from meio.openspiel.params import GameParameters
from meio.openspiel.resample import Deal, resample_variant
from meio.openspiel.rounds import public_rounds

TERMINAL = int(pyspiel.PlayerId.TERMINAL)
CHANCE = int(pyspiel.PlayerId.CHANCE)
_COMBO, _LEADER, _DEAL = 0, 1, 2  # what the chance node draws
_SPLIT, _PLAY, _PILE, _OVER = Phase.SPLIT, Phase.PLAY, Phase.PILE, Phase.OVER
_PACK_ACTIONS = list(range(S.PACK_BASE, S.PICK_BASE))
_ZEROS = tuple((0.0,) * n for n in range(6))
#: ``_PAIRS[n][k]`` is the chance outcome ``(k, 1/n)``: built once, not per node
_PAIRS = [[(k, 1.0 / n) for k in range(65)] if n else [] for n in range(66)]




@functools.lru_cache(maxsize=64)
def _split_cards(hand: int) -> tuple[int, ...]:
    """The 13 cards of a hand being split, by id: pick ``i`` takes the ``i``-th."""
    return tuple(C.cards_of(hand))


@functools.lru_cache(maxsize=16)
def _pack_positions(hand: int, pack: int) -> tuple[tuple[int, ...], ...]:
    """The positions (in the hand sorted by id) of each pack number: the
    combinations in lexicographic order, as :data:`meio.bots.spaces.PACK_POSITIONS`
    for the editions' 13 and 6."""
    return tuple(itertools.combinations(range(hand), pack))


def _sorted_deal_outcomes(left: list[int], last: int, need: int) -> list[tuple[int, float]]:
    """The next card of a hand dealt in card order: a card above ``last`` (the hand's
    last card, -1 for none) with ``need`` cards still to come, each with the chance
    that it is the lowest of ``need`` cards drawn at random from those of ``left``
    above ``last``; so every hand is a uniform draw, with one chance history each."""
    above = [c for c in left if c > last]
    total = math.comb(len(above), need)
    out = []
    for i, c in enumerate(above):
        ways = math.comb(len(above) - i - 1, need - 1)
        if ways:
            out.append((c, ways / total))
    return out


@functools.lru_cache(maxsize=16)
def _deck_cards(deck: int) -> tuple[int, ...]:
    """The cards of a deck, by id: what is left to deal as a round begins."""
    return tuple(C.cards_of(deck))


class _Match:
    """What changes in a state, in one object that copies itself cheaply (OpenSpiel's
    ``clone()`` deep-copies each attribute of a Python state)."""

    __slots__ = ("combo", "config", "dealing", "deals", "engine", "leader", "left", "legal",
                 "orders", "picks", "player", "reward", "stage", "tied", "totals")

    def __init__(self, params: GameParameters) -> None:
        n = params.players
        self.player = CHANCE  # the OpenSpiel player to act, kept up to date
        self.stage = _COMBO if len(params.combos) > 1 else _LEADER
        self.combo = -1 if len(params.combos) > 1 else 0
        self.leader = -1
        self.tied: tuple[int, ...] = ()  # seats tied to lead the next round
        self.config: MatchConfig | None = None
        self.left: list[int] = []  # cards still to deal this round, by id
        self.dealing: list[int] = []  # cards dealt this round, in order
        self.deals: list[tuple[tuple[int, ...], int, int]] = []
        self.engine: State | None = None
        self.legal: list[int] | None = None  # the legal actions, once asked for
        self.picks: list[int] = []  # sequential split: the cards the seat to act picked
        self.orders: list[tuple[int, ...]] = []  # the picks of each pack in the history
        self.reward: tuple[float, ...] = _ZEROS[n]
        self.totals: tuple[float, ...] = _ZEROS[n]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        out = _Match.__new__(_Match)
        out.player, out.stage, out.combo, out.leader = (self.player, self.stage,
                                                        self.combo, self.leader)
        out.tied, out.config, out.reward, out.totals = (self.tied, self.config,
                                                        self.reward, self.totals)
        out.left, out.dealing, out.deals = (self.left.copy(), self.dealing.copy(),
                                            self.deals.copy())
        out.engine = None if self.engine is None else self.engine.clone()
        out.legal = self.legal  # never changed in place
        out.picks, out.orders = self.picks.copy(), self.orders.copy()
        return out


class MeioState(pyspiel.State):  # type: ignore[misc]
    """A match in progress: chance events, then the engine's state.

    The queries an agent's loop makes (``current_player``, ``is_terminal``,
    ``is_chance_node``, ``legal_actions``, ``chance_outcomes``, ``rewards``) answer
    from Python directly, from values kept up to date by each action; OpenSpiel's
    C++ code reaches the same answers through its hooks (``_legal_actions`` ...).
    """

    def __init__(self, game: pyspiel.Game, params: GameParameters) -> None:
        super().__init__(game)
        self._params = params
        self._declares = params.wild_lead == "declare"
        self._zeros = _ZEROS[params.players]
        self._hand = params.hand
        self._dealt = params.hand * params.players  # cards dealt a round
        self._positions = _pack_positions(params.hand, params.pack)
        self._pack_actions = (_PACK_ACTIONS if params.variant is None
                              else list(range(S.PACK_BASE, S.PACK_BASE + len(self._positions))))
        self._sorted = params.variant is not None  # variants deal each hand in card order
        self._m = _Match(params)

    @property
    def engine(self) -> State | None:
        """The engine state (None before the first deal is complete). Hidden cards:
        hand a player :meth:`view` instead."""
        return self._m.engine

    @property
    def config(self) -> MatchConfig | None:
        """The match config (None until the specials and first leader are drawn)."""
        return self._m.config

    @property
    def params(self) -> GameParameters:
        """The game's parameters."""
        return self._params

    @property
    def deals(self) -> tuple[Deal, ...]:
        """Every round's deal so far, as the engine takes it (hands, set-aside cards,
        leader). Hidden cards: hand a player :meth:`view` instead."""
        return tuple(self._m.deals)

    @property
    def orders(self) -> tuple[tuple[int, ...], ...]:
        """Sequential split: the cards of each pack in the history, in the order picked.
        Hidden cards: another seat's order is its secret."""
        return tuple(self._m.orders)

    @property
    def picks(self) -> tuple[int, ...]:
        """Sequential split: the cards the seat to act has picked so far. Hidden cards."""
        return tuple(self._m.picks)

    # -- whose turn --------------------------------------------------------------------
    def current_player(self) -> int:
        return self._m.player

    def is_terminal(self) -> bool:
        return self._m.player == TERMINAL

    def is_chance_node(self) -> bool:
        return self._m.player == CHANCE

    def _legal(self, m: _Match) -> list[int]:
        """The legal flat actions of the player to act, sorted; kept in ``m.legal``
        until the next action (a list never changed in place)."""
        st = m.engine
        assert st is not None
        phase = st.phase
        if phase is _PLAY:  # the engine's own plays; declares are above the cards
            leading = not st.current_trick
            legal = legal_plays(st.hands[m.player], st.led_suit, self._declares, not leading,
                                st.config.rules)
            if leading and self._declares:
                legal.sort()
        elif phase is _PILE:
            legal = [A.PILE_1, A.PILE_2]
        elif self._params.sequential:
            picks = m.picks
            legal = [S.PICK_BASE + i for i, c in enumerate(_split_cards(st.hands[m.player]))
                     if c not in picks]
        else:
            legal = self._pack_actions
        m.legal = legal
        return legal

    def legal_actions(self, player: int | None = None) -> list[int]:
        m = self._m
        p = m.player
        if player is None or player == p:
            legal = m.legal  # kept from the last ask until the next action
            if legal is not None:
                return legal.copy()
            if p >= 0:
                return self._legal(m).copy()
            return [a for a, _ in self.chance_outcomes()] if p == CHANCE else []
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return [a for a, _ in self.chance_outcomes()] if p == CHANCE else []

    def _legal_actions(self, player: int) -> list[int]:
        m = self._m
        return (self._legal(m) if m.legal is None else m.legal).copy()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        m = self._m
        if m.player != CHANCE:
            return []
        if m.stage == _DEAL:
            if self._sorted:
                return self._sorted_outcomes(m)
            return list(map(_PAIRS[len(m.left)].__getitem__, m.left))
        if m.stage == _COMBO:
            n = len(self._params.combos)
            return _PAIRS[n][:n]
        if m.tied:
            return list(map(_PAIRS[len(m.tied)].__getitem__, m.tied))
        n = self._params.players
        return _PAIRS[n][:n]

    def _sorted_outcomes(self, m: _Match) -> list[tuple[int, float]]:
        dealt = len(m.dealing) % self._hand
        last = m.dealing[-1] if dealt else -1
        return _sorted_deal_outcomes(m.left, last, self._hand - dealt)

    # -- acting ------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        m = self._m
        seat = m.player
        if seat < 0:
            if seat != CHANCE:
                raise IllegalActionError(None, action, "the match is over")
            self._apply_chance(m, action)
            return
        st = m.engine
        assert st is not None
        if st.phase is not _SPLIT:  # a card or a pile: the hot path, kept short
            if action not in (m.legal or self._legal(m)):
                raise IllegalActionError(seat, action, f"flat action {action} is not legal "
                                         f"for seat {seat} now")
            st.apply_unchecked(action, seat)
            m.legal = None
            m.reward = self._zeros
            after = st.phase
            if after is _PLAY or after is _PILE:
                m.player = st.to_move  # the +.5 winner while it chooses its pile
            else:  # the round is over: the next has begun, or the match is over
                self._end_round(m, st)
            return
        if self._params.sequential:
            legal = m.legal or self._legal(m)
            if action not in legal:
                raise IllegalActionError(seat, action, f"flat action {action} is not a "
                                         f"pick seat {seat} may make now")
            m.picks.append(_split_cards(st.hands[seat])[action - S.PICK_BASE])
            m.reward = self._zeros
            if len(m.picks) < self._params.pack:
                m.legal = legal = legal.copy()
                legal.remove(action)
                return
            engine_action = A.pack_action(C.mask_of(m.picks))
            m.orders.append(tuple(m.picks))
            m.picks = []
        elif S.PACK_BASE <= action < S.PACK_BASE + len(self._positions):
            cards = _split_cards(st.hands[seat])  # S.pack_of_number, from cached cards
            pack = 0
            for i in self._positions[action - S.PACK_BASE]:
                pack |= 1 << cards[i]
            engine_action = A.pack_action(pack)
        else:
            raise IllegalActionError(seat, action,
                                     f"flat action {action} is not legal for seat {seat} now")
        st.apply_unchecked(engine_action, seat)
        m.legal = None
        m.reward = self._zeros
        m.player = st.to_move if st.phase is _PLAY else st.current_seat()

    def _end_round(self, m: _Match, st: State) -> None:
        """Reward every seat with minus its round score (its team's in partnership),
        then stop or draw the next round's leader and deal."""
        result = st.rounds[-1]
        m.reward = _round_reward(result, self._params.players, self._params.victory)
        m.totals = tuple(t + r for t, r in zip(m.totals, m.reward, strict=True))
        if st.is_over or self._params.one_round:
            m.player = TERMINAL
            return
        assert m.config is not None
        ties = eligible_leaders(m.config, result)
        m.leader, m.tied = (ties[0], ()) if len(ties) == 1 else (-1, ties)
        m.stage = _DEAL if len(ties) == 1 else _LEADER
        m.left = list(_deck_cards(m.config.deck))
        m.player = CHANCE

    def _apply_chance(self, m: _Match, outcome: int) -> None:
        if m.stage != _DEAL:
            self._draw_specials_or_leader(m, outcome)
            return
        if self._sorted and all(c != outcome for c, _ in self._sorted_outcomes(m)):
            raise IllegalActionError(None, outcome, f"card {outcome} is not one the hand "
                                     f"being dealt (in card order) may take next")
        try:
            m.left.remove(outcome)
        except ValueError:
            raise IllegalActionError(None, outcome,
                                     f"card {outcome} is not in the pack left to deal") from None
        dealing = m.dealing
        dealing.append(outcome)
        full, hand = self._dealt, self._hand
        if len(dealing) == full - hand and len(m.left) == hand:
            dealing.extend(m.left)  # no card is set aside: the last hand is what is left
            m.left = []
        if len(dealing) < full:
            return
        assert m.config is not None
        hands = tuple(C.mask_of(dealing[k : k + hand]) for k in range(0, full, hand))
        aside = C.mask_of(m.left)
        m.deals.append((hands, aside, m.leader))
        if m.engine is None:  # later rounds begin with this deal again, replaced when drawn
            m.engine = State.new(m.config, deals=m.deals * 3)
        else:
            m.engine.redeal(hands, aside, m.leader)
        m.dealing, m.left, m.leader, m.legal = [], [], -1, None
        m.player = m.engine.current_seat()

    def _draw_specials_or_leader(self, m: _Match, outcome: int) -> None:
        params = self._params
        if m.stage == _COMBO:
            if not 0 <= outcome < len(params.combos):
                raise IllegalActionError(None, outcome, f"there is no set of specials {outcome}")
            m.combo, m.stage = outcome, _LEADER
            return
        options = m.tied or range(params.players)
        if outcome not in options:
            raise IllegalActionError(None, outcome, f"seat {outcome} may not lead now")
        m.leader, m.tied, m.stage = outcome, (), _DEAL
        if m.config is None:
            m.config = params.config(m.combo, outcome)
            m.left = list(_deck_cards(m.config.deck))

    # -- information -------------------------------------------------------------------
    def view(self, player: int) -> View | None:
        """The engine view of ``player`` (None before the first deal is complete)."""
        st = self._m.engine
        return None if st is None else st.view(player)

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        m = self._m
        st = m.engine
        params = self._params
        parts = [f"p{player}"]
        if m.config is not None and (params.reveal_specials or params.edition == "classic"):
            parts.append("specials " + C.format_cards(C.mask_of(m.config.special_cards)))
        if st is None:
            return " ".join(parts)
        view = st.view(player)
        parts.append("known " + C.format_cards(C.mask_of(O.known_specials(view))))
        starts = st.round_starts()[: len(m.deals)]
        for r, start in enumerate(starts):
            parts.append(f"| r{r + 1} lead {start.leader} dealt "
                         f"{C.format_cards(start.deal[player])}")
        orders = iter(m.orders)
        for seat, action in st.history:
            if not A.is_pack(action):
                parts.append(f"{seat}:{A.action_text(action)}")
                continue
            seen = seat == player or (
                params.partnership and seat == (player + 2) % 4
                and st.phase is not Phase.SPLIT  # a partner's pack is seen after the split
            )
            if params.sequential:  # a seat's own picks in their order, the others' unseen
                order = next(orders)
                if seat == player:
                    parts.extend(f"{seat}:pick:{C.card_code(c)}" for c in order)
                    continue
                parts.extend([f"{seat}:pick"] * 6)
            parts.append(f"{seat}:{A.action_text(action) if seen else 'split'}")
        for card in m.picks:  # the seat to act is picking
            parts.append(f"{m.player}:pick:{C.card_code(card)}" if m.player == player
                         else f"{m.player}:pick")
        return " ".join(parts)

    def picked(self, player: int) -> int:
        """The cards ``player`` has picked so far in a sequential split (a mask)."""
        m = self._m
        return C.mask_of(m.picks) if player == m.player else 0

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        st = self._m.engine
        if st is None:
            return f"p{player} dealing"
        v = st.view(player)
        picked = self.picked(player)
        trick = " ".join(f"{s}:{C.card_code(c)}" for s, c in v.current_trick)
        return (f"p{player} r{v.round_index + 1} t{v.trick_number} {v.phase.name} "
                f"hand {C.format_cards(v.hand & ~picked)} "
                f"pack {C.format_cards(v.pack | picked)} "
                f"recv {C.format_cards(v.received)} trick [{trick}] piles {list(v.piles)} "
                f"totals {list(v.totals)}")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeioState:
        """A state ``player_id`` cannot tell from this one, the hidden cards dealt at
        random (:func:`meio.engine.sample_world`); ``probability_sampler`` (a callable
        giving a number in [0, 1), as OpenSpiel's samplers) seeds the draw."""
        m = self._m
        st = m.engine
        if st is None or m.player < 0:
            return self.clone()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * 2**62) if callable(probability_sampler) else 0
        rng = random.Random(seed)
        if self._params.variant is not None:
            world = resample_variant(self, player_id, rng)
            drawn = MeioState(self.get_game(), self._params)
            o = drawn._m
            o.combo, o.config, o.stage, o.player = m.combo, m.config, _DEAL, m.player
            o.deals, o.engine, o.orders, o.picks = (world.deals, world.engine, world.orders,
                                                    world.picks)
            o.totals, o.reward = m.totals, m.reward
            return drawn
        out = state_from_view(self.get_game(), self._params, st.view(player_id), rng)
        o = out._m
        o.reward = m.reward
        if self._params.sequential:  # a seat's own picks in their order; the others' unseen
            seats = [seat for seat, action in st.history if A.is_pack(action)]
            o.orders = [real if seat == player_id else drawn
                        for seat, real, drawn in zip(seats, m.orders, o.orders, strict=True)]
            if m.picks:
                o.picks = (m.picks.copy() if m.player == player_id else
                           rng.sample(C.cards_of(o.engine.hands[m.player]),  # type: ignore[union-attr]
                                      len(m.picks)))
        return out

    def rewards(self) -> list[float]:
        """Each seat's reward for the last decision: minus its round score when that
        decision ended a round (kept through the next deal's chance nodes), else 0."""
        return list(self._m.reward)

    def returns(self) -> list[float]:
        """Minus each seat's total score of the rounds played (its team's in partnership)."""
        return list(self._m.totals)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            stage = self._m.stage
            if stage == _COMBO:
                return "specials " + C.format_cards(C.mask_of(self._params.combos[action]))
            if stage == _LEADER:
                return f"leader {action}"
            return f"deal {C.card_code(action)}"
        if S.PACK_BASE <= action < S.PICK_BASE:
            return f"pack#{action - S.PACK_BASE}"
        if S.PICK_BASE <= action < S.NUM_ACTIONS:
            return f"pick#{action - S.PICK_BASE}"
        return A.action_text(action)

    def __str__(self) -> str:
        st = self._m.engine
        return "dealing" if st is None else repr(st)


def _round_reward(result: Any, players: int, victory: bool = False) -> tuple[float, ...]:
    """Minus each seat's score of a round (its team's in partnership); with
    ``victory``, 1 for the side with the lower score and -1 for the other."""
    if victory:
        sides = result.team_scores if result.team_scores is not None else result.scores
        won = 0 if sides[0] < sides[1] else 1
        return tuple(1.0 if p % 2 == won else -1.0 for p in range(players))
    if result.team_scores is not None:
        teams = result.team_scores
        return tuple(-float(teams[p % 2]) for p in range(players))
    return tuple(-float(s) for s in result.scores)


def state_from_view(game: pyspiel.Game, params: GameParameters, view: View,
                    rng: random.Random) -> MeioState:
    """A state of ``game`` that ``view``'s seat cannot tell from the real one: the
    rounds before rebuilt from their public results
    (:func:`meio.openspiel.rounds.public_rounds`), this round's hidden cards dealt by
    :func:`meio.engine.sample_world` from ``rng``.

    For a bot that is handed a view (``meio bench``'s ISMCTS) and for resampling.
    With ``split_mode`` sequential the picks of every pack are in card order (a view
    does not show in which order they were picked)."""
    if view.seat is None or view.is_over:
        raise IllegalActionError(view.seat, None, "a state is rebuilt for a seat to act, "
                                 "from its view of a match in progress")
    if params.variant is not None:
        raise ConfigError("a state is rebuilt from a view in the standard editions only "
                          "(a variant game resamples from its own state)")
    world = sample_world(view, rng)
    deals, history = public_rounds(view)
    deals.append((tuple(world.deal), world.aside, view.round_leader))
    specials = world.config.special_cards
    combos = params.combos
    combo = combos.index(specials) if specials in combos else 0
    config = params.config(combo, view.config.leader_of_round_one)
    if specials != config.special_cards:  # the world's, when the table hides them
        config = config.with_specials(specials, 0)
    engine = State.new(config, deals=deals)
    for seat, action in history:
        engine.apply_unchecked(action, seat)
    for j in range(params.players):
        if world.packs[j] and (view.phase is not Phase.SPLIT or view.split_done[j]):
            engine.apply_unchecked(A.pack_action(world.packs[j]), j)
    for seat, action in view.round_plays:
        engine.apply_unchecked(action, seat)
    out = MeioState(game, params)
    o = out._m
    o.combo, o.config, o.stage, o.deals, o.engine = combo, config, _DEAL, deals, engine
    rewards = [_round_reward(result, params.players, params.victory) for result in view.rounds]
    o.totals = tuple(map(sum, zip(*rewards, strict=True))) if rewards else o.totals
    if rewards and not view.round_plays and not any(view.split_done):
        o.reward = rewards[-1]  # the last round's reward stays until the next decision
    if params.sequential:
        o.orders = [tuple(C.cards_of(A.pack_of(a))) for _, a in engine.history
                    if A.is_pack(a)]
    o.player = engine.current_seat()
    return out

