"""`python -m device.cli`: the same as the `tabletop` command."""
import sys

from . import main

sys.exit(main())
