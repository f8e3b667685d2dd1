"""``python -m bench``: the load benchmark, also ``jackpot bench`` (jackpot/bench/run.py)."""

import sys

from jackpot.bench.run import main

sys.exit(main())
