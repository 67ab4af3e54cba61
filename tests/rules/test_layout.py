"""The rules package stays one a newcomer can read: short modules, short functions."""

import ast
from pathlib import Path

import rules

PACKAGE = Path(rules.__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))
MOST_LINES = 400
MOST_FUNCTION_LINES = 60


def test_the_package_and_its_web_layer_are_found():
    names = {module.relative_to(PACKAGE).as_posix() for module in MODULES}
    assert {"plays.py", "lookups.py", "web/views.py", "web/api.py"} <= names


def test_no_module_is_over_400_lines():
    long = {
        module.relative_to(PACKAGE).as_posix(): lines
        for module in MODULES
        if (lines := len(module.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, f"split these where their seams are: {long}"


def test_no_function_is_over_60_lines():
    long = {
        f"{module.relative_to(PACKAGE).as_posix()}:{node.name}": length
        for module in MODULES
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := node.end_lineno - node.lineno + 1) > MOST_FUNCTION_LINES
    }
    assert not long, f"break these up: {long}"
