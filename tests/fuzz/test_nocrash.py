"""No hostile call kills the process: public functions and Tensor methods called with arbitrary
arguments (huge/negative sizes, NaN/inf, wrong types, nested and self-referencing lists,
zero-size tensors, device strings, out-of-range dims) return or raise an ``Exception``.

The calls run in a subprocess (nocrash_worker.py) so that a segfault, an abort or a Rust panic
(``pyo3_runtime.PanicException``, a ``BaseException``) is a test failure that names the call,
not a dead pytest. ``FERROGRAD_FUZZ_EXAMPLES`` scales the number of calls (``all``: 10x).
"""

import os
import signal
import subprocess
import sys

import pytest

import replay

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "nocrash_worker.py")


def calls_budget():
    b = replay.budget_from_env()
    return 4000 if b is None else max(100, b // 3)


def known_crashes():
    """Signatures of crashes waiting for a fix in the core: the text after the cause code of
    each ``nocrash <cause> <signature>`` line of known_mismatches.txt."""
    sigs = []
    with open(replay.KNOWN) as fh:
        for line in fh:
            if line.startswith("nocrash "):
                sigs.append((line.split(None, 2)[1], line.split(None, 2)[2].strip()))
    return sigs


@pytest.mark.parametrize("seed", [0, 1, 2], ids=["seed0", "seed1", "seed2"])
def test_hostile_calls_never_crash(tmp_path, seed):
    """A crash whose error output contains a known signature is reported as xfail (with the
    call); any other crash -- a signal, an abort, a new escaping BaseException -- fails."""
    log = tmp_path / "calls.log"
    env = dict(os.environ, PYTHONFAULTHANDLER="1", RUST_BACKTRACE="0")
    try:
        proc = subprocess.run([sys.executable, WORKER, str(log), str(calls_budget()), str(seed)],
                              capture_output=True, text=True, timeout=900, env=env, cwd=HERE)
    except subprocess.TimeoutExpired as e:
        last = log.read_text().splitlines()[-1:] if log.exists() else []
        pytest.fail(f"hostile-call worker hung; last call: {last}\n{(e.stderr or '')[-3000:]}")
    if proc.returncode != 0:
        lines = log.read_text().splitlines() if log.exists() else []
        how = (f"killed by signal {signal.Signals(-proc.returncode).name}" if proc.returncode < 0
               else f"exit status {proc.returncode}")
        msg = (f"hostile call crashed the process ({how}).\nlast call: {lines[-1:]}\n"
               f"stdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-6000:]}")
        for cause, sig in known_crashes():
            if proc.returncode > 0 and sig in proc.stderr[-2000:]:
                pytest.xfail(f"known crash {cause} ({sig}); last call: {lines[-1:]}")
        pytest.fail(msg)
    assert proc.stdout.strip().startswith("OK"), proc.stdout
