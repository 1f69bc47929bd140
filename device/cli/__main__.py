"""`python -m device.cli`: the same as the `tabletop` command."""
from . import command

command()
