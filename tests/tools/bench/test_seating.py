"""The seating benchmark (`python -m tools.bench.seating`) prints a line of figures per case: it
times nothing the suite relies on."""

import re

from tools.bench import seating as bench_seating


def test_the_benchmark_prints_a_line_per_case(capsys):
    assert bench_seating.main(["--seeds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(bench_seating.CASES)
    assert lines[0].startswith("16 players, 5 rounds: repeats 0-0 (lower bound 0)")
    assert all(re.search(r"median \d+ ms, worst \d+ ms \(1 seeds\)$", line) for line in lines)
