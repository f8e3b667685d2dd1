"""``python -m bench``: the load benchmark (bench/run.py)."""

import sys

from bench.run import main

sys.exit(main())
