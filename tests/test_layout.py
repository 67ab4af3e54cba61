"""Every package stays one a newcomer can read: short modules, short functions.

Every Python module of the project outside migrations and tests: the rules engine, the hand
checker, the scoring app, the accounts app, the club nights, the site, the shared HTTP helpers,
the tools (the load test and the benchmarks), and manage.py. Scripts to run by hand, benchmarks
above all, are tools: nothing the site deploys is one.
"""

import ast
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "checker", "scoring", "accounts", "nights", "bigtwo_site", "common", "tools")
SITE_PACKAGES = tuple(package for package in PACKAGES if package != "tools")
MOST_LINES = 400
MOST_FUNCTION_LINES = 60


def project_modules() -> list[Path]:
    modules = [PROJECT / "manage.py"]
    for package in PACKAGES:
        modules += (PROJECT / package).rglob("*.py")
    return sorted(module for module in modules if "migrations" not in module.parts)


MODULES = project_modules()


def named(module: Path) -> str:
    return module.relative_to(PROJECT).as_posix()


def test_every_package_is_found():
    names = {named(module) for module in MODULES}
    assert {
        "manage.py",
        "rules/plays.py",
        "checker/views.py",
        "scoring/views/games.py",
        "scoring/services/deals.py",
        "scoring/backup/reading.py",
        "accounts/views/passwords.py",
        "bigtwo_site/settings.py",
        "common/http.py",
        "tools/loadtest/phases.py",
    } <= names
    assert not any("/migrations/" in name for name in names)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_400_lines(package):
    long = {
        named(module): lines
        for module in MODULES
        if module.is_relative_to(PROJECT / package)
        and (lines := len(module.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, f"split these where their seams are: {long}"


@pytest.mark.parametrize("package", PACKAGES)
def test_no_function_is_over_60_lines(package):
    long = {
        f"{named(module)}:{node.name}": length
        for module in MODULES
        if module.is_relative_to(PROJECT / package)
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := node.end_lineno - node.lineno + 1) > MOST_FUNCTION_LINES
    }
    assert not long, f"break these up: {long}"


def test_scripts_and_benchmarks_are_tools():
    """No module of the packages the site deploys is a script run by hand or a benchmark."""
    scripts = [
        named(module)
        for module in MODULES
        if module.relative_to(PROJECT).parts[0] in SITE_PACKAGES
        and ("bench" in module.stem or 'if __name__ == "__main__":' in module.read_text("utf-8"))
    ]
    assert not scripts, f"move these under tools/: {scripts}"
