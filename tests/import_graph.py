"""The import graph of the project's packages, read from the source (ast), every import counted:
at the top, inside functions, under TYPE_CHECKING."""
from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from pathlib import Path


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A file's tree, read once a run: every architecture test walks the same files."""
    return ast.parse(path.read_text(encoding="utf-8"))


def module_names(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name -> file, for every module of `packages` under `root`."""
    names: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names[".".join(parts)] = path
    return names


def _targets(node: ast.AST, module: str, is_package: bool, known: dict[str, Path]) -> set[str]:
    """The project modules one import statement names. `from P import x` names P.x when x is a
    module, else P itself."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = module.split(".")
        base = base[:len(base) - node.level + (1 if is_package else 0)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    found = set()
    for alias in node.names:
        found.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source)
    return {name for name in found if name in known}


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Each module and the project modules it imports."""
    known = module_names(root, packages)
    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        imports: set[str] = set()
        for node in ast.walk(parsed(path)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imports |= _targets(node, module, path.name == "__init__.py", known)
        imports.discard(module)
        graph[module] = imports
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other, directly or round about (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def within(module: str, rooms: tuple[str, ...]) -> bool:
    return any(module == room or module.startswith(room + ".") for room in rooms)


def room_of(module: str, rooms: Iterable[str]) -> str | None:
    """The room a module lives in: the longest room name that is it or holds it."""
    found = [room for room in rooms if within(module, (room,))]
    return max(found, key=len) if found else None


def strays(graph: dict[str, set[str]], rooms: dict[str, tuple[str, ...]]) -> list[str]:
    """`importer -> imported` for every import from one room into another that the importer's
    room does not list among those it may import (`rooms`: room -> rooms it may import)."""
    found = []
    for module, targets in graph.items():
        home = room_of(module, rooms)
        for target in targets:
            there = room_of(target, rooms)
            if home is None or there is None or (there != home and there not in rooms[home]):
                found.append(f"{module} -> {target}")
    return sorted(found)


def breaches(graph: dict[str, set[str]], rules: list[tuple[tuple[str, ...], tuple[str, ...]]]
             ) -> list[str]:
    """`importer -> imported` for every import that a rule (importers, forbidden) refuses."""
    return sorted(f"{module} -> {target}"
                  for importers, forbidden in rules
                  for module, targets in graph.items() if within(module, importers)
                  for target in targets if within(target, forbidden))
