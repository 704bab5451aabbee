"""The table ``make test`` prints at its end: each step's time, and how much of the machine the run had.

    python -m book.step_times start    # at the start of make test: the clock and the processors' counters
    python -m book.step_times table    # the table of the steps timed so far (also after a failing step)

Each step of ``make test`` appends a line to ``_build/test-times.tsv`` (name, milliseconds, exit status; the
Makefile's ``timed``). The run is bound by the processors, so its time follows what they could give it: on Linux the
table also shows, from ``/proc/stat``, the core-seconds the machine spent busy (this run and anything else), those
it left idle, and those its host took for other machines ("steal", counted on a virtual machine only). The same
commit has taken 1.5 times as long on one machine from one day to the next; these lines say why.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMES = ROOT / "_build" / "test-times.tsv"
START = TIMES.with_name("test-times.start.json")
PROC_STAT = Path("/proc/stat")
# the fields of /proc/stat's "cpu" line (man 5 proc), in clock ticks summed over the processors
FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def cpu_ticks(stat: str) -> dict[str, int] | None:
    """The counters of the ``cpu`` line of a ``/proc/stat`` text, or ``None`` if it has none."""
    for line in stat.splitlines():
        parts = line.split()
        if parts and parts[0] == "cpu":
            return dict(zip(FIELDS, map(int, parts[1:]), strict=False))
    return None


def read_ticks() -> dict[str, int] | None:
    try:
        return cpu_ticks(PROC_STAT.read_text(encoding="ascii"))
    except OSError:
        return None


def machine_share(before: dict[str, int], after: dict[str, int], hertz: float) -> dict[str, float]:
    """Seconds of processor time between two readings: busy, idle and stolen, summed over the processors."""
    spent = {name: (after.get(name, 0) - before.get(name, 0)) / hertz for name in FIELDS}
    return {
        "busy": spent["user"] + spent["nice"] + spent["system"] + spent["irq"] + spent["softirq"],
        "idle": spent["idle"] + spent["iowait"],
        "steal": spent["steal"],
    }


def table(rows: list[tuple[str, int, int]], elapsed: float | None, share: dict[str, float] | None) -> str:
    """The printed table: one line a step, their sum, the run from start to end, and the machine's share."""
    lines = ["", "make test, step by step:"]
    for name, milliseconds, status in rows:
        lines.append(f"  {name:<56} {milliseconds / 1000:7.1f} s{'' if status == 0 else '  FAILED'}")
    lines.append(f"  {'sum of the steps':<56} {sum(r[1] for r in rows) / 1000:7.1f} s")
    if elapsed is not None:
        lines.append(f"  {'make test, start to end':<56} {elapsed:7.1f} s")
    if share is not None:
        lines.append(f"  {'processors busy (this run and anything else)':<56} {share['busy']:7.1f} core-s")
        lines.append(f"  {'processors idle':<56} {share['idle']:7.1f} core-s")
        lines.append(f"  {'taken by the host for other machines (steal)':<56} {share['steal']:7.1f} core-s")
    return "\n".join(lines)


def read_rows(path: Path) -> list[tuple[str, int, int]]:
    rows = []
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            name, milliseconds, status = line.split("\t")
            rows.append((name, int(milliseconds), int(status)))
    return rows


def main(argv: list[str]) -> int:
    if argv == ["start"]:
        TIMES.parent.mkdir(parents=True, exist_ok=True)
        TIMES.unlink(missing_ok=True)
        START.write_text(json.dumps({"time": time.time(), "ticks": read_ticks()}), encoding="utf-8")
        return 0
    if argv == ["table"]:
        start = json.loads(START.read_text(encoding="utf-8")) if START.is_file() else {}
        now, ticks = time.time(), read_ticks()
        elapsed = now - start["time"] if "time" in start else None
        share = None
        if start.get("ticks") and ticks:
            share = machine_share(start["ticks"], ticks, os.sysconf("SC_CLK_TCK"))
        print(table(read_rows(TIMES), elapsed, share))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
