"""The games of this project, one package each; the registry finds them through the
`tabletop.games` entry points in pyproject.toml, as it finds a game installed from elsewhere."""
