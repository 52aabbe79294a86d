"""The router's tuning: figures that decide how much each pass lists and searches and
when the compiled kernel takes over.  They change speed only, never the answer (the
last pass is exhaustive whatever they are); docs/performance.md measures them.
"""

from __future__ import annotations

# Stage 3, the branch and bound.
# The most lists of free positions one run list keeps (each up to the list's length).
MERGED_KEYS = 512
# A bound's scan of one group stops after this many runs that conflict (the runs after are
# worth no more than the one where it stopped, which then stands in for them).
CAP_STEPS = 48

# The passes.
# The most pairs the kernel tries before it hands the position to the pure-Python search
# (which honours a budget): at most about a second (a block of 64 runs is one step).
KERNEL_STEPS = 20_000_000
# A threshold this low lists (nearly) every run anyway: go straight to a complete list. (The
# answer is correct whatever the thresholds; they only decide how much is listed.)
MIN_RUN_VALUE = 20
# From a forced first threshold, the least each later pass lowers a threshold by.
STEP = (1, 2)
# Below this many arms the runs are few enough to list them all in one pass.
ARMS_FOR_THRESHOLDS = 300
# From a forced first threshold, a pass whose search took more nodes than this is followed
# by a complete pass.
NODES_FOR_ANOTHER_PASS = 1000
# The first pass aims above the run set found greedily when the most any run set could be
# worth is at least this much more (else halfway would list hardly fewer runs).
AIM_GAP = 40

# With run duties, the greedy start (and thresholds) only for this many trains or fewer: in
# a pass that leaves runs out, no node can be cut for a duty hex (an unlisted run might
# cover it), which with more trains costs more than the complete listing saves (measured:
# six trains with a duty took twice as long; two trains took under half as long).
DUTY_START_TRAINS = 2

# From this many trains on, the bounds of a search node (each train's best compatible run)
# are found by the compiled kernel: the same figures, and with thousands of search nodes its
# arrays pay for themselves (measured: docs/performance.md, "Router tail, kernel").
KERNEL_CAP_SLOTS = 3
# Tail bounds with first hops taken are worth their searches from this many trains on.
TAIL_SLOTS = 3
# The most tail bounds with first hops taken that one search computes (each a search).
TAIL_KEYS = 2000
