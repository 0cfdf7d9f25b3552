"""Ctrl-C stops a long search: KeyboardInterrupt carrying the result so far,
and the store keeps the work (a later call resumes it)."""

import signal
import subprocess
import sys
import textwrap
import time

import ransom

SCRIPT = textwrap.dedent(
    """
    import sys, ransom
    print("searching", flush=True)
    try:
        ransom.prove(None, ["b4"], store=sys.argv[1], threads=1)
    except KeyboardInterrupt as stop:
        print("interrupted", stop.result.result, stop.result.nodes > 0, flush=True)
        sys.exit(3)
    print("finished", flush=True)
    """
)


def test_ctrl_c_raises_keyboard_interrupt_and_keeps_the_store(tmp_path):
    store = tmp_path / "store"
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().strip() == "searching"
    time.sleep(3)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 3, (out, err)
    assert "interrupted unknown True" in out
    again = ransom.prove(None, ["b4"], store=store, threads=1, max_nodes=1_000)
    assert again.report["resumed"] is True
    assert again.report["earlier_nodes"] > 0
