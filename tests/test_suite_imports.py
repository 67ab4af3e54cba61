"""No test imports another test file or a conftest: shared test code lives in modules named for
what they are (tests/factories.py, tests/pages.py, tests/browser/phone.py, …), and fixtures
reach tests through pytest, not through imports.

Importing a test file runs it twice under two names (and collects its tests into the importer);
importing a conftest makes a second copy of its module beside the one pytest loaded.
"""

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def is_test_or_conftest(module: str) -> bool:
    """A module of this suite's (under tests/, or a bare name pytest's rootdir makes importable)
    that is a test file or a conftest; a library's own `test_utils` is neither."""
    parts = module.split(".")
    if parts[0] not in ("tests", "conftest") and len(parts) > 1:
        return False
    return any(part == "conftest" or part.startswith("test_") for part in parts)


def imported_modules(source: str, package: str) -> list[str]:
    """Every module an import in `source` names (a `from x import y` names x, and x.y, which
    may be a module), relative imports resolved against `package`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]
    return found


def bad_imports(source: str, package: str) -> list[str]:
    bad = [module for module in imported_modules(source, package) if is_test_or_conftest(module)]
    return [module for module in bad if not any(module.startswith(f"{b}.") for b in bad)]


@pytest.mark.parametrize(
    "line",
    [
        "from tests.scoring.conftest import make_game",
        "from tests.browser.test_live import fill",
        "from tests.browser import test_live",
        "import tests.conftest",
        "import conftest",
        "from .conftest import PHONE",
        "from . import test_views",
        "from .test_views import HTMX",
    ],
)
def test_the_check_finds_an_import_of_a_test_file_or_a_conftest(line):
    assert bad_imports(line, "tests.browser") != []


def test_the_check_lets_helper_modules_and_libraries_through():
    source = "from tests.factories import make_game\nfrom django.test import Client\n"
    source += "from tests.browser.phone import PHONE\nfrom . import a11y\nimport pytest\n"
    source += "from aiohttp.test_utils import TestServer\n"
    assert bad_imports(source, "tests.browser") == []


def test_no_test_imports_a_test_file_or_a_conftest():
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        package = ".".join(path.relative_to(TESTS.parent).parent.parts)
        if bad := bad_imports(path.read_text(encoding="utf-8"), package):
            found[path.relative_to(TESTS.parent).as_posix()] = bad
    assert not found, f"move what these share into a helper module or a fixture: {found}"
