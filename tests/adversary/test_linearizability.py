"""Tests of the linearizability checker on hand-made and generated histories.

Every test asserts an exact verdict (True, False or None), so none passes by the checker
answering "unknown" or by a history that constrains nothing.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from linearizability import (  # noqa: E402
    CasRegister,
    HistoryError,
    UniqueInsertSet,
    check,
    check_key,
    load_history,
    main,
    pair_operations,
)

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "linearizability.py")


# --- Event builders: one line per event keeps the histories readable -----------------------------


def invoke(process, f, value=None, key="k"):
    return {"process": process, "type": "invoke", "f": f, "key": key, "value": value}


def ok(process, f, value=None, key="k"):
    return {"process": process, "type": "ok", "f": f, "key": key, "value": value}


def info(process, f, value=None, key="k"):
    return {"process": process, "type": "info", "f": f, "key": key, "value": value}


def fail(process, f, value=None, key="k"):
    return {"process": process, "type": "fail", "f": f, "key": key, "value": value}


def write(process, value, key="k"):
    return [invoke(process, "write", value, key), ok(process, "write", value, key)]


def read(process, value, key="k"):
    return [invoke(process, "read", None, key), ok(process, "read", value, key)]


def register(history):
    return check(history, CasRegister)


def unique(history):
    return check(history, UniqueInsertSet)


# --- Valid histories ---------------------------------------------------------------------------


def test_empty_history_is_valid():
    result = register([])
    assert result.valid is True
    assert result.ops_checked == 0


def test_sequential_writes_and_reads():
    history = read(0, None) + write(0, 1) + read(1, 1) + write(1, 2) + read(0, 2)
    result = register(history)
    assert result.valid is True
    assert result.ops_checked == 5


@pytest.mark.parametrize("seen", [1, 2])
def test_read_concurrent_with_write_sees_old_or_new(seen):
    history = write(0, 1) + [
        invoke(0, "write", 2),
        invoke(1, "read"),
        ok(1, "read", seen),
        ok(0, "write", 2),
    ]
    assert register(history).valid is True


@pytest.mark.parametrize("seen", [1, 2, 3])
def test_read_overlapping_two_concurrent_writes(seen):
    history = write(0, 1) + [
        invoke(0, "write", 2),
        invoke(1, "write", 3),
        invoke(2, "read"),
        ok(2, "read", seen),
        ok(0, "write", 2),
        ok(1, "write", 3),
    ]
    assert register(history).valid is True


def test_long_read_may_see_intermediate_of_two_sequential_writes():
    history = (
        write(0, 1)
        + [invoke(2, "read")]
        + write(0, 2)
        + write(0, 3)
        + [ok(2, "read", 2)]
        + read(1, 3)
    )
    assert register(history).valid is True


@pytest.mark.parametrize("completion", ["info", "none"])
def test_indeterminate_write_later_observed(completion):
    history = write(0, 1) + [invoke(1, "write", 2)]
    if completion == "info":
        history.append(info(1, "write", 2))
    history += read(0, 1) + read(2, 2) + read(0, 2)
    result = register(history)
    assert result.valid is True
    assert result.ops_checked == 5


def test_indeterminate_write_never_observed():
    history = write(0, 1) + [invoke(1, "write", 2), info(1, "write", 2)] + read(0, 1) + read(2, 1)
    assert register(history).valid is True


def test_indeterminate_write_takes_effect_long_after_client_gave_up():
    # The write's Paxos round is finished by a later proposer: 1 is seen, then the late 2.
    history = (
        write(0, 1) + [invoke(1, "write", 2), info(1, "write", 2)] + read(0, 1) + read(0, 2)
    )
    assert register(history).valid is True


def test_cas_chain():
    history = (
        write(0, 0)
        + [invoke(1, "cas", [0, 1]), ok(1, "cas", [0, 1, True])]
        + [invoke(2, "cas", [1, 2]), ok(2, "cas", [1, 2, True])]
        + [invoke(0, "cas", [0, 5]), ok(0, "cas", [0, 5, False])]
        + read(1, 2)
    )
    assert register(history).valid is True


def test_concurrent_cas_chain_forces_an_order():
    # Both applied: only 0 -> 1 -> 2 explains that, though [1, 2] was invoked first.
    history = write(0, 0) + [
        invoke(2, "cas", [1, 2]),
        invoke(1, "cas", [0, 1]),
        ok(2, "cas", [1, 2, True]),
        ok(1, "cas", [0, 1, True]),
    ]
    history += read(0, 2)
    assert register(history).valid is True


@pytest.mark.parametrize("seen", [0, 1])
def test_indeterminate_cas_may_apply_or_not(seen):
    history = write(0, 0) + [invoke(1, "cas", [0, 1]), info(1, "cas", [0, 1])] + read(0, seen)
    assert register(history).valid is True


def test_if_not_exists_one_winner_among_concurrent_inserters():
    inserters = range(1, 5)
    history = [invoke(p, "insert", f"v{p}") for p in inserters]
    history += [ok(p, "insert", [f"v{p}", p == 3]) for p in inserters]
    history += read(0, "v3")
    assert register(history).valid is True


def test_unique_insert_one_winner_among_concurrent_inserters():
    inserters = range(5)
    history = read(9, False) + [invoke(p, "insert", "id") for p in inserters]
    history += [ok(p, "insert", p == 2) for p in reversed(inserters)]
    history += read(9, True)
    assert unique(history).valid is True


def test_unique_insert_indeterminate_winner():
    # The only possible winner timed out, yet the losers and the read show it applied.
    history = [invoke(0, "insert", "id"), invoke(1, "insert", "id"), info(0, "insert", "id")]
    history += [ok(1, "insert", False)] + read(2, True)
    assert unique(history).valid is True


# --- Invalid histories -------------------------------------------------------------------------


def test_read_of_a_value_never_written():
    history = write(0, 1) + [invoke(0, "write", 2), invoke(1, "read"), ok(1, "read", 3)]
    history.append(ok(0, "write", 2))
    result = register(history)
    assert result.valid is False
    assert result.counterexample.op.f == "read"
    assert result.counterexample.op.output == 3


def test_stale_read_after_completed_write():
    history = write(0, 1) + write(0, 2) + read(1, 1)
    result = register(history)
    assert result.valid is False
    counterexample = result.counterexample
    assert counterexample.op.index == 4
    assert counterexample.op.process == 1
    assert counterexample.linearized_prefix == [0, 2]
    assert counterexample.state == 2


def test_two_concurrent_if_not_exists_both_applied():
    history = [invoke(1, "insert", "a"), invoke(2, "insert", "b")]
    history += [ok(1, "insert", ["a", True]), ok(2, "insert", ["b", True])]
    assert register(history).valid is False


def test_unique_insert_won_twice():
    history = [invoke(1, "insert", "id"), invoke(2, "insert", "id")]
    history += [ok(2, "insert", True), ok(1, "insert", True)]
    assert unique(history).valid is False


def test_unique_insert_won_after_an_indeterminate_insert_was_observed():
    history = [invoke(0, "insert", "id"), info(0, "insert", "id")] + read(1, True)
    history += [invoke(2, "insert", "id"), ok(2, "insert", True)]
    assert unique(history).valid is False


def test_unique_insert_lost_with_no_winner():
    history = [invoke(1, "insert", "id"), ok(1, "insert", False)]
    assert unique(history).valid is False


def test_cas_applied_whose_old_value_was_not_current():
    history = write(0, 1) + [invoke(1, "cas", [0, 5]), ok(1, "cas", [0, 5, True])]
    assert register(history).valid is False


def test_cas_rejected_although_old_value_was_current():
    history = write(0, 1) + [invoke(1, "cas", [1, 5]), ok(1, "cas", [1, 5, False])]
    assert register(history).valid is False


def test_read_goes_back_in_time_during_a_concurrent_write():
    history = write(0, 1) + [invoke(0, "write", 2)] + read(1, 2) + read(2, 1)
    history.append(ok(0, "write", 2))
    assert register(history).valid is False


def test_indeterminate_write_observed_then_unobserved():
    history = write(0, 1) + [invoke(1, "write", 2), info(1, "write", 2)] + read(0, 2) + read(0, 1)
    assert register(history).valid is False


def test_indeterminate_write_unobserved_is_explained_by_a_concurrent_write():
    # The control for the previous test: a pending write of 1 can follow the indeterminate 2.
    history = write(0, 1) + [invoke(1, "write", 2), info(1, "write", 2), invoke(3, "write", 1)]
    history += read(0, 2) + read(0, 1) + [ok(3, "write", 1)]
    assert register(history).valid is True


def test_indeterminate_cas_cannot_be_undone():
    history = write(0, 0) + [invoke(1, "cas", [0, 1]), info(1, "cas", [0, 1])]
    history += read(0, 1) + read(0, 0)
    assert register(history).valid is False


# --- fail means no effect ----------------------------------------------------------------------


def test_failed_write_observed_is_invalid():
    history = write(0, 1) + [invoke(1, "write", 2), fail(1, "write", 2)] + read(0, 2)
    result = register(history)
    assert result.valid is False
    assert result.ops_checked == 2


def test_failed_write_not_observed_is_valid():
    history = write(0, 1) + [invoke(1, "write", 2), fail(1, "write", 2)] + read(0, 1)
    assert register(history).valid is True


def test_process_reused_after_fail_and_info():
    history = [invoke(0, "write", 5), fail(0, "write", 5), invoke(0, "write", 6)]
    history += [info(0, "write", 6)] + read(0, 6)
    assert register(history).valid is True
    assert [op.status for op in pair_operations(history)] == ["info", "ok"]


# --- Keys are checked independently ------------------------------------------------------------


def interleaved_two_key_history():
    # Each key alone is plainly fine; as one register, reading 1 after the write of 10 completed
    # would be a stale read.
    return [
        invoke(0, "write", 1, key="a"),
        invoke(1, "write", 10, key="b"),
        ok(0, "write", 1, key="a"),
        ok(1, "write", 10, key="b"),
        invoke(2, "read", key="a"),
        invoke(3, "read", key="b"),
        ok(2, "read", 1, key="a"),
        ok(3, "read", 10, key="b"),
    ]


def test_per_key_histories_interleaved_are_valid():
    history = interleaved_two_key_history()
    result = register(history)
    assert result.valid is True
    assert set(result.per_key) == {"a", "b"}
    assert all(per_key.valid is True for per_key in result.per_key.values())
    # As one register the same history is not linearizable, so the split is what made it valid.
    assert check_key(history, CasRegister()).valid is False


def test_one_bad_key_fails_the_whole_history_and_is_named():
    history = interleaved_two_key_history() + read(4, 99, key="b")
    result = register(history)
    assert result.valid is False
    assert result.key == "b"
    assert result.counterexample.op.key == "b"
    assert result.per_key["a"].valid is True
    assert result.per_key["b"].valid is False


def test_json_keys_and_values_compare_as_json():
    # A list key is fine; true is not 1, though Python says True == 1.
    history = write(0, 1, key=["t", 1]) + read(1, True, key=["t", 1])
    result = register(history)
    assert result.valid is False
    assert result.key == ("t", 1)
    history = write(0, {"x": [1, 2]}, key=["t", 1]) + read(1, {"x": [1, 2]}, key=["t", 1])
    assert register(history).valid is True


# --- Generated histories -----------------------------------------------------------------------


def widened_register_history(rng, n_ops, width):
    """A random sequential register execution (trivially linearizable), each op then widened
    to an interval around its point in that order, so the order stays a valid linearization.
    Processes are assigned so each has one op open at a time; some ops become indeterminate
    and some failed ops (never taking effect) are sprinkled in."""
    current = None
    timed = []  # (time, order, event)
    free_at = []  # per process: when its last op completed
    order = 0

    def assign(start):
        for process, free in enumerate(free_at):
            if free < start:
                return process
        free_at.append(-1.0)
        return len(free_at) - 1

    def place(start, end, invocation, completion):
        nonlocal order
        process = assign(start)
        free_at[process] = end
        invocation["process"] = process
        timed.append((start, order, invocation))
        if completion is not None:
            completion["process"] = process
            timed.append((end, order + 1, completion))
        else:
            free_at[process] = float("inf")  # crashed: never invokes again
        order += 2

    for i in range(n_ops):
        point = 10.0 * i
        start = point - rng.uniform(0.1, width)
        end = point + rng.uniform(0.1, width)
        roll = rng.random()
        if roll < 0.4:
            completion = ok(None, "read", current)
            place(start, end, invoke(None, "read"), completion)
            continue
        if roll < 0.75:
            value = rng.randrange(5)
            invocation, completion = invoke(None, "write", value), ok(None, "write", value)
            current = value
        else:
            old, new = rng.choice([current, rng.randrange(5)]), rng.randrange(5)
            applied = old == current
            invocation = invoke(None, "cas", [old, new])
            completion = ok(None, "cas", [old, new, applied])
            if applied:
                current = new
        fate = rng.random()
        if fate < 0.1:
            completion = info(None, invocation["f"], invocation["value"])
        elif fate < 0.15:
            completion = None
        place(start, end, invocation, completion)
        if rng.random() < 0.1:
            bogus = 100 + i  # a failed write: had it taken effect, reads would be invalid
            start, end = point - rng.uniform(0.1, width), point + rng.uniform(0.1, width)
            place(start, end, invoke(None, "write", bogus), fail(None, "write", bogus))
    timed.sort(key=lambda item: (item[0], item[1]))
    return [event for _, _, event in timed]


def test_randomized_widened_sequential_histories():
    base_seed = 20240611
    for trial in range(40):
        seed = base_seed + trial
        rng = random.Random(seed)
        history = widened_register_history(rng, n_ops=60, width=rng.choice([5.0, 15.0, 40.0]))
        result = register(history)
        assert result.valid is True, f"seed {seed}: {result.counterexample}"

        reads = [
            position
            for position, event in enumerate(history)
            if event["type"] == "ok" and event["f"] == "read"
        ]
        assert reads, f"seed {seed}: no ok read to corrupt"
        corrupted = [dict(event) for event in history]
        corrupted[rng.choice(reads)]["value"] = "never-written"
        result = register(corrupted)
        assert result.valid is False, f"seed {seed}: corrupted read accepted"
        assert result.counterexample.op.output == "never-written", f"seed {seed}"


def concurrent_register_history(rng, processes, ops_per_process):
    """A simulated concurrent execution against an atomic register: each op takes effect at a
    random instant inside its interval, and the register's responses follow from applying the
    ops in the order of those instants. Writes use unique values, as the adversary's do."""
    planned = []  # (effect time, process, f, argument, start, end)
    for process in range(processes):
        clock = rng.uniform(0, 5)
        for n in range(ops_per_process):
            start = clock
            effect = start + rng.uniform(0.1, 5)
            end = effect + rng.uniform(0.1, 5)
            f = rng.choice(["read", "read", "write", "cas"])
            argument = (process, n) if f != "read" else None
            planned.append((effect, process, f, argument, start, end))
            clock = end + rng.uniform(0.01, 1)
    planned.sort()
    current = None
    timed = []
    recent = []
    for order, (_, process, f, argument, start, end) in enumerate(planned):
        if f == "read":
            invocation, completion = invoke(process, "read"), ok(process, "read", current)
        elif f == "write":
            value = list(argument)
            invocation, completion = invoke(process, "write", value), ok(process, "write", value)
            current = value
        else:
            old, new = rng.choice(recent or [None]), list(argument)
            applied = old == current
            invocation = invoke(process, "cas", [old, new])
            completion = ok(process, "cas", [old, new, applied])
            if applied:
                current = new
        recent = (recent + [current])[-3:]
        timed.append((start, order, invocation))
        timed.append((end, order, completion))
    timed.sort(key=lambda item: (item[0], item[1]))
    return [event for _, _, event in timed]


