"""Every benchmark's module imports: the benchmarks run by hand, not in the suite, so a name one
takes from a shared module that is renamed or removed would otherwise go unseen until run."""

import importlib
from pathlib import Path

import pytest

BENCHMARKS = sorted(
    path.stem for path in (Path(__file__).parents[3] / "tools" / "bench").glob("*.py")
)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_benchmark_imports(name):
    importlib.import_module(f"tools.bench.{name}")
