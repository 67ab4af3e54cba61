from collections.abc import Callable

import pytest


@pytest.fixture
def note_calls(monkeypatch) -> Callable:
    """note_calls(module, name, note): from now on each call of `module.name` also calls
    `note(result, *args)`, for the test to see what was rendered."""

    def on(module, name: str, note: Callable) -> None:
        real = getattr(module, name)

        def noted(*args, **kwargs):
            result = real(*args, **kwargs)
            note(result, *args)
            return result

        monkeypatch.setattr(module, name, noted)

    return on