def test_performance_ten_processes_two_hundred_ops_each():
    seed = 7
    history = concurrent_register_history(random.Random(seed), processes=10, ops_per_process=200)
    started = time.perf_counter()
    result = register(history)
    elapsed = time.perf_counter() - started
    assert result.valid is True, f"seed {seed}: {result.counterexample}"
    assert result.ops_checked == 2000
    assert elapsed < 2.0, f"seed {seed}: took {elapsed:.2f} s"


# --- Giving up ---------------------------------------------------------------------------------


def many_indeterminate_writes_then_impossible_read():
    # Twelve timed-out writes of distinct values, then a read of a value none of them wrote:
    # proving that invalid means trying every subset of the writes.
    history = []
    for process in range(12):
        history += [invoke(process, "write", process), info(process, "write", process)]
    return history + read(99, "nobody")


def test_max_steps_exhaustion_is_unknown_never_valid():
    history = many_indeterminate_writes_then_impossible_read()
    result = check(history, CasRegister, max_steps=100)
    assert result.valid is None
    assert result.key == "k"
    assert result.per_key["k"].valid is None
    assert result.steps == 100
    assert check(history, CasRegister, max_steps=None).valid is False


def test_max_steps_exhaustion_on_a_valid_history_is_still_unknown():
    history = widened_register_history(random.Random(3), n_ops=40, width=30.0)
    assert check(history, CasRegister, max_steps=None).valid is True
    assert check(history, CasRegister, max_steps=5).valid is None


