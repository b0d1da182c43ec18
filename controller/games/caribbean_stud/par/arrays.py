"""The count table's arrays, named by what they hold (shared by the count, the paytable and the shipped file).

Kept apart from counts.py, which needs numba, so the paytable's sums and the shipped
table (shipped.py) import no compiler.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]       # card positions, binomials, indexes, weights
Values = npt.NDArray[np.int16]     # hand values (controller.hands.high)
Counts = npt.NDArray[np.int32]     # dealer hole-card sets per class and up card
Bools = npt.NDArray[np.bool_]
