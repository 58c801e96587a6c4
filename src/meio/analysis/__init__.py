"""The designers' lab: balance studies over many simulated games (``meio analyze``).

:class:`AnalysisSpec` says what to study; :func:`run_analysis` plays the games
(locally or on a Ray cluster, resumable, reproducible from the seed) and returns the
summary; :func:`write_run` writes ``summary.json``, ``report.html`` and the raw
per-game tables. See docs/analysis.md.
"""

from meio.analysis.output import read_table, write_run
from meio.analysis.plan import STUDIES, AnalysisError, AnalysisSpec, Table
from meio.analysis.runner import LocalBackend, RayBackend, Run, run_analysis

__all__ = [
    "STUDIES",
    "AnalysisError",
    "AnalysisSpec",
    "LocalBackend",
    "RayBackend",
    "Run",
    "Table",
    "read_table",
    "run_analysis",
    "write_run",
]