def test_invalid_key_outranks_unknown_key():
    history = many_indeterminate_writes_then_impossible_read() + read(50, 1, key="other")
    result = check(history, CasRegister, max_steps=100)
    assert result.valid is False
    assert result.key == "other"
    assert result.per_key["k"].valid is None


# --- Malformed histories -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "history",
    [
        [ok(0, "write", 1)],
        [invoke(0, "write", 1), invoke(0, "write", 2)],
        [invoke(0, "write", 1), {"process": 0, "type": "done"}],
        [invoke(0, "write", 1), ok(0, "read", 1)],
        [invoke(0, "write", 1, key="a"), ok(0, "write", 1, key="b")],
        [invoke(0, "delete"), ok(0, "delete")],
        [invoke(0, "cas", [1, 2]), ok(0, "cas", True)],
        [invoke(0, "cas", [1, 2]), ok(0, "cas", [1, 3, True])],
        [invoke(0, "insert", 1), ok(0, "insert", [1, "yes"])],
    ],
)
def test_malformed_histories_are_rejected(history):
    with pytest.raises(HistoryError):
        register(history)


# --- Files and the command line ----------------------------------------------------------------


def write_jsonl(path, history):
    path.write_text("".join(json.dumps(event) + "\n\n" for event in history))
    return str(path)


