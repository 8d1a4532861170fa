"""Pages kept where they were made, and steps run over them.

Pages are kept in this process or in worker processes, and steps run over them
(`runner`); the pipeline's stages are declared in `layoutkit.pipeline`, and this
package knows none of them by name.
"""

from .runner import (
    AUTO,
    MOST_PROCESSES,
    PAGES_PER_PROCESS,
    EachPage,
    Jobs,
    Shares,
    Step,
    collector_paused,
    open_shares,
    processes,
    processors,
)

__all__ = ["AUTO", "MOST_PROCESSES", "PAGES_PER_PROCESS", "EachPage", "Jobs", "Shares", "Step",
           "collector_paused", "open_shares", "processes", "processors"]
