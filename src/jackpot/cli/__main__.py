import sys

from jackpot.cli import main

sys.exit(main())
