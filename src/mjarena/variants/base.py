"""What every rule set shares: actions, decisions, events, agents, and the registry of variants.

A variant is a state machine.  ``game.decision`` says which seats must choose now and what each may do;
``game.apply({seat: action, ...})`` carries the choices out and appends :class:`Event` records to
``game.events``.  Nothing in a variant knows whether an agent is a built-in policy, a program or a person.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

__all__ = [
    "RULE_SETS",
    "VARIANTS",
    "Action",
    "Agent",
    "Decision",
    "Event",
    "IllegalAction",
    "StateMachine",
    "VariantInfo",
    "get_variant",
    "play",
    "register",
    "tiles_of",
]


class Action(NamedTuple):
    """One choice of one seat: ``type`` is a verb of the variant (``discard``, ``pong``, ``pass``, ...).

    ``tile`` is the tile kind the verb acts on, ``target`` a seat it names, ``tiles`` a list of kinds
    (a declared target hand, for instance).
    """

    type: str
    tile: int | None = None
    target: int | None = None
    tiles: tuple[int, ...] = ()


def tiles_of(legal: Iterable[Action], verb: str) -> list[int]:
    """The ``tile`` of each action of ``legal`` whose type is ``verb``, in order (one that names no tile left out).

    >>> tiles_of([Action("play", 3), Action("gang"), Action("play", 7), Action("pass")], "play")
    [3, 7]
    """
    return [action.tile for action in legal if action.type == verb and action.tile is not None]


class Event(NamedTuple):
    """One thing that happened at the table, in order.  ``tiles`` are tile kinds."""

    type: str
    seat: int | None = None
    tiles: tuple[int, ...] = ()
    target: int | None = None


class Decision(NamedTuple):
    """Who must choose now (``legal`` maps each such seat to its legal actions) and at what point."""

    stage: str
    legal: Mapping[int, Sequence[Action]]


class IllegalAction(ValueError):
    """An agent chose an action that was not among its legal actions."""

    def __init__(self, seat: int, action: Action, legal: Sequence[Action]) -> None:
        super().__init__(f"seat {seat}: {action} is not legal here; legal: {list(legal)}")
        self.seat = seat
        self.action = action


class StateMachine:
    """The driver every variant shares: a generator (``self._flow``) yields each :class:`Decision` and receives
    the choices; :meth:`apply` checks them and moves the game on.  Subclasses set ``_flow`` and ``decision``
    and may widen :meth:`accepts`."""

    decision: Decision | None
    _flow: Generator[Decision, Mapping[int, Action], None]

    def accepts(self, decision: Decision, action: Action | None, legal: Sequence[Action]) -> bool:
        """Whether the rules take ``action`` from a seat whose legal actions are ``legal``."""
        return action in legal

    def apply(self, choices: Mapping[int, Action]) -> None:
        """Carry out the choices of the seats named by the current decision.

        Raises :class:`IllegalAction` (and changes nothing) for an action the rules do not accept.
        """
        decision = self.decision
        if decision is None:
            raise RuntimeError("the game is over")
        for seat, legal in decision.legal.items():
            action = choices.get(seat)
            if not self.accepts(decision, action, legal):
                raise IllegalAction(seat, action, legal)  # type: ignore[arg-type]
        self.advance(choices)

    def advance(self, choices: Mapping[int, Action]) -> None:
        """Carry out choices already known to be accepted (one of each seat asked, each that :meth:`accepts`
        takes: the environments' choices come from the legal actions), without :meth:`apply`'s checks."""
        try:
            self.decision = self._flow.send(choices)
        except StopIteration:
            self.decision = None


class Agent(Protocol):
    """Anything that chooses actions: ``act`` receives the game (read only), its seat and its legal actions."""

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action: ...


def play(game: Any, agents: Sequence[Agent]) -> Any:
    """Run ``game`` to its end, asking ``agents[seat]`` for every decision; returns the game.

    Agents' choices are checked against the legal actions (see :class:`IllegalAction`).
    """
    while (decision := game.decision) is not None:
        game.apply({seat: agents[seat].act(game, seat, legal) for seat, legal in decision.legal.items()})
    return game


@dataclass(frozen=True)
class VariantInfo:
    """A rule set's parameters, declared as data next to its rules."""

    name: str
    title: str
    tiles: int
    players: int
    hand_size: int
    claims: tuple[str, ...]
    win_forms: tuple[str, ...]
    new_game: Callable[..., Any]
    aliases: tuple[str, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)


RULE_SETS = ("noi2014", "baida", "thupc2021")
"""The modules of :mod:`mjarena.variants` that register a rule set when imported."""

VARIANTS: dict[str, VariantInfo] = {}
"""Name or alias (lower case) -> rule set, for the rule sets imported so far (:func:`get_variant` imports all)."""


def register(info: VariantInfo) -> VariantInfo:
    for name in (info.name, *info.aliases):
        VARIANTS[name.lower()] = info
    return info


def get_variant(name: str) -> VariantInfo:
    """Look a rule set up by name or alias (case-insensitive); a name not registered yet imports the rule sets."""
    key = name.lower()
    if key not in VARIANTS:
        import importlib

        for module in RULE_SETS:
            importlib.import_module(f"mjarena.variants.{module}")
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(sorted({info.name for info in VARIANTS.values()}))
        raise KeyError(f"unknown rule set {name!r}; known: {known}") from None
