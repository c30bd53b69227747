#!/usr/bin/python3
"""A linearizability checker for histories recorded against Sibyl's lightweight transactions.

The adversary (a Jepsen-like harness) runs concurrent clients against a cluster, records what
each client asked for and what it was told, and hands the history to this module, which decides
whether some single sequential order of the operations explains every response. Pure Python 3.11,
standard library only.

History format
--------------
A history is a list of events (or a JSON-lines file of them, see `load_history`), in the
real-time order in which the recorder saw them:

    {"process": 3, "type": "invoke", "f": "write", "key": "k1", "value": 7, "time": 12.5}
    {"process": 3, "type": "ok",     "f": "write", "key": "k1", "value": 7, "time": 13.1}

- ``process``: the client issuing the operation. A process has at most one operation open: an
  ``invoke`` is completed by the next ``ok``/``fail``/``info`` of the same process. A completion
  may repeat ``f`` and ``key``; if it does they must match the invocation's.
- ``type``:
  - ``invoke``: the request was sent.
  - ``ok``: the operation took effect exactly once, at some instant between its invocation and
    this completion; for reads the completion's ``value`` is what was read.
  - ``fail``: the operation certainly had no effect; it is dropped entirely. Record ``fail`` only
    when that is certain (a request rejected before it reached any replica, say).
  - ``info``: indeterminate (a timeout, a lost connection, a coordinator that crashed). The
    operation may have taken effect at any instant after its invocation, even long after the
    client gave up, or never. A process whose invocation has no completion at all (the client
    itself crashed) is treated the same way.
- ``key``: operations on different keys are independent (see the algorithm); any JSON value.
- ``value``: per model, below. ``time`` is informational only: the list's order is the
  real-time order, so a history merged from several recorders must be sorted before checking.

Why indeterminate operations are never assumed to have failed: a Cassandra client that times out
on a lightweight transaction knows nothing. The Paxos round may have been accepted by a quorum and
be completed by the next proposer minutes later. Treating a timeout as a failure would let the
checker condemn a correct cluster (a later read sees the "failed" write) and, worse, treating it
as a success would let it excuse a broken one. So an ``info`` operation is given a return time of
+infinity: it may be linearized at any point after its invocation, and it need not be linearized
at all.

Models
------
A model is an object with

- ``initial()``: the state before any operation (hashable);
- ``prepare(op)``: validates one `Operation` and returns the model's compiled form of it (with
  JSON values frozen into hashable ones), or None when the operation constrains nothing and can
  be left out (an indeterminate read);
- ``step(state, prepared) -> (accepted, next_state)``: deterministic. For an ``ok`` operation
  the recorded output is part of ``prepared``, so ``accepted`` says whether that output is
  possible in ``state``. An indeterminate operation is compiled as "it took effect"; not taking
  effect is the search's business (its return at infinity lets it stay unlinearized).

`CasRegister` (one register per key; None means "no row"):

=========  ========================  ==========================================================
f          invoke value              ok completion value
=========  ========================  ==========================================================
read       (ignored)                 the value read, null when the row is absent
write      v                         (ignored); sets v (writing null deletes the row)
cas        [old, new]                [old, new, applied]: applied true requires the current
                                     value to equal old and sets new; applied false requires it
                                     to differ from old and changes nothing
insert     v                         [v, applied]: INSERT ... IF NOT EXISTS; applied true
                                     requires no row and sets v; applied false requires a row
=========  ========================  ==========================================================

``[applied] = false`` is a definite outcome ("the condition did not hold"), recorded as ``ok``
with applied false, never as ``fail``. An ``info`` cas or insert may have applied or not; a
non-applied one has no effect, so "not applied" and "never took effect" are the same thing and
the model compiles an indeterminate cas/insert as the applied case.

`UniqueInsertSet` (one id per key, initially absent): ``insert`` (invoke value ignored; ok value
applied, a bool: true requires the id absent and adds it, false requires it present) and
``read`` (ok value: whether the id is present). "Each id is won by exactly one inserter" falls
out: a second applied insert of the same id is not linearizable.

JSON values compare as JSON does: 1 equals 1.0, but true does not equal 1.

Algorithm
---------
Wing and Gong's search with Lowe's memoization ("WGL"), run separately per key: linearizability
is compositional (a history is linearizable iff its restriction to each object is), so splitting
by key is both sound and what keeps the search small. One key failing fails the whole history.

For one key: invocations are paired with completions; ``fail`` operations are dropped; ``ok``
operations return at their completion's position, indeterminate ones at +infinity (after every
real return). Call and return entries form a doubly linked list in history order. The search
walks it from the head, keeping the model state, the set of linearized operations (a Python int
used as a bitset) and a stack of choices:

- at a call entry: if the model accepts the operation in the current state and the pair
  (linearized set plus this operation, new state) has not been seen before, record the pair,
  push (entry, old state), adopt the new state, lift the operation's call and return entries out
  of the list and restart from the head. Otherwise move to the next entry.
- at a return entry (necessarily of an ``ok`` operation not yet linearized): its deadline has
  passed, so an earlier choice was wrong. With an empty stack the history is not linearizable;
  otherwise pop, restore the state, put the entries back and continue after that call.
- once every ``ok`` operation is linearized, the remaining entries are indeterminate operations,
  which may simply never have taken effect: the history is linearizable.

The memo of (linearized set, state) pairs is what makes this practical: two orders that reach
the same state with the same operations done have the same futures, so each is explored once.
The search is still exponential in the worst case, so it gives up after ``max_steps`` loop
iterations per key and reports ``valid=None`` ("unknown"), never True.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Protocol, Sequence

DEFAULT_MAX_STEPS = 5_000_000


class HistoryError(ValueError):
    """The history is malformed: the checker refuses to guess what the recorder meant."""


# --- JSON values as hashable states ------------------------------------------------------------


class _JsonBool:
    """A frozen JSON boolean. Python's True == 1 and hash(True) == hash(1); JSON's true is not 1,
    and a register holding 1 must not be "read" as true."""

    __slots__ = ("value",)

    def __init__(self, value: bool) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "true" if self.value else "false"


_JSON_TRUE = _JsonBool(True)
_JSON_FALSE = _JsonBool(False)


def freeze(value: Any) -> Hashable:
    """Turns a JSON value into a hashable one with JSON's equality (lists become tuples, objects
    frozensets of items, booleans singletons distinct from 0 and 1)."""
    if value is True:
        return _JSON_TRUE
    if value is False:
        return _JSON_FALSE
    if isinstance(value, list):
        return tuple(freeze(item) for item in value)
    if isinstance(value, dict):
        return frozenset((name, freeze(item)) for name, item in value.items())
    return value


def thaw(value: Any) -> Any:
    """The inverse of `freeze`, for printing states and keys."""
    if isinstance(value, _JsonBool):
        return value.value
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    if isinstance(value, frozenset):
        return {name: thaw(item) for name, item in sorted(value, key=lambda pair: pair[0])}
    return value


# --- Operations --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Operation:
    """One invocation paired with its completion (``fail`` operations never become one)."""

    index: int  # position of the invoke event in the history
    process: Hashable
    f: str
    key: Hashable  # frozen
    value: Any  # the invoke event's value, as recorded
    output: Any  # the ok completion's value; None when indeterminate
    status: str  # "ok" or "info" (an info completion or none at all)
    complete_index: int | None  # position of the completion event; None when there was none

    @property
    def indeterminate(self) -> bool:
        return self.status != "ok"


def pair_operations(history: Iterable[dict]) -> list[Operation]:
    """Pairs each invoke with its process's next completion, drops ``fail`` operations, and
    returns the rest ordered by invocation. Raises HistoryError on malformed histories."""
    open_invokes: dict[Hashable, tuple[int, dict]] = {}
    operations: list[Operation] = []
    for position, event in enumerate(history):
        if not isinstance(event, dict):
            raise HistoryError(f"event {position}: not an object: {event!r}")
        if "process" not in event or "type" not in event:
            raise HistoryError(f"event {position}: needs 'process' and 'type': {event!r}")
        process = freeze(event["process"])
        kind = event["type"]
        if kind == "invoke":
            if process in open_invokes:
                raise HistoryError(
                    f"event {position}: process {event['process']!r} invoked while its operation "
                    f"from event {open_invokes[process][0]} is still open"
                )
            if not isinstance(event.get("f"), str):
                raise HistoryError(f"event {position}: invoke needs a string 'f': {event!r}")
            open_invokes[process] = (position, event)
        elif kind in ("ok", "fail", "info"):
            opened = open_invokes.pop(process, None)
            if opened is None:
                raise HistoryError(
                    f"event {position}: {kind} for process {event['process']!r}, which has no "
                    "open invocation"
                )
            invoke_position, invoke = opened
            for name in ("f", "key"):
                if name in event and freeze(event[name]) != freeze(invoke.get(name)):
                    raise HistoryError(
                        f"event {position}: completion's {name} {event[name]!r} differs from "
                        f"the invocation's (event {invoke_position}) {invoke.get(name)!r}"
                    )
            if kind != "fail":
                operations.append(
                    _operation(invoke_position, invoke, kind, event.get("value"), position)
                )
        else:
            raise HistoryError(f"event {position}: unknown type {kind!r}")
    for invoke_position, invoke in open_invokes.values():
        operations.append(_operation(invoke_position, invoke, "info", None, None))
    operations.sort(key=lambda op: op.index)
    return operations


def _operation(
    invoke_position: int, invoke: dict, status: str, output: Any, complete_position: int | None
) -> Operation:
    return Operation(
        index=invoke_position,
        process=invoke["process"],
        f=invoke["f"],
        key=freeze(invoke.get("key")),
        value=invoke.get("value"),
        output=output if status == "ok" else None,
        status=status,
        complete_index=complete_position,
    )


def load_history(path: str) -> list[dict]:
    """Reads a JSON-lines history (one event per line; blank lines are skipped)."""
    events = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise HistoryError(f"{path}:{number}: not JSON: {error}") from None
    return events


# --- Models ------------------------------------------------------------------------------------


class Model(Protocol):
    """What the search needs of a model; see the module docstring."""

    name: str

    def initial(self) -> Hashable: ...

    def prepare(self, op: Operation) -> Any | None: ...

    def step(self, state: Hashable, prepared: Any) -> tuple[bool, Hashable]: ...


def _applied_flag(op: Operation, flag: Any) -> bool:
    if not isinstance(flag, bool):
        raise HistoryError(f"event {op.index}: {op.f}'s applied flag must be a bool: {flag!r}")
    return flag


class CasRegister:
    """One register per key, as a row read and written with lightweight transactions."""

    name = "cas-register"

    def initial(self) -> Hashable:
        return None

    def prepare(self, op: Operation) -> tuple | None:
        if op.f == "read":
            # An indeterminate read changes nothing and reports nothing: it constrains nothing.
            return None if op.indeterminate else ("read", freeze(op.output))
        if op.f == "write":
            return ("write", freeze(op.value))
        if op.f == "cas":
            if not (isinstance(op.value, list) and len(op.value) == 2):
                raise HistoryError(f"event {op.index}: cas needs value [old, new]: {op.value!r}")
            old, new = freeze(op.value[0]), freeze(op.value[1])
            if op.indeterminate:
                return ("cas-applied", old, new)
            output = op.output
            if not (isinstance(output, list) and len(output) == 3):
                raise HistoryError(
                    f"event {op.index}: ok cas needs value [old, new, applied]: {output!r}"
                )
            if (freeze(output[0]), freeze(output[1])) != (old, new):
                raise HistoryError(
                    f"event {op.index}: cas completion {output!r} does not match its "
                    f"invocation {op.value!r}"
                )
            if _applied_flag(op, output[2]):
                return ("cas-applied", old, new)
            return ("cas-rejected", old)
        if op.f == "insert":
            value = freeze(op.value)
            if op.indeterminate:
                return ("insert-applied", value)
            output = op.output
            if not (isinstance(output, list) and len(output) == 2):
                raise HistoryError(
                    f"event {op.index}: ok insert needs value [v, applied]: {output!r}"
                )
            if freeze(output[0]) != value:
                raise HistoryError(
                    f"event {op.index}: insert completion {output!r} does not match its "
                    f"invocation {op.value!r}"
                )
            if _applied_flag(op, output[1]):
                return ("insert-applied", value)
            return ("insert-rejected",)
        raise HistoryError(f"event {op.index}: {self.name} has no operation {op.f!r}")

    def step(self, state: Hashable, prepared: tuple) -> tuple[bool, Hashable]:
        kind = prepared[0]
        if kind == "read":
            return state == prepared[1], state
        if kind == "write":
            return True, prepared[1]
        if kind == "cas-applied":
            return (True, prepared[2]) if state == prepared[1] else (False, state)
        if kind == "cas-rejected":
            return state != prepared[1], state
        if kind == "insert-applied":
            return (True, prepared[1]) if state is None else (False, state)
        return state is not None, state  # insert-rejected


class UniqueInsertSet:
    """Per key, whether one id has been inserted (INSERT ... IF NOT EXISTS of a unique id)."""

    name = "unique-insert"

    def initial(self) -> Hashable:
        return False

    def prepare(self, op: Operation) -> tuple | None:
        if op.f == "insert":
            if op.indeterminate:
                return ("insert", True)
            return ("insert", _applied_flag(op, op.output))
        if op.f == "read":
            if op.indeterminate:
                return None
            if not isinstance(op.output, bool):
                raise HistoryError(f"event {op.index}: read's value must be a bool: {op.output!r}")
            return ("read", op.output)
        raise HistoryError(f"event {op.index}: {self.name} has no operation {op.f!r}")

    def step(self, state: Hashable, prepared: tuple) -> tuple[bool, Hashable]:
        kind, flag = prepared
        if kind == "insert":
            if flag:
                return (True, True) if not state else (False, state)
            return bool(state), state
        return state == flag, state  # read


MODELS: dict[str, Callable[[], Model]] = {
    CasRegister.name: CasRegister,
    UniqueInsertSet.name: UniqueInsertSet,
}


# --- Results -----------------------------------------------------------------------------------


@dataclass
class Counterexample:
    """Why a key is not linearizable: after the longest linearization found (`linearized_prefix`,
    history indices of invocations, in linearization order, ending in `state`), the search
    reached the return of `op` without any way to linearize it first."""

    op: Operation
    linearized_prefix: list[int]
    state: Any  # thawed to JSON

    def describe(self) -> str:
        op = self.op
        shown = op.output if op.f == "read" else op.value
        return (
            f"could not linearize op at event {op.index} (process {op.process!r}, {op.f} "
            f"{json.dumps(shown)}, completed at event {op.complete_index}) after linearizing "
            f"{len(self.linearized_prefix)} ops {self.linearized_prefix} (state "
            f"{json.dumps(self.state)})"
        )


@dataclass
class CheckResult:
    """The verdict: valid True (linearizable), False (not), or None (gave up at max_steps).

    For `check`, `key` names the first key (by first invocation) that is invalid, else the first
    unknown one, else None; `per_key` holds each key's own result."""

    valid: bool | None
    key: Any = None
    ops_checked: int = 0
    counterexample: Counterexample | None = None
    steps: int = 0
    per_key: dict[Any, CheckResult] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        return {True: "valid", False: "INVALID", None: "unknown"}[self.valid]


