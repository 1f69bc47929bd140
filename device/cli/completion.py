"""`tabletop completion bash|zsh`: a shell completion script, written from the parser itself.

The script holds, for every command path (``""``, ``deck``, ``deck staff``...), the words
that may come next: its subcommands and options, and what each option's value and each
positional argument is (KINDS): a fixed set (``--language en|fr``), a file, a folder, a
game id, a deck's family, a card id, or a name kept in the state dir (NAMES: a deck learned at
this table, a player of the roster, a table the café enrolled), asked of
`tabletop completion --names KIND` when completed, in the state dir that `--state-dir` (or
`--config`) on the line names. Reading them from the argparse parser at run time means a new
command or option completes as soon as it exists.

Names and files are offered one a line and quoted for the shell (`game\\ one.txt`): never split
at their spaces.

    eval "$(tabletop completion bash)"      # or save it in bash-completion's folder
    tabletop completion zsh > "${fpath[1]}/_tabletop"     # or source it after compinit
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .parser import build_parser

SHELLS = ("bash", "zsh")


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add `completion` to the `tabletop` parser; `--names` is the scripts' own, unlisted."""
    parser = subparsers.add_parser("completion", help="cli.help.completion")
    parser.add_argument("shell", choices=SHELLS, nargs="?", help="cli.help.completion_shell")
    parser.add_argument("--names", choices=NAMES, help=argparse.SUPPRESS)
    parser.add_argument("--state-dir", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--config", type=Path, help=argparse.SUPPRESS)
    parser.set_defaults(handler=run, completion_parser=parser)


def run(args: argparse.Namespace) -> int:
    if args.names is not None:
        sys.stdout.writelines(f"{name}\n" for name in names(args.names, args.state_dir, args.config)
                              if "\n" not in name)
        return 0
    if args.shell is None:
        args.completion_parser.error(f"the shell is missing: {' or '.join(SHELLS)}")
    sys.stdout.write(script(build_parser(args.language), args.shell))
    return 0


# The names a state dir keeps, read without changing anything (a file that does not read
# offers none: the command itself says why): learned decks, the roster's players, the tables
# the café enrolled (fleet commands find their state dir through the config, as they run).
NAMES = ("decks", "players", "tables")


def names(kind: str, state_dir: Path | None, config_file: Path | None = None) -> list[str]:
    from device.paths import default_state_dir
    if kind == "tables" and state_dir is None:
        state_dir = _configured_state_dir(config_file)
    where = state_dir or default_state_dir()
    if kind == "decks":
        return sorted(path.stem for path in (where / "decks").glob("*.toml"))
    if kind == "players":
        from device.players.roster import Roster, RosterError
        try:
            return [player.name for player in Roster(where).players()]
        except (RosterError, OSError):
            return []
    import json

    from device.fleet.enrolled import FILE
    try:
        tables = json.loads((where / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return []
    return sorted(name for name in tables if isinstance(name, str)) if isinstance(tables, dict) else []


def _configured_state_dir(config_file: Path | None) -> Path | None:
    from device.config import ConfigFileError, config_path, load_config
    try:
        config = load_config(config_path(config_file))
    except (ConfigFileError, OSError):
        return None
    return config.state_dir if config is not None else None


# What a value is, from the parsers' own words for it: a Path is a file, or a folder where the
# argument names one; a game, a deck (family) or a card is one of the registry's.
DIRECTORIES = {"state_dir", "frames", "dir"}
NAMED = {("deck export", "name"): "decks", ("deck remove", "name"): "decks",
         ("deck publish", "name"): "decks", ("players remove", "name"): "players",
         ("players card", "name"): "players", ("fleet retire", "table"): "tables",
         ("fleet strike", "table"): "tables"}


def command_paths(parser: argparse.ArgumentParser, path: str = "") -> dict[str, argparse.ArgumentParser]:
    """Every command path of `parser` and its own parser: "" the root, "deck staff"..."""
    found = {path: parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= command_paths(sub, f"{path} {name}".strip())
    return found


def kind(path: str, action: argparse.Action) -> str:
    """What completes a value of `action`: `words A B...`, `file`, `dir`, a kind of NAMES kept
    in the state dir, or `text` (anything: nothing is offered)."""
    import engine
    import seeds

    if action.choices:
        return "words " + " ".join(str(choice) for choice in action.choices)
    if action.type is Path or action.metavar in ("FILE", "DIR"):
        return "dir" if action.dest in DIRECTORIES or action.metavar == "DIR" else "file"
    if action.dest == "game":
        return "words " + " ".join(spec.id for spec in engine.all_specs())
    if action.dest == "deck":
        return "words " + " ".join(seeds.decks())
    if action.dest in ("card", "cards"):
        return "words " + " ".join(sorted({card for spec in engine.all_specs() for card in spec.card_ids()}))
    if not action.option_strings and (path, action.dest) in NAMED:
        return NAMED[path, action.dest]
    return "text"


def next_words(path: str, parser: argparse.ArgumentParser) -> tuple[list[str], list[str], dict[str, str]]:
    """A parser's subcommands, its options, and the kind of each value it takes: an option's
    under its name, the n-th positional's under `#n`."""
    commands: list[str] = []
    options: list[str] = []
    kinds: dict[str, str] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            commands += list(action.choices)
        elif action.help == argparse.SUPPRESS:
            continue                                    # unlisted: not offered either
        elif action.option_strings:
            options += action.option_strings
            if action.nargs != 0:
                kinds |= {option: kind(path, action) for option in action.option_strings}
        else:
            kinds[f"#{sum(key.startswith('#') for key in kinds)}"] = kind(path, action)
    return commands, options, kinds


def script(root: argparse.ArgumentParser, shell: str) -> str:
    tables = {path: next_words(path, parser) for path, parser in command_paths(root).items()}
    return (_bash if shell == "bash" else _zsh)(tables, root.prog)


def _cases(tables: dict, pick) -> str:
    """One `case` branch a command path (bash and zsh share the syntax)."""
    return "\n".join(f'    "{path}") echo "{" ".join(pick(words))}" ;;'
                      for path, words in tables.items())


def _kind_cases(tables: dict) -> str:
    return "\n".join(f'    "{path}|{key}") echo "{value}" ;;'
                      for path, (_, _, kinds) in tables.items() for key, value in kinds.items())


def _helpers(tables: dict, name: str) -> str:
    names = "|".join(NAMES)
    return f"""_{name}_commands() {{
  case "$1" in
{_cases(tables, lambda w: w[0])}
  esac
}}
_{name}_options() {{
  case "$1" in
{_cases(tables, lambda w: w[1])}
  esac
}}
# what a value is: "words A B...", file, dir, decks, text; "PATH|--option" or "PATH|#n"
_{name}_kind() {{
  case "$1" in
{_kind_cases(tables)}
    *) return 1 ;;
  esac
}}
# the words so far: the command path they name, how many positionals they hold, the option
# whose value comes next, if one waits, and the --state-dir and --config given (as typed)
_{name}_walk() {{
  local word
  _{name}_cmd="" _{name}_npos=0 _{name}_wait="" _{name}_state="" _{name}_config=""
  for word in "$@"; do
    if [[ -n $_{name}_wait ]]; then
      case $_{name}_wait in
        --state-dir) _{name}_state=$word ;;
        --config) _{name}_config=$word ;;
      esac
      _{name}_wait=""
    elif (( _{name}_npos == 0 )) && [[ " $(_{name}_commands "$_{name}_cmd") " == *" $word "* ]]; then
      _{name}_cmd="${{_{name}_cmd:+$_{name}_cmd }}$word"
    elif [[ $word == -* ]]; then
      case $word in
        --state-dir=*) _{name}_state=${{word#*=}} ;;
        --config=*) _{name}_config=${{word#*=}} ;;
      esac
      [[ $word != *=* ]] && _{name}_kind "$_{name}_cmd|$word" >/dev/null && _{name}_wait=$word
    else
      _{name}_npos=$((_{name}_npos + 1))
    fi
  done
}}
# what the current word may be: a kind, as _{name}_kind says it
_{name}_want() {{
  if [[ -n $_{name}_wait ]]; then
    _{name}_kind "$_{name}_cmd|$_{name}_wait"
  elif [[ $1 == -* ]]; then
    echo "words $(_{name}_options "$_{name}_cmd")"
  elif [[ -n $(_{name}_commands "$_{name}_cmd") ]]; then
    echo "words $(_{name}_commands "$_{name}_cmd") $(_{name}_options "$_{name}_cmd")"
  else
    local want
    want=$(_{name}_kind "$_{name}_cmd|#$_{name}_npos") || want=text
    case "$want" in
      words*) echo "$want $(_{name}_options "$_{name}_cmd")" ;;
      text) echo "words $(_{name}_options "$_{name}_cmd")" ;;
      *) echo "$want" ;;
    esac
  fi
}}
# the names of a kind ({names}) kept in the state dir the line names, one a line
_{name}_names() {{
  local -a where=()
  [[ -n $_{name}_state ]] && where+=(--state-dir "$(_{name}_unquote "$_{name}_state")")
  [[ -n $_{name}_config ]] && where+=(--config "$(_{name}_unquote "$_{name}_config")")
  {name} completion --names "$1" "${{where[@]}}" 2>/dev/null
}}
"""


def _bash(tables: dict, name: str) -> str:
    return f"""# bash completion for {name}, written by `{name} completion bash`
{_helpers(tables, name)}
# a word as typed, as the command will get it: quotes and backslashes gone, ~ the home
_{name}_unquote() {{
  local word=${{1//\\\\/}}
  word=${{word//\\"/}}
  word=${{word//\\'/}}
  printf '%s' "${{word/#\\~/$HOME}}"
}}
# the names on stdin (one a line) that start with the word, each quoted for the line
_{name}_reply() {{
  local line quoted
  COMPREPLY=()
  while IFS= read -r line; do
    printf -v quoted '%q' "$line"
    if [[ $quoted == "$1"* || $line == "$(_{name}_unquote "$1")"* ]]; then
      COMPREPLY+=("$quoted")
    fi
  done
}}
_{name}() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" want
  _{name}_walk "${{COMP_WORDS[@]:1:COMP_CWORD-1}}"
  want=$(_{name}_want "$cur")
  case "$want" in
    file) compopt -o filenames 2>/dev/null
          mapfile -t COMPREPLY < <(compgen -f -- "$(_{name}_unquote "$cur")") ;;
    dir) compopt -o filenames 2>/dev/null
         mapfile -t COMPREPLY < <(compgen -d -- "$(_{name}_unquote "$cur")") ;;
    {'|'.join(NAMES)}) _{name}_reply "$cur" < <(_{name}_names "$want") ;;
    words*) mapfile -t COMPREPLY < <(compgen -W "${{want#words}}" -- "$cur") ;;
    *) COMPREPLY=() ;;
  esac
}}
complete -F _{name} {name}
"""


def _zsh(tables: dict, name: str) -> str:
    return f"""#compdef {name}
# zsh completion for {name}, written by `{name} completion zsh`
{_helpers(tables, name)}
# a word as typed, as the command will get it: zsh's own unquoting, ~ the home
_{name}_unquote() {{
  local word=${{(Q)1}}
  print -r -- "${{word/#\\~/$HOME}}"
}}
_{name}() {{
  local want
  _{name}_walk "${{(@)words[2,CURRENT-1]}}"
  want=$(_{name}_want "${{words[CURRENT]}}")
  case "$want" in
    file) _files ;;
    dir) _files -/ ;;
    {'|'.join(NAMES)}) compadd -- ${{(f)"$(_{name}_names $want)"}} ;;
    words*) compadd -- ${{=want#words}} ;;
  esac
}}
# autoloaded from $fpath (as installed): complete at once; sourced: register
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _{name} "$@"
else
  compdef _{name} {name}
fi
"""
