"""Imported for its effect: the router's compiled kernel loaded now.

The fork server of ``simulate(jobs > 1)`` imports this module before it forks its workers
(:data:`india1853.interfaces.simulate.WORKER_PRELOAD`), so that the kernel is loaded once, in
the server, and every worker starts with it instead of loading it from numba's cache again
(0.3-0.7 CPU-seconds a worker).
"""

from __future__ import annotations

from india1853.rules.router import warm_up

warm_up()