# --- The search --------------------------------------------------------------------------------


class _Entry:
    """A call or return in the doubly linked list the search lifts operations out of."""

    __slots__ = ("op_id", "op", "prepared", "is_call", "definite", "match", "prev", "next")

    def __init__(self, op_id: int, op: Operation | None, prepared: Any, is_call: bool) -> None:
        self.op_id = op_id
        self.op = op
        self.prepared = prepared
        self.is_call = is_call
        self.definite = op is not None and not op.indeterminate
        self.match: _Entry | None = None
        self.prev: _Entry | None = None
        self.next: _Entry | None = None


def _build_entries(ops: Sequence[Operation], prepared: Sequence[Any]) -> _Entry:
    """Returns the head sentinel of the list: calls at their invocation, returns at their
    completion, indeterminate returns after everything (ordered among themselves by call)."""
    placed = []
    for op_id, (op, compiled) in enumerate(zip(ops, prepared)):
        call = _Entry(op_id, op, compiled, True)
        ret = _Entry(op_id, op, compiled, False)
        call.match, ret.match = ret, call
        placed.append(((op.index, 0, 0), call))
        if op.indeterminate:
            placed.append(((math.inf, 1, op.index), ret))
        else:
            if op.complete_index is None or op.complete_index <= op.index:
                raise HistoryError(f"event {op.index}: ok operation completes before it starts")
            placed.append(((op.complete_index, 1, 0), ret))
    placed.sort(key=lambda pair: pair[0])
    head = _Entry(-1, None, None, False)
    tail = _Entry(-1, None, None, False)
    previous = head
    for _, entry in placed:
        previous.next, entry.prev = entry, previous
        previous = entry
    previous.next, tail.prev = tail, previous
    return head


