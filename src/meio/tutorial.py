"""The *Learn to play* lesson: one scripted deal a new player plays through.

Both clients run the same lesson (``meio learn`` in the terminal, the web's
tutorial page): a 4-player MEIO table with the special cards ``-1 A+ +.5 Q+``,
the learner at seat 0 and three bots that play a fixed script. The learner
makes every move themself (their split, each card, a declared suit, a pile);
each move has a short explanation, and a move other than the lesson's is
refused with a reminder. Between moves, *notes* explain what just happened.

The lesson is data: :data:`LESSON` holds the deal, every action of the round
in the record's text form (``SEAT:ACTION``) and the steps. The texts are
English, marked for the ``meio`` catalogue; show them with
``meio.i18n._(step.text)``.

>>> state = LESSON.replay()
>>> state.rounds[0].piles[0], state.rounds[0].scores[0]
((2, 2), 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from meio.engine import IllegalActionError, MatchConfig, MeioError, State, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.i18n import N_


class LessonError(MeioError, ValueError):
    """A lesson whose script the rules do not allow, or a move off the script."""


@dataclass(frozen=True, slots=True)
class Step:
    """One moment of the lesson.

    ``action`` is the learner's move this step asks for, in record text
    (``A+=S``, ``3S``, ``pack:4S,6S,…``, ``pile=1``); ``None`` makes the step a
    note to read before going on. ``text`` is English (a catalogue msgid).
    """

    text: str
    action: str | None = None
    title: str = ""


@dataclass(frozen=True)
class Lesson:
    """A scripted deal, its whole round of actions, and the steps that teach it."""

    config: MatchConfig
    #: each seat's 13 cards as codes
    hands: tuple[str, ...]
    leader: int
    #: the learner's seat
    seat: int
    #: every action of the round in order, ``SEAT:ACTION``
    script: tuple[str, ...]
    steps: tuple[Step, ...]

    @cached_property
    def actions(self) -> tuple[tuple[int, int], ...]:
        """The script as ``(seat, action)`` pairs."""
        out = []
        for item in self.script:
            seat, _, text = item.partition(":")
            out.append((int(seat), A.parse_action(text)))
        return tuple(out)

    def new_state(self) -> State:
        """The lesson's match, dealt and waiting for the split."""
        hands = [C.parse_cards(h) for h in self.hands]
        return State.new(self.config, deals=[(hands, 0, self.leader)])

    def replay(self) -> State:
        """The state after the whole script; raises :class:`LessonError` if a move is illegal."""
        state = self.new_state()
        for seat, action in self.actions:
            try:
                state.apply(action, seat)
            except IllegalActionError as exc:
                raise LessonError(f"the lesson's script breaks the rules: {exc}") from None
        return state

    def bot_script(self, seat: int) -> list[int]:
        """The actions a bot seat plays, in order."""
        return [action for s, action in self.actions if s == seat]

    @property
    def moves(self) -> list[Step]:
        """The steps that ask the learner for a move, in order."""
        return [step for step in self.steps if step.action is not None]


class ScriptedBot:
    """A bot that plays its seat's part of a lesson, move by move."""

    name = "lesson"

    def __init__(self, actions: Sequence[int]) -> None:
        self.actions = list(actions)
        self.next = 0

    def choose(self, view: View, legal: Sequence[int]) -> int:
        """The seat's next scripted action (it must be legal now)."""
        if self.next >= len(self.actions):
            raise LessonError("the lesson's bot has no move left")
        action = self.actions[self.next]
        if action not in legal:
            raise LessonError(f"the lesson's bot cannot play {A.action_text(action)} now")
        self.next += 1
        return action


_SCRIPT = """
0:pack:4S,6S,5D,4C,-1,+.5 1:pack:TH,KH,AH,QD,9C,TC 2:pack:JS,JH,6D,8C,QC,AC
3:pack:4H,9H,9D,JD,KD,KC
0:A+=S 1:7S 2:8S 3:9S
0:3S 1:7H 2:QS 3:TS
1:6C 2:7C 3:5C 0:Q+
0:3D 1:TD 2:7D 3:8D
1:JC 2:3H 3:6H 0:3C
3:AS 0:5S 1:8H 2:KS
1:AD 2:5H 3:QH 0:4D
3:9D 0:-1 1:QD 2:6D
0:4S 1:TH 2:JS 3:4H
1:9C 2:8C 3:KC 0:+.5 0:pile=1
0:4C 1:TC 2:QC 3:9H
3:JD 0:5D 1:KH 2:JH
1:AH 2:AC 3:KD 0:6S
"""

