"""Writing an analysis to its folder: ``summary.json``, ``report.html``,
``findings.md`` (the headline figures as Markdown tables) and the raw
tables as Parquet (``games.parquet``: one row per game, round and seat of self-play;
``duplicates.parquet``: one row per deal, rotation, round and seat of the skill pairs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meio.analysis.findings import compare_findings, findings
from meio.analysis.frame import Frame
from meio.analysis.report import render, render_compare
from meio.analysis.runner import Run


def write_table(frame: Frame, path: Path) -> None:
    """``frame`` as a Parquet file (the internal ``cluster`` column left out)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = {}
    for key, col in frame.cols.items():
        if key == "cluster":
            continue
        if key in frame.cats:
            cols[key] = pa.DictionaryArray.from_arrays(col, frame.cats[key])
        else:
            cols[key] = pa.array(col)
    pq.write_table(pa.table(cols), path, compression="zstd")


def read_table(path: Path) -> Frame:
    """A Parquet file written by :func:`write_table`, as a :class:`Frame`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    cols = {}
    for name in table.column_names:
        col = table.column(name)
        if pa.types.is_dictionary(col.type):
            col = col.cast(pa.string())
        values = col.to_numpy(zero_copy_only=False)
        cols[name] = values.astype(str) if values.dtype == object else values
    return Frame(cols)


def write_run(run: Run, out: Path) -> list[Path]:
    """Write everything a run produced into ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "summary.json", out / "report.html", out / "findings.md"]
    paths[0].write_text(json.dumps(run.summary, indent=1, sort_keys=True) + "\n")
    paths[1].write_text(render(run.summary))
    paths[2].write_text(findings(run.summary))
    if len(run.selfplay):
        paths.append(out / "games.parquet")
        write_table(run.selfplay, paths[-1])
    if len(run.duplicates):
        paths.append(out / "duplicates.parquet")
        write_table(run.duplicates, paths[-1])
    return paths


def write_compare(summary: dict[str, Any], base: Run, variant: Run, out: Path) -> list[Path]:
    """Write a comparison into ``out``: each ruleset's own analysis in ``out/base`` and
    ``out/variant``, and the comparison's ``summary.json``, ``report.html`` and
    ``findings.md``; the paths of the comparison's files."""
    write_run(base, out / "base")
    write_run(variant, out / "variant")
    paths = [out / "summary.json", out / "report.html", out / "findings.md"]
    paths[0].write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    paths[1].write_text(render_compare(summary))
    paths[2].write_text(compare_findings(summary))
    return paths
