"""Parts of a package without the rest of it: the table's memory is tight (≤ 45 MB with its
page on), and a package's `__init__` may import far more than the page uses.

`import uvicorn` imports its command line (click), its reloaders and worker processes
(multiprocessing) for the `uvicorn.run` the page never calls: 1.7 MB of the table's peak,
measured (docs/web.md). `import segno` imports its writers (SVG, PNG, EPS; xml, urllib,
gzip) where the page only needs the encoder's matrix: 1.7 MB more. Here the package's
submodules are imported under a bare package (its `__path__`, not its `__init__`), which is
then taken out of `sys.modules` again: a later plain `import uvicorn` (the dashboard's) runs
the whole `__init__` as ever and finds the parts already in.
"""
from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

_lock = threading.RLock()


@contextmanager
def bare(package: str) -> Iterator[ModuleType]:
    """Within: `package` is its bare package when it is not imported already (else itself),
    so `from package.part import x` runs the part alone; after, the bare one is gone."""
    with _lock:
        if package in sys.modules:
            yield sys.modules[package]
            return
        spec = importlib.util.find_spec(package)
        if spec is None or spec.submodule_search_locations is None:
            raise ModuleNotFoundError(f"no package named {package!r}", name=package)
        shell = importlib.util.module_from_spec(spec)   # its __path__, its __init__ not run
        sys.modules[package] = shell
        try:
            yield shell
        finally:
            if sys.modules.get(package) is shell:
                del sys.modules[package]
