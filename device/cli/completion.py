"""`tabletop completion bash|zsh`: a shell completion script, written from the parser itself.

The script holds, for every command path (``""``, ``deck``, ``deck staff``...), the words
that may come next: its subcommands and options, and the values of options that take a
fixed set (``--language en|fr``). Reading them from the argparse parser at run time
means a new command or option completes as soon as it exists.

    eval "$(tabletop completion bash)"      # or save it in bash-completion's folder
    tabletop completion zsh > "${fpath[1]}/_tabletop"     # or source it after compinit
"""
from __future__ import annotations

import argparse
import sys

from .parser import build_parser

SHELLS = ("bash", "zsh")


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add `completion` to the `tabletop` parser."""
    parser = subparsers.add_parser("completion", help="cli.help.completion")
    parser.add_argument("shell", choices=SHELLS, help="cli.help.completion_shell")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(script(build_parser(args.language), args.shell))
    return 0


def command_paths(parser: argparse.ArgumentParser, path: str = "") -> dict[str, argparse.ArgumentParser]:
    """Every command path of `parser` and its own parser: "" the root, "deck staff"..."""
    found = {path: parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= command_paths(sub, f"{path} {name}".strip())
    return found


def next_words(parser: argparse.ArgumentParser) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """A parser's subcommands, its options, and the values of each option with fixed choices."""
    commands: list[str] = []
    options: list[str] = []
    values: dict[str, list[str]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            commands += list(action.choices)
        elif action.option_strings:
            options += action.option_strings
            if action.choices and action.nargs != 0:
                values |= {option: [str(c) for c in action.choices]
                           for option in action.option_strings}
    return commands, options, values


def script(root: argparse.ArgumentParser, shell: str) -> str:
    tables = {path: next_words(parser) for path, parser in command_paths(root).items()}
    return (_bash if shell == "bash" else _zsh)(tables, root.prog)


def _cases(tables: dict, pick) -> str:
    """One `case` branch a command path (bash and zsh share the syntax)."""
    return "\n".join(f'    "{path}") echo "{" ".join(pick(words))}" ;;'
                     for path, words in tables.items())


def _value_cases(tables: dict) -> str:
    return "\n".join(f'    "{path}|{option}") echo "{" ".join(choices)}" ;;'
                     for path, (_, _, values) in tables.items()
                     for option, choices in values.items())


def _helpers(tables: dict, name: str) -> str:
    return f"""_{name}_commands() {{
  case "$1" in
{_cases(tables, lambda w: w[0])}
  esac
}}
_{name}_words() {{
  case "$1" in
{_cases(tables, lambda w: w[0] + w[1])}
  esac
}}
_{name}_values() {{
  case "$1" in
{_value_cases(tables)}
    *) return 1 ;;
  esac
}}
# the command path the words so far name: "", "deck", "deck staff"...
_{name}_path() {{
  local cmd="" word
  for word in "$@"; do
    case " $(_{name}_commands "$cmd") " in
      *" $word "*) cmd="${{cmd:+$cmd }}$word" ;;
    esac
  done
  echo "$cmd"
}}
"""


def _bash(tables: dict, name: str) -> str:
    return f"""# bash completion for {name}, written by `{name} completion bash`
{_helpers(tables, name)}
_{name}() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" cmd values
  cmd="$(_{name}_path "${{COMP_WORDS[@]:1:COMP_CWORD-1}}")"
  if values="$(_{name}_values "$cmd|$prev")"; then
    COMPREPLY=($(compgen -W "$values" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_{name}_words "$cmd")" -- "$cur"))
  fi
}}
complete -o default -F _{name} {name}
"""


def _zsh(tables: dict, name: str) -> str:
    return f"""#compdef {name}
# zsh completion for {name}, written by `{name} completion zsh`
{_helpers(tables, name)}
_{name}() {{
  local cmd values
  cmd="$(_{name}_path "${{(@)words[2,CURRENT-1]}}")"
  if values="$(_{name}_values "$cmd|${{words[CURRENT-1]}}")"; then
    compadd -- ${{=values}}
  else
    compadd -- ${{=$(_{name}_words "$cmd")}}
  fi
  _files
}}
# autoloaded from $fpath (as installed): complete at once; sourced: register
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _{name} "$@"
else
  compdef _{name} {name}
fi
"""