def _lift(call: _Entry) -> None:
    call.prev.next = call.next
    call.next.prev = call.prev
    ret = call.match
    ret.prev.next = ret.next
    ret.next.prev = ret.prev


def _unlift(call: _Entry) -> None:
    # Exactly the reverse of _lift; valid because lifts are undone in LIFO order.
    ret = call.match
    ret.prev.next = ret
    ret.next.prev = ret
    call.prev.next = call
    call.next.prev = call


def check_key(
    ops: Sequence[Operation] | Sequence[dict],
    model: Model,
    max_steps: int | None = DEFAULT_MAX_STEPS,
) -> CheckResult:
    """Checks operations as a single object, ignoring their keys (use `check` to split by key).
    `ops` are Operations or raw history events; `model` is a model instance."""
    if ops and isinstance(ops[0], dict):
        ops = pair_operations(ops)
    keys = {op.key for op in ops}
    key = next(iter(keys)) if len(keys) == 1 else None
    kept: list[Operation] = []
    prepared: list[Any] = []
    for op in sorted(ops, key=lambda op: op.index):
        compiled = model.prepare(op)
        if compiled is not None:
            kept.append(op)
            prepared.append(compiled)
    valid, steps, counterexample = _search(kept, prepared, model, max_steps)
    return CheckResult(
        valid=valid, key=key, ops_checked=len(kept), counterexample=counterexample, steps=steps
    )


