"""The game's observer: observation and information-state tensors and strings."""

from __future__ import annotations

import numpy as np

from meio.bots import attributes as AT
from meio.bots import observation as O
from meio.engine import cards as C
from meio.openspiel.state import MeioState

INFO_EXTRA = 65 + 13 * 4  # play order of each card, declared suit of each trick
INFO_SIZE = O.OBS_SIZE + INFO_EXTRA
#: the information state's size in a variant game (the attribute encoding's observation)
ANY_INFO_SIZE = AT.ANY_SIZE + INFO_EXTRA


class MeioObserver:
    """Observation (``perfect_recall`` False) and information-state tensors and strings.

    The observation is :func:`meio.bots.observation.observe` of the seat's view (716
    entries) in an edition's game, and :func:`meio.bots.attributes.observe_any` (the
    attribute encoding, 1,941) in a variant's (``attributes``); the information state
    adds the order in which this round's cards were played and each trick's declared
    suit.
    """

    def __init__(self, perfect_recall: bool, attributes: bool = False) -> None:
        self.perfect_recall = perfect_recall
        self.attributes = attributes
        obs = AT.ANY_SIZE if attributes else O.OBS_SIZE
        size = obs + INFO_EXTRA if perfect_recall else obs
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:obs]}
        if perfect_recall:
            self.dict["play_order"] = self.tensor[obs : obs + 65]
            self.dict["declared"] = self.tensor[obs + 65 :].reshape(13, 4)

    def set_from(self, state: MeioState, player: int) -> None:
        self.tensor.fill(0.0)
        st = state.engine
        if st is None:
            return
        view = st.view(player)
        observe = AT.observe_any if self.attributes else O.observe
        observe(view, picked=state.picked(player), out=self.dict["observation"])
        if not self.perfect_recall:
            return
        order = self.dict["play_order"]
        declared = self.dict["declared"]
        played = 0
        for t, trick in enumerate(view.tricks):
            if trick.declared >= 0:
                declared[t, trick.declared] = 1.0
            for _, card in trick.plays:
                played += 1
                order[card] = played / 65.0
        for i, (_, card) in enumerate(view.current_trick):
            played += 1
            order[card] = played / 65.0
            if i == 0 and C.is_wild(card) and view.led_suit >= 0:
                declared[len(view.tricks), view.led_suit] = 1.0

    def string_from(self, state: MeioState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)
