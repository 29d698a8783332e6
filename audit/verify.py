"""Checking a game's log against its revealed seed and its rules, with nothing but the log.

This module needs no database, no server and no network: ``kotlik verify FILE`` runs it on an
export, ``kotlik audit`` on a log read from the database, and an import before it writes anything.
A log checks out when the seed matches the SHA-256 committed at creation, setup re-run from the
seed gives the logged opening, every command decided again (by the logged seat, at the logged
version, with the same ``v<version>`` stream) gives exactly the logged events, and the score of
the folded end state is the logged one. The random stream is specified in ``docs/random.md``.

An export is JSON Lines: a header, then one line per event, oldest first::

    {"format": "kotlik-export", "format_version": 1, "id": ..., "game": ..., "rules_version": 1,
     "status": "finished", "version": 57, "options": {...}, "arranged": false, "seats": [...],
     "seed_sha256": "...", "seed": "<hex, or null while the game runs>", "result": {...},
     "created_at": "...", "finished_at": "...", "seat": null, "redacted": false, "key": {JWK}}
    {"version": 1, "type": "kotlik.GameCreated", "data": {...}, "meta": {...},
     "seat": null, "command": null, "recorded_at": "..."}
    {"signature": "<base64>"}

The last line is the server's signature over every byte before it (:mod:`audit.signing`), checked
by :func:`check_file` against a key the auditor pinned. Besides what follows from the seed, a log
must have its events recorded in order within the game's creation and end, and each command played
by its seat's bot exactly when the seat is a bot's.

A seat's ``undo`` (``kotlik.Undone``, :mod:`projections.undo`) is checked as a command is: sent by
the seat to move, taking back exactly the command the log allows it to (its own newest of the turn,
with nothing final since), after which the game is as it was before that command.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import orjson

import games
from audit import signing
from games.rng import BadEntropy, Rng, game_key
from projections import resignation, undo
from projections.resignation import REASONS, RESIGNED
from projections.seats import taken_seat

FORMAT = "kotlik-export"
#: Bumped when a reader of the previous format could misread a new file.
FORMAT_VERSION = 1
#: The platform's own events: the first and the last of every finished game.
CREATED = "kotlik.GameCreated"
SCORED = "kotlik.GameScored"
PLATFORM = "kotlik."
#: A player taking an open seat of a game that waited for players: between creation and setup.
TAKEN = "kotlik.SeatTaken"
#: What the creation of a rated game, or of one with open seats, says beside the rest.
_OPENING_FIELDS = ("rated", "creator", "expires_in", "clock")

_HEADER_FIELDS: dict[str, type] = {
    "id": str,
    "game": str,
    "rules_version": int,
    "status": str,
    "version": int,
    "options": dict,
    "seats": list,
    "seed_sha256": str,
}
_EVENT_FIELDS: dict[str, type] = {"version": int, "type": str, "data": dict, "meta": dict}


class BadExport(ValueError):
    """A file that is not a whole Kotlík export: not JSON, a missing field, cut short."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Export:
    """A parsed export: its header and its event lines, as plain JSON values."""

    header: dict[str, Any]
    events: list[dict[str, Any]]
    #: The last line's signature (:mod:`audit.signing`), base64; ``None`` for an unsigned file.
    signature: str | None = None