def _search(
    ops: Sequence[Operation], prepared: Sequence[Any], model: Model, max_steps: int | None
) -> tuple[bool | None, int, Counterexample | None]:
    head = _build_entries(ops, prepared)
    step = model.step
    remaining = sum(1 for op in ops if not op.indeterminate)
    state = model.initial()
    linearized = 0
    seen: set[tuple[int, Hashable]] = set()
    stack: list[tuple[_Entry, Hashable]] = []
    steps = 0
    best: Counterexample | None = None
    best_depth = -1
    limit = math.inf if max_steps is None else max_steps

    entry = head.next
    while remaining:
        steps += 1
        if steps > limit:
            return None, steps - 1, None
        if entry.is_call:
            accepted, next_state = step(state, entry.prepared)
            if accepted:
                candidate = (linearized | (1 << entry.op_id), next_state)
                if candidate not in seen:
                    seen.add(candidate)
                    stack.append((entry, state))
                    linearized, state = candidate
                    _lift(entry)
                    if entry.definite:
                        remaining -= 1
                    entry = head.next
                    continue
            entry = entry.next
            continue
        # A return entry of an unlinearized op. Every definite return precedes every infinite one
        # and the walk only resumes before a pending definite return, so this one is definite:
        # its op's deadline has passed and an earlier choice must be undone.
        if len(stack) > best_depth:
            best_depth = len(stack)
            best = Counterexample(
                op=entry.op,
                linearized_prefix=[pushed.op.index for pushed, _ in stack],
                state=thaw(state),
            )
        if not stack:
            return False, steps, best
        entry, state = stack.pop()
        linearized &= ~(1 << entry.op_id)
        _unlift(entry)
        if entry.definite:
            remaining += 1
        entry = entry.next
    return True, steps, None


