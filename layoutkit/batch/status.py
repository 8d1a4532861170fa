"""``layoutkit batch status``: the state database's view of the batch, as text."""

from __future__ import annotations

from . import state
from .inbox import shown
from .progress import counted

__all__ = ["status_text"]


_TIME = "%Y-%m-%d %H:%M:%S"
"""How a run's start and end are written."""


def status_text(url: str) -> str:
    """Documents by status, actions by status, the runs, and every document rejected
    or failed with its reason."""
    engine = state.connect(url)
    by_status, by_action, pages = state.counts(engine)
    lines = ["documents: " + (", ".join(f"{n} {s}" for s, n in sorted(by_status.items()))
                              or "none"),
             f"pages done: {pages}",
             "actions: " + (", ".join(f"{a} {n} {s}" for (a, s), n in sorted(by_action.items()))
                            or "none"),
             "runs:"]
    for run in state.runs(engine):
        finished = f"{run['finished']:{_TIME}}" if run["finished"] else "-"
        lines.append(f"  {run['id']}\t{run['status']}\t{run['started']:{_TIME}}"
                     f"\t{finished}\t{run['executor']}×{run['workers']}\t{run['accepted']} "
                     f"accepted, {run['rejected']} rejected, {run['failed']} failed, "
                     f"{run['done']} done, {counted(run['pages'], 'page')}")
    for row in state.documents(engine, ["rejected", "failed"]):
        lines.append(f"{row.status} {row.id}\t{shown(row.file)}\t{shown(row.error or '')}")
    return "\n".join(lines) + "\n"