LESSON = Lesson(
    config=MatchConfig(players=4, specials=(C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS)),
    hands=(
        "3S 4S 5S 6S 3D 4D 5D 3C 4C -1 A+ +.5 Q+",
        "7S 7H 8H TH KH AH TD QD AD 6C 9C TC JC",
        "8S JS QS KS 3H 5H JH 6D 7D 7C 8C QC AC",
        "9S TS AS 4H 6H 9H QH 8D 9D JD KD 5C KC",
    ),
    leader=0,
    seat=0,
    script=tuple(_SCRIPT.split()),
    steps=(
        Step(
            N_(
                "MEIO is a trick-taking game with a twist: you do not try to win many "
                "tricks, you try to win as many in the first half of the round as in the "
                "second.\n\n"
                "Each round you get 13 cards. You split them: 7 to play in the first half "
                "(tricks 1-7) and a pack of 6 for the second half (tricks 8-13). Tricks you "
                "win in the first half go to your H pile, those of the second half to your "
                "V pile. Your score for the round is |H - V|: 0 is perfect, and the lowest "
                "total wins the match.\n\n"
                "You play every move of this lesson yourself, against three bots."
            ),
            title=N_("Welcome to MEIO"),
        ),
        Step(
            N_(
                "This deck has special cards, framed twice on the screen. What they are "
                "worth depends on the half:\n\n"
                "  -1   first half -1 (always loses), second half 15 (always wins)\n"
                "  A+   first half 15, second half -1: the opposite of -1\n"
                "  Q+   12½ (above every Q); a trick it wins goes to the OTHER half\n"
                "  +.5  the card played before it + ½; if it wins, you choose the pile\n"
                "  -2♥  a heart (a trump) worth -2 (not in this deal)\n\n"
                "All but -2♥ are wild: they may be played on any trick and count as the suit "
                "led. Hearts are trumps."
            ),
            title=N_("The special cards"),
        ),
        Step(
            N_(
                "The split. You hold A+ and -1: keep A+ for the first half (worth 15 there) "
                "and pack -1 for the second (worth 15 there): one sure win in each half. "
                "Pick these 6 for your pack with Space, then press c: "
                "4♠ 6♠ 5♦ 4♣ -1 +.5"
            ),
            action="pack:4S,6S,5D,4C,-1,+.5",
        ),
        Step(
            N_(
                "You lead trick 1. Play A+: worth 15 now, nothing beats it. A wild that "
                "leads names the suit to follow: choose spades (S)."
            ),
            action="A+=S",
        ),
        Step(
            N_(
                "Trick 1 is yours: it went to your H pile. You lead again. You do not want "
                "every trick: lose this one on purpose with your lowest card, 3♠."
            ),
            action="3S",
        ),
        Step(
            N_(
                "Bot 1 had no spades and played 7♥: hearts are trumps and beat every other "
                "suit. Now clubs are led and you play last. Play Q+: worth 12½, it wins, "
                "and a trick won by Q+ goes to the other half's pile: this one goes to V."
            ),
            action="Q+",
        ),
        Step(
            N_(
                "Q+ won and the trick went to V. You have H 1 and V 1: balanced. "
                "Lead 3♦ and let a bot take it."
            ),
            action="3D",
        ),
        Step(
            N_(
                "Follow suit: clubs are led and you hold 3♣, so you must play a club (or a "
                "wild). Try another card to see the rule, then play 3♣."
            ),
            action="3C",
        ),
        Step(N_("Spades are led: follow with 5♠."), action="5S"),
        Step(
            N_("Diamonds are led: follow with 4♦. It is the last trick of the first half."),
            action="4D",
        ),
        Step(
            N_(
                "Second half: you now play your pack. -1 is worth 15 here, the highest card "
                "of all. Play it: this trick goes to V."
            ),
            action="-1",
        ),
        Step(
            N_("You have H 1 and V 2. Lead 4♠ and lose this trick."),
            action="4S",
        ),
        Step(
            N_(
                "You play last. +.5 is worth the card played just before it plus ½: after "
                "K♣ it is worth 13½ and wins. Play +.5."
            ),
            action="+.5",
        ),
        Step(
            N_(
                "You won with +.5, so you choose the pile. You have H 1 and V 2: put this "
                "trick in H (press 1) and you are level."
            ),
            action="pile=1",
        ),
        Step(N_("H 2, V 2. Now lose the rest: lead 4♣."), action="4C"),
        Step(N_("Diamonds are led: follow with 5♦."), action="5D"),
        Step(N_("The last trick: play 6♠."), action="6S"),
        Step(
            N_(
                "The round is over. You won 2 tricks in each half: |H - V| = |2 - 2| = 0, "
                "the best score there is. Each bot scored the difference of its own piles.\n\n"
                "A match is 3 rounds and the lowest total wins. With 2 players (MEIO "
                "edition) or in partnership, each round's lower score earns a victory and "
                "the first to 2 victories wins.\n\n"
                "Now a real game: four players, three easy bots. Press ? at any time for "
                "the keys. Good luck!"
            ),
            title=N_("Scoring"),
        ),
    ),
)