def check(
    history: Iterable[dict],
    model_factory: Callable[[], Model],
    max_steps: int | None = DEFAULT_MAX_STEPS,
) -> CheckResult:
    """Checks a whole history: each key separately (with its own model from `model_factory` and
    its own `max_steps` budget). Invalid if any key is invalid; else unknown if any key is
    unknown; else valid."""
    by_key: dict[Hashable, list[Operation]] = {}
    for op in pair_operations(history):
        by_key.setdefault(op.key, []).append(op)
    per_key = {key: check_key(ops, model_factory(), max_steps) for key, ops in by_key.items()}
    for key, result in per_key.items():
        result.key = key
    invalid = [key for key, result in per_key.items() if result.valid is False]
    unknown = [key for key, result in per_key.items() if result.valid is None]
    if invalid:
        valid, key = False, invalid[0]
    elif unknown:
        valid, key = None, unknown[0]
    else:
        valid, key = True, None
    return CheckResult(
        valid=valid,
        key=key,
        ops_checked=sum(result.ops_checked for result in per_key.values()),
        counterexample=per_key[key].counterexample if key in per_key else None,
        steps=sum(result.steps for result in per_key.values()),
        per_key=per_key,
    )


# --- Command line ------------------------------------------------------------------------------

EXIT_VALID, EXIT_INVALID, EXIT_UNKNOWN, EXIT_BAD_INPUT = 0, 1, 2, 3


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        # argparse exits 2 on usage errors, which would read as "unknown".
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Prints the verdict per key; returns 0 valid, 1 invalid, 2 unknown, 3 bad input."""
    parser = _ArgumentParser(description="Check a JSON-lines history for linearizability.")
    parser.add_argument("history", help="JSON-lines file, one event per line")
    parser.add_argument("--model", choices=sorted(MODELS), default=CasRegister.name)
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        help="search steps per key before giving up with 'unknown' (default %(default)s)",
    )
    args = parser.parse_args(argv)
    try:
        result = check(load_history(args.history), MODELS[args.model], args.max_steps)
    except (OSError, HistoryError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for key, per_key in result.per_key.items():
        line = f"key {json.dumps(thaw(key))}: {per_key.verdict} ({per_key.ops_checked} ops, "
        line += f"{per_key.steps} steps)"
        if per_key.counterexample is not None:
            line += ": " + per_key.counterexample.describe()
        print(line)
    print(f"overall: {result.verdict} ({len(result.per_key)} keys, {result.ops_checked} ops)")
    return {True: EXIT_VALID, False: EXIT_INVALID, None: EXIT_UNKNOWN}[result.valid]


if __name__ == "__main__":
    sys.exit(main())
