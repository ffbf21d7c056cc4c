"""log_cases and check (evals/_cases.py): a folder of logs as pytest parameters, and a scorer as an assertion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agui_notebook import InputTypeError
from agui_notebook.evals import check, json_matches, log_cases, text_contains, tool_called
from tests.evals.events import WEATHER

FOLDER = Path(__file__).parent / "recorded"


def _write(folder: Path) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "weather.jsonl").write_text("".join(json.dumps(e) + "\n" for e in WEATHER[:10]))
    (folder / "oslo.jsonl").write_text("".join(json.dumps(e) + "\n" for e in WEATHER[10:]))


def test_each_run_of_a_folder_is_a_case_with_its_file_and_run(tmp_path: Path) -> None:
    _write(tmp_path)
    cases = log_cases(tmp_path)
    assert [case.id for case in cases] == ["oslo.jsonl:r3", "weather.jsonl:r1", "weather.jsonl:r2"]
    (run,) = cases[0].values
    assert run.text == '{"city": "Oslo", "sky": "snow"}'  # type: ignore[attr-defined]


def test_check_passes_or_fails_with_the_scorers_reason(tmp_path: Path) -> None:
    _write(tmp_path)
    oslo, _paris, unknown = (case.values[0] for case in log_cases(tmp_path))
    check(oslo, tool_called("get_weather", city="Oslo"), json_matches({"required": ["sky"]}))
    with pytest.raises(
        AssertionError, match=r"^contains_Paris: expected the text of run 'r2' to contain 'Paris'"
    ):
        check(unknown, text_contains("Paris"))
    with pytest.raises(InputTypeError, match=r"^check: give a run"):
        check("r1", text_contains("x"))  # type: ignore[arg-type]


def _cases_here() -> list[object]:
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="agui-cases-"))
    _write(folder)
    return log_cases(folder)


@pytest.mark.parametrize("run", _cases_here())
def test_a_recorded_run_as_a_regression_test(run) -> None:  # type: ignore[no-untyped-def]
    run.expect().no_tool_errors().verify()
