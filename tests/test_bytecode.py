"""tests/bytecode.py: what the workers would each make, made once before they start."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from .bytecode import ROOT, cores, in_parallel


def test_every_job_runs_once_here_with_one(tmp_path):
    in_parallel([lambda: (tmp_path / "one").write_text("1")])
    assert (tmp_path / "one").read_text() == "1"


def test_every_job_runs_once_in_the_forked_processes(tmp_path):
    # in a process of its own: a pytest worker has threads, and only a process without any
    # (the session's, before xdist starts) may fork safely
    program = textwrap.dedent(f"""
        import os, sys
        from functools import partial
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        from tests.bytecode import in_parallel

        def job(n):
            with open(Path({str(tmp_path)!r}) / f"{{n}}", "a") as mark:
                mark.write(f"{{os.getpid()}}\\n")

        in_parallel([partial(job, n) for n in range(40)])
        print(os.getpid())
        """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True)
    marks = {int(path.name): path.read_text().split() for path in tmp_path.iterdir()}
    assert sorted(marks) == list(range(40)) and all(len(pids) == 1 for pids in marks.values())
    if cores() > 1:                # forked: none ran in the parent
        assert done.stdout.strip() not in {pid for pids in marks.values() for pid in pids}