@dataclass(frozen=True)
class Mismatch:
    """One way the log does not follow from its seed and rules."""

    #: The first version that differs; ``None`` for the header and the seed.
    version: int | None
    what: str
    #: ``path: expected X, found Y`` lines saying how the logged event differs.
    how: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        where = f"version {self.version}: " if self.version is not None else ""
        return "\n".join([where + self.what, *(f"    {line}" for line in self.how)])


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` found; ``ok`` when nothing."""

    export: Export
    problems: list[Mismatch]
    #: What was re-derived: setup events, commands, the score (for the report).
    setup_events: int = 0
    commands: int = 0
    #: Undos checked (``kotlik.Undone``), each taking back one command.
    undos: int = 0
    score: dict[str, Any] | None = None
    #: What was found of the signature, in words (:func:`check_file`).
    signed: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def report(self) -> str:
        """The verdict in words, for people."""
        h = self.export.header
        game = f"{h.get('game')} game {h.get('id')} (rules version {h.get('rules_version')})"
        if not self.ok:
            lines = [f"DOES NOT VERIFY: {game}, {len(self.problems)} problem(s), the first at the top"]
            return "\n".join([*lines, *(f"  {p}".replace("\n", "\n  ") for p in self.problems)])
        seats = {s.get("seat"): s.get("name") for s in h["seats"] if isinstance(s, dict)}
        lines = [
            f"OK: {game}: the log follows from the seed and the rules",
            f"  {len(self.export.events)} events up to version {h['version']}, status {h['status']}",
            f"  the seed matches its SHA-256 {h['seed_sha256']}",
            f"  the streams keyed by the seed and {_given(h['seats'])}",
            f"  setup re-derived from the seed: {self.setup_events} events",
            f"  {self.commands} commands decided again, each giving exactly the logged events",
        ]
        if self.undos:
            lines.append(f"  {self.undos} undos, each taking back a command its seat could take back")
        if self.score is not None:
            totals = ", ".join(
                f"seat {s['seat']} ({seats.get(s['seat'])}) {s.get('total', s.get('left', '-'))}"
                for s in self.score["seats"]
            )
            winners = ", ".join(f"seat {w}" for w in self.score["winners"])
            lines.append(f"  final score recomputed as logged: {totals}; winners: {winners}")
        if self.signed is not None:
            lines.append(f"  {self.signed}")
        return "\n".join(lines)


def _given(seats: list[Any]) -> str:
    """Which seats gave entropy, in words."""
    given = [str(s.get("seat")) for s in seats if isinstance(s, dict) and s.get("entropy") is not None]
    if not given:
        return "no seat's entropy (no seat gave any: the server's seed alone)"
    return f"the entropy of seat{'s' if len(given) > 1 else ''} {', '.join(given)}"


def parse(lines: Iterable[bytes | str]) -> Export:
    """An export from its lines; raises :class:`BadExport` for anything not a whole export."""
    values = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            values.append((number, orjson.loads(line)))
        except orjson.JSONDecodeError as e:
            raise BadExport(f"line {number} is not JSON ({e}); is the file cut short?") from None
    if not values:
        raise BadExport("the file is empty")
    signature = None
    if len(values) > 1 and isinstance(values[-1][1], dict) and set(values[-1][1]) == {signing.FIELD}:
        signature = str(values.pop()[1][signing.FIELD])
    (_, header), events = values[0], values[1:]
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BadExport(f'not a Kotlík export: its first line has no "format": "{FORMAT}"')
    if header.get("format_version") != FORMAT_VERSION:
        raise BadExport(
            f"export format version {header.get('format_version')!r} is not one this Kotlík reads "
            f"({FORMAT_VERSION})"
        )
    _fields(header, _HEADER_FIELDS, "the header")
    try:
        UUID(header["id"])
    except ValueError:
        raise BadExport(f"the header's id {header['id']!r} is not a UUID") from None
    if not (header.get("seed") is None or isinstance(header["seed"], str)):
        raise BadExport("the header's seed must be hex text or null")
    for number, event in events:
        if not isinstance(event, dict):
            raise BadExport(f"line {number} is not an event object")
        _fields(event, _EVENT_FIELDS, f"line {number}")
    last = events[-1][1]["version"] if events else 0
    if last < header["version"]:
        raise BadExport(
            f"the file is truncated: its events end at version {last}, "
            f"but the game was exported at version {header['version']}"
        )
    if last > header["version"]:
        raise BadExport(f"the file has events up to version {last}, past its header's {header['version']}")
    return Export(header, [event for _, event in events], signature)


def _fields(value: dict[str, Any], wanted: dict[str, type], where: str) -> None:
    for name, kind in wanted.items():
        if name not in value:
            raise BadExport(f"{where} has no {name!r}")
        if not isinstance(value[name], kind) or (kind is int and isinstance(value[name], bool)):
            raise BadExport(f"{where}: {name!r} is not {_kind(kind)}")


def _kind(kind: type) -> str:
    return {int: "an integer", str: "text", dict: "an object", list: "an array"}.get(kind, str(kind))


def check(export: Export) -> Verdict:
    """Re-run the game of ``export`` from its revealed seed and compare; see the module's doc.

    Stops at the first event that differs: everything after it follows from a different state.
    A log of a game still running (an operator's audit with its seed) is checked as far as it goes.
    """
    h = export.header
    if h.get("seed") is None:
        why = (
            f"the file has no seed: the game was exported while {h['status']}, before its seed was "
            "revealed; only a finished game's export can be verified"
        )
        return Verdict(export, [Mismatch(None, why)])
    try:
        seed = bytes.fromhex(h["seed"])
    except ValueError:
        return Verdict(export, [Mismatch(None, f"the seed {h['seed']!r} is not hex")])
    problems = []
    if hashlib.sha256(seed).hexdigest() != h["seed_sha256"]:
        problems.append(
            Mismatch(
                None,
                "the seed does not match the SHA-256 committed when the game was created",
                [f"sha256(seed): expected {h['seed_sha256']}, found {hashlib.sha256(seed).hexdigest()}"],
            )
        )
    try:
        key = game_key(seed, [s.get("entropy") if isinstance(s, dict) else None for s in h["seats"]])
    except BadEntropy as e:
        return Verdict(export, [*problems, Mismatch(None, f"a seat's entropy is not as given: {e}")])
    try:
        rules = games.load(h["game"], h["rules_version"])
    except (games.UnknownGame, games.UnknownRulesVersion) as e:
        return Verdict(export, [*problems, Mismatch(None, str(e).strip('"'))])
    replay = _Replay(export, rules, seed, key)
    problems += replay.run()
    return Verdict(export, problems, replay.setup_events, replay.commands, replay.undos, replay.score)


def check_file(data: bytes, key: dict[str, Any] | None = None) -> Verdict:
    """:func:`check` an export file's bytes, and its signature against ``key`` (a JWK) if given.

    With a pinned key, an unsigned file, one whose header names another key, or one whose
    signature does not match its bytes is refused, and that comes first among the problems: the
    file is not what the server signed. Without one the signature is not checked (the header's own
    key proves nothing: a forger signs with theirs), and the report says so.
    Raises :class:`BadExport` for a file that is not a whole export.
    """
    export = parse(data.splitlines())
    verdict = check(export)
    named = export.header.get("key")
    kid = named.get("kid") if isinstance(named, dict) else None
    if key is None:
        if export.signature is None:
            return replace(verdict, signed="not signed")
        return replace(verdict, signed=f"signed by key {kid}; not checked against a pinned key (--key)")
    try:
        pinned = signing.public_key(key)
        if named is not None and signing.public_key(named).public_bytes_raw() != pinned.public_bytes_raw():
            raise signing.BadSignature(f"the header names key {kid}, not the pinned key {key.get('kid')}")
        signing.check(data, pinned)
    except signing.BadSignature as e:
        problem = Mismatch(None, f"signature: {e}")
        return replace(verdict, problems=[problem, *verdict.problems], signed=f"signature refused: {e}")
    return replace(verdict, signed=f"signed by the pinned key {key.get('kid') or kid}")


class _Replay:
    """The log walked event by event beside the rules' own account of it."""

    def __init__(self, export: Export, rules: Any, seed: bytes, key: bytes) -> None:
        self.header = export.header
        self.events = export.events
        self.rules = rules
        self.seed = seed
        #: The streams' key: the seed and the seats' entropy (:func:`games.rng.game_key`).
        self.key = key
        self.state: Any = None
        self.setup_events = 0
        self.commands = 0
        self.score: dict[str, Any] | None = None
        #: Seats that left the game (resigned or forfeited), and why.
        self.left: dict[int, str] = {}
        #: The state after each command by the version it reached, for the undos to return to.
        self.states: dict[int, Any] = {}
        self.undos = 0

    def run(self) -> list[Mismatch]:
        """The first mismatch (a list of at most one), or nothing."""
        try:
            self._versions()
            self._times()
            self._created()
            self._bots()
            at = self._setup()
            self.states[at] = self.state
            while at < len(self.events) and self.events[at]["type"] not in (SCORED, RESIGNED):
                at = self._undo(at) if self.events[at]["type"] == undo.UNDONE else self._command(at)
                self.states[at] = self.state
            at = self._resignations(at)
            self._end(at)
        except _Differs as found:
            return [found.mismatch]
        return []

    def _versions(self) -> None:
        for index, event in enumerate(self.events):
            found = event["version"]
            if found > index + 1:
                raise _Differs(
                    index + 1,
                    f"version {index + 1} is missing from the log: the event after version {index} "
                    f"is version {found}",
                )
            if found < index + 1:
                raise _Differs(
                    index + 1, f"the log is out of order: the event after version {index} is version {found}"
                )
            if "seat" in event and event["seat"] != event["meta"].get("seat"):
                raise _Differs(
                    index + 1,
                    "the event names a seat its meta does not",
                    [f"seat: expected {_show(event['meta'].get('seat'))}, found {_show(event['seat'])}"],
                )
            if (
                event["meta"].get("rules_version", self.header["rules_version"])
                != self.header["rules_version"]
            ):
                raise _Differs(
                    index + 1,
                    "the event says it was decided under other rules than the game's",
                    [
                        _pair(
                            "meta.rules_version", self.header["rules_version"], event["meta"]["rules_version"]
                        )
                    ],
                )
            if "command" in event and event["command"] != event["meta"].get("command"):
                raise _Differs(
                    index + 1,
                    "the event names a command its meta does not",
                    _diff(event["meta"].get("command"), event["command"], "command"),
                )

    def _times(self) -> None:
        """Every event recorded no earlier than the one before it, within the game's creation and
        end: a log whose events were reordered, or a header whose times were rewritten, shows here."""
        h = self.header
        created = _when(h.get("created_at"), "the header's created_at", None)
        finished = _when(h.get("finished_at"), "the header's finished_at", None)
        before: datetime | None = created
        for event in self.events:
            at = _when(event.get("recorded_at"), "recorded_at", event["version"])
            if at is None:
                continue
            if before is not None and at < before:
                raise _Differs(
                    event["version"],
                    "the event is recorded before the one before it (or before the game was created)",
                    [_pair("recorded_at", f"{before.isoformat()} or later", at.isoformat())],
                )
            before = at
        if finished is not None and before is not None and finished < before:
            raise _Differs(
                None,
                "the game finished before its last event was recorded",
                [_pair("finished_at", f"{before.isoformat()} or later", finished.isoformat())],
            )

    def _bots(self) -> None:
        """Each command played by the seat's bot exactly when the seat is a bot's: a bot seat
        rewritten as a person's (or a person's as a bot's) is refused where it played. A person's
        seat that ran out of time is played by the timeout bot, and its meta says ``timed_out``."""
        seats = self.header["seats"]
        for event in self.events:
            meta = event["meta"]
            seat = meta.get("seat")
            if "at" not in meta or "command" not in meta or not isinstance(seat, int):
                continue
            if not 0 <= seat < len(seats) or not isinstance(seats[seat], dict):
                raise _Differs(event["version"], f"the command names seat {seat!r}, which the game has not")
            bot, played = seats[seat].get("bot"), meta.get("bot")
            if bot is not None and played != bot:
                raise _Differs(
                    event["version"],
                    f"seat {seat} is the bot {bot!r}'s, but this command was not played by it",
                    [_pair("meta.bot", bot, played)],
                )
            if bot is None and played is not None and not meta.get("timed_out"):
                raise _Differs(
                    event["version"],
                    f"seat {seat} is a person's, but this command was played by the bot {played!r}",
                    [_pair("meta.bot", None, played)],
                )

    def _created(self) -> None:
        h = self.header
        expected = {
            "game": h["game"],
            "seats": h["seats"],
            "options": h["options"],
            "seed_sha256": h["seed_sha256"],
            "rules_version": h["rules_version"],
        }
        first = self.events[0] if self.events else {"type": None, "data": {}}
        if first["type"] != CREATED:
            raise _Differs(
                1, f"the log does not start with {CREATED}", [_pair("type", CREATED, first["type"])]
            )
        found = {k: v for k, v in first["data"].items() if k not in _OPENING_FIELDS}
        found["seats"] = self._seated(first["data"]["seats"])
        if found != expected:
            raise _Differs(1, "the game's creation does not match the header", _diff(expected, found))

    def _seated(self, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The seats at creation with the open ones taken by the ``kotlik.SeatTaken`` after it."""
        seats = [dict(s) for s in seats]
        for event in self.events[1 : 1 + self._taken()]:
            d = event["data"]
            if not 0 <= d.get("seat", -1) < len(seats):
                raise _Differs(event["version"], "a seat taken that the game does not have")
            seats[d["seat"]] = taken_seat(d)
        return seats

    def _taken(self) -> int:
        """How many open seats were taken between creation and setup."""
        count = 0
        while 1 + count < len(self.events) and self.events[1 + count]["type"] == TAKEN:
            count += 1
        return count

    def _setup(self) -> int:
        """Re-run setup; the index of the first event after it."""
        h = self.header
        try:
            opening = _as_stored(
                self.rules.setup(dict(h["options"]), len(h["seats"]), Rng(self.key, "setup"))
            )
        except Exception as e:  # forged options may break an engine in any way; it is still a verdict
            raise _Differs(2, f"the rules refuse the game's options: {_reason(e)}") from None
        start = 1 + self._taken()
        for offset, expected in enumerate(opening):
            index = start + offset
            found = self._body(index, f"setup, from the seed's {_q('setup')} stream")
            if "at" in self.events[index]["meta"]:
                raise _Differs(index + 1, "setup ends early: this event says a command caused it")
            if found != expected:
                raise _Differs(
                    index + 1, "setup re-run from the seed gives another event", _diff(expected, found)
                )
            self.state = self.rules.evolve(self.state, found)
        self.setup_events = len(opening)
        return start + len(opening)

    def _command(self, index: int) -> int:
        """Decide the command behind the event at ``index`` again; the index after its events."""
        event = self.events[index]
        version, meta = event["version"], event["meta"]
        if event["type"].startswith(PLATFORM):
            raise _Differs(version, f"a platform event {event['type']} in the middle of the game")
        if "at" not in meta or "seat" not in meta or "command" not in meta:
            raise _Differs(version, "the event names no command (its meta has no at, seat and command)")
        at, seat, command = meta["at"], meta["seat"], meta["command"]
        if at != version - 1:
            raise _Differs(version, f"the command was decided at version {at}, but its events must follow it")
        label = f"v{at}"
        said = f"seat {seat}'s command {_show(command)} decided at version {at}"
        if self.rules.is_over(self.state):
            raise _Differs(version, f"{said} comes after the game was over")
        try:
            decided = _as_stored(self.rules.decide(self.state, seat, command, Rng(self.key, label)))
        except Exception as e:  # a forged command may break an engine in any way; it is still a verdict
            raise _Differs(version, f"the rules refuse {said}: {_reason(e)}") from None
        if not decided:
            raise _Differs(version, f"{said} changes nothing under these rules")
        for offset, expected in enumerate(decided):
            at_index = index + offset
            found = self._body(at_index, said)
            meta = self.events[at_index]["meta"]
            if meta.get("at") != at:
                raise _Differs(at_index + 1, f"{said} gives another event here", _diff(expected, found))
            if (meta.get("seat"), meta.get("command")) != (seat, command):
                named = {"seat": meta.get("seat"), "command": meta.get("command")}
                raise _Differs(
                    at_index + 1,
                    "the event names another seat or command than the rest of its command's events",
                    _diff({"seat": seat, "command": command}, named),
                )
            if found != expected:
                raise _Differs(at_index + 1, f"{said} gives another event", _diff(expected, found))
        after = index + len(decided)
        if after < len(self.events) and self.events[after]["meta"].get("at") == at:
            extra = self.events[after]
            raise _Differs(after + 1, f"{said} gives no such event", [f"found {_show(_body(extra))}"])
        for event in self.events[index:after]:
            self.state = self.rules.evolve(self.state, _body(event))
        self.commands += 1
        return after

    def _undo(self, index: int) -> int:
        """Check the undo at ``index`` against what the log before it allows; the index after it."""
        event = self.events[index]
        version, meta = event["version"], event["meta"]
        seat = meta.get("seat")
        if meta.get("at") != version - 1 or meta.get("command") != {"type": undo.COMMAND}:
            raise _Differs(
                version, 'an undo must be the command {"type": "undo"} decided at the version before it'
            )
        if not isinstance(seat, int) or not 0 <= seat < len(self.header["seats"]):
            raise _Differs(version, f"an undo by seat {seat!r}, which the game has not")
        try:
            undo.check_turn(self.rules, self.state, seat)
            taken = undo.target(undo.entries(self.events[:index]), version - 1, seat, self.rules)
        except undo.Refused as refused:
            raise _Differs(version, f"seat {seat}'s undo is not allowed here: {refused.reason}") from None
        if event["data"] != taken.event():
            raise _Differs(
                version, f"seat {seat}'s undo takes back another command", _diff(taken.event(), event["data"])
            )
        if taken.to not in self.states:
            raise _Differs(version, f"the undo returns to version {taken.to}, where no command ended")
        self.state = self.states[taken.to]
        self.undos += 1
        return index + 1

    def _resignations(self, index: int) -> int:
        """Seats leaving a running game (``kotlik.SeatResigned``); only the scoring may follow."""
        while index < len(self.events) and self.events[index]["type"] == RESIGNED:
            event = self.events[index]
            seat, reason = event["data"].get("seat"), event["data"].get("reason")
            if self.rules.is_over(self.state):
                raise _Differs(event["version"], "a seat resigns after the game was over")
            if not isinstance(seat, int) or not 0 <= seat < len(self.header["seats"]) or seat in self.left:
                raise _Differs(event["version"], f"seat {seat!r} cannot resign here")
            if reason not in REASONS:
                raise _Differs(event["version"], f"no such way to leave a game: {reason!r}")
            self.left[seat] = reason
            index += 1
        if self.left and index < len(self.events) and self.events[index]["type"] != SCORED:
            raise _Differs(self.events[index]["version"], "the game goes on after a seat resigned")
        return index

    def _end(self, index: int) -> None:
        if index >= len(self.events):
            if self.header["status"] == "finished":
                raise _Differs(index + 1, f"the game is finished but its log has no {SCORED}")
            return  # a running game, checked as far as it goes
        event = self.events[index]
        if self.left:
            seats = len(self.header["seats"])
            self.score = _as_stored([resignation.result(self.rules, self.state, seats, self.left)])[0]
        elif not self.rules.is_over(self.state):
            raise _Differs(event["version"], "the game is scored before its rules say it is over")
        else:
            self.score = _as_stored([self.rules.score(self.state)])[0]
        expected = {"score": self.score, "seed": self.seed.hex()}
        if event["data"] != expected:
            raise _Differs(
                event["version"], "the score of the refolded game differs", _diff(expected, event["data"])
            )
        if index + 1 < len(self.events):
            raise _Differs(index + 2, f"events after {SCORED}")
        if self.header.get("result") not in (None, self.score):
            raise _Differs(
                None,
                "the header's result is not the recomputed score",
                _diff(self.score, self.header["result"]),
            )

    def _body(self, index: int, said: str) -> dict[str, Any]:
        if index >= len(self.events):
            raise _Differs(index + 1, f"the log ends where {said} gives another event")
        return _body(self.events[index])


#: Lines of ``how`` kept per mismatch: a whole reshuffled grid differs in every cell.
HOW_LINES = 6


class _Differs(Exception):
    def __init__(self, version: int | None, what: str, how: list[str] | None = None) -> None:
        super().__init__(what)
        how = how or []
        if len(how) > HOW_LINES:
            how = [*how[:HOW_LINES], f"… and {len(how) - HOW_LINES} more differences"]
        self.mismatch = Mismatch(version, what, how)


def _reason(error: Exception) -> str:
    return error.reason if isinstance(error, games.GameError) else f"{type(error).__name__}: {error}"


def _when(value: Any, what: str, version: int | None) -> datetime | None:
    """An RFC 3339 time from the file (``None`` when absent); one without a zone is UTC."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise _Differs(version, f"{what} {value!r} is not an RFC 3339 time") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _body(event: dict[str, Any]) -> dict[str, Any]:
    return {"type": event["type"], **event["data"]}


def _as_stored(events: list[Any]) -> list[Any]:
    """Values as they come back from JSON (tuples as lists), as the log holds them."""
    return list(orjson.loads(orjson.dumps(events, option=orjson.OPT_NON_STR_KEYS)))


def _diff(expected: Any, found: Any, path: str = "") -> list[str]:
    """How ``found`` differs from ``expected``, one ``path: expected X, found Y`` line each."""
    if isinstance(expected, dict) and isinstance(found, dict):
        out = []
        for key in [*expected, *(k for k in found if k not in expected)]:
            where = f"{path}.{key}" if path else str(key)
            if key not in found:
                out.append(f"{where}: expected {_show(expected[key])}, found nothing")
            elif key not in expected:
                out.append(f"{where}: expected nothing, found {_show(found[key])}")
            else:
                out += _diff(expected[key], found[key], where)
        return out
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        return [
            line
            for i, (a, b) in enumerate(zip(expected, found, strict=True))
            for line in _diff(a, b, f"{path}[{i}]")
        ]
    return [] if expected == found else [_pair(path or "value", expected, found)]


def _pair(path: str, expected: Any, found: Any) -> str:
    return f"{path}: expected {_show(expected)}, found {_show(found)}"


def _show(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _q(text: str) -> str:
    return f'"{text}"'
