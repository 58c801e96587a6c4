"""numba's disk cache, kept honest when a kernel compiles code from another file.

numba caches a compiled kernel keyed on the stamp (modification time and size) of the
one source file it is defined in. A kernel that calls a function of another file (the
engine's trick rule in the core, the core's rules in the bots' and the RL kernels)
holds that function's machine code too, and numba would go on loading it after the
other file changed. :func:`cache_flag` closes that gap without anyone keeping a digest
by hand: when a file a kernel module compiles from is newer than the module, it gives
the module a fresh stamp, so that numba's own check throws the stale code away.

>>> import meio.engine.tricks as tricks
>>> cache_flag(tricks.__file__, tricks)  # a file is never newer than itself
True
"""

from __future__ import annotations

import os
from types import ModuleType


def source_path(source: ModuleType | str) -> str:
    """The file of a module, or a path given as is."""
    if isinstance(source, ModuleType):
        path = source.__file__
        if path is None:
            raise ValueError(f"module {source.__name__} has no source file")
        return path
    return source


def cache_flag(module_file: str, *sources: ModuleType | str) -> bool:
    """Whether the kernels of ``module_file`` may use numba's disk cache, given the
    ``sources`` (modules or files) whose functions they compile.

    When one of ``sources`` changed after ``module_file`` did, ``module_file`` gets the
    newer time, so the machine code numba cached for it no longer matches and is
    compiled afresh. Where that file cannot be touched (a read-only install) the
    answer is False: the kernels compile in memory rather than risk stale code."""
    try:
        own = os.stat(module_file).st_mtime_ns
        newest = max((os.stat(source_path(s)).st_mtime_ns for s in sources), default=own)
    except OSError:
        return False
    if newest <= own:
        return True
    try:
        os.utime(module_file, ns=(newest, newest))
    except OSError:
        return False
    return True