def test_load_history_skips_blank_lines(tmp_path):
    history = write(0, 1) + read(1, 1)
    assert load_history(write_jsonl(tmp_path / "h.jsonl", history)) == history


def test_load_history_names_the_bad_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(invoke(0, "read")) + "\n{oops\n")
    with pytest.raises(HistoryError, match=":2:"):
        load_history(str(path))


def test_main_exit_codes(tmp_path, capsys):
    valid = write_jsonl(tmp_path / "valid.jsonl", write(0, 1) + read(1, 1))
    assert main([valid, "--model", "cas-register"]) == 0
    assert "overall: valid" in capsys.readouterr().out

    invalid = write_jsonl(tmp_path / "invalid.jsonl", write(0, 1) + write(0, 2) + read(1, 1))
    assert main([invalid]) == 1
    output = capsys.readouterr().out
    assert 'key "k": INVALID' in output
    assert "could not linearize op at event 4" in output

    hard = write_jsonl(tmp_path / "hard.jsonl", many_indeterminate_writes_then_impossible_read())
    assert main([hard, "--max-steps", "10"]) == 2
    assert "overall: unknown" in capsys.readouterr().out

    won_twice = [invoke(1, "insert", "id"), invoke(2, "insert", "id")]
    won_twice += [ok(1, "insert", True), ok(2, "insert", True)]
    assert main([write_jsonl(tmp_path / "twice.jsonl", won_twice), "--model", "unique-insert"]) == 1
    capsys.readouterr()

    assert main([str(tmp_path / "missing.jsonl")]) == 3
    with pytest.raises(SystemExit) as exited:
        main([valid, "--model", "no-such-model"])
    assert exited.value.code == 3


def test_cli_runs_as_a_script(tmp_path):
    history = write_jsonl(tmp_path / "h.jsonl", write(0, 1) + read(1, 2))
    completed = subprocess.run(
        [sys.executable, CHECKER, history, "--model", "cas-register"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert completed.returncode == 1, completed.stderr
    assert "overall: INVALID" in completed.stdout
