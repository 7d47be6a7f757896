"""Benchmark datasets as tuples of :class:`Task`: the generated Simple Regex set, the seed paper's
lists, KB13 in the extended dialect, and NL-RX-Turk/KB13 Python targets for A-CEGIS.

Every loader takes a path (default: the shared data folder, :mod:`experiments.data_dir`) and raises
a :class:`DatasetError` that names the file and where to get it. Nothing here is copied from the
datasets; the generator needs no file at all.
"""

from experiments.datasets.buckets import bucket, cell_of, summary_table
from experiments.datasets.cegml import load_kb13_extrx, load_paper_list
from experiments.datasets.deepregex import (
    KB13_DIR,
    LINE_UNIVERSE,
    NL_RX_TURK_DIR,
    PythonTargets,
    load_deepregex,
    python_targets,
    sample_tasks,
)
from experiments.datasets.errors import (
    DatasetError,
    DatasetNotFound,
    GenerationShortfall,
    MalformedDataset,
)
from experiments.datasets.simple_gen import SimpleGrid, generate_simple
from experiments.datasets.task import Metrics, Task, make_task, own_letters

__all__ = [
    "KB13_DIR",
    "LINE_UNIVERSE",
    "NL_RX_TURK_DIR",
    "DatasetError",
    "DatasetNotFound",
    "GenerationShortfall",
    "MalformedDataset",
    "Metrics",
    "PythonTargets",
    "SimpleGrid",
    "Task",
    "bucket",
    "cell_of",
    "generate_simple",
    "load_deepregex",
    "load_kb13_extrx",
    "load_paper_list",
    "make_task",
    "own_letters",
    "python_targets",
    "sample_tasks",
    "summary_table",
]
