"""The error family: the tree in _errors.py's docstring is the real hierarchy, and ``errors=`` is checked once."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import pytest

import agui_notebook
from agui_notebook import _errors

TREE_LINE = re.compile(r"^(?P<indent>[ │├└─]*)(?P<name>[A-Z]\w+)(?:\s+\((?P<builtin>\w+)\))?")


def _documented_tree() -> dict[str, tuple[str | None, str | None]]:
    """``name -> (parent, builtin)`` as the module docstring draws it."""
    tree: dict[str, tuple[str | None, str | None]] = {}
    stack: list[tuple[int, str]] = []
    lines = _errors.__doc__.split("::", 1)[1].split(">>>", 1)[0].splitlines()
    for line in lines:
        match = TREE_LINE.match(line.strip("\n")[4:] if line.startswith("    ") else line)
        if not line.strip() or match is None:
            continue
        depth = len(match["indent"])
        while stack and stack[-1][0] >= depth:
            stack.pop()
        tree[match["name"]] = (stack[-1][1] if stack else None, match["builtin"])
        stack.append((depth, match["name"]))
    return tree


def test_the_docstring_tree_is_the_class_hierarchy():
    tree = _documented_tree()
    assert set(tree) == set(_errors.__all__)
    for name, (parent, builtin) in tree.items():
        cls = getattr(_errors, name)
        bases = cls.__bases__
        if parent is None:
            assert name in ("AguiNotebookError", "AguiNotebookWarning")
        else:
            assert bases[0] is getattr(_errors, parent), name
        if builtin is not None:
            assert any(base.__name__ == builtin for base in cls.__mro__), name


@pytest.mark.parametrize(
    ("call", "allowed"),
    [
        (lambda mode: agui_notebook.apply_events([], errors=mode), "'skip' or 'raise'"),
        (lambda mode: agui_notebook.ui.UIMessageStreamReducer(errors=mode), "'raise' or 'collect'"),
        (lambda mode: agui_notebook.load_events("", errors=mode), "'raise' or 'collect'"),
    ],
)
def test_every_errors_argument_is_checked_the_same_way(call, allowed):
    with pytest.raises(
        agui_notebook.OptionError, match=f"^errors must be {allowed}, not 'ignore'$"
    ) as caught:
        call("ignore")
    assert isinstance(caught.value, ValueError)


def test_check_error_mode_returns_the_mode():
    assert _errors.check_error_mode("skip", ("skip", "raise")) == "skip"
    with pytest.raises(agui_notebook.OptionError):
        _errors.check_error_mode(True, ("raise", "collect"))


# -- no bare builtins ---------------------------------------------------------------------------------------------

BUILTIN_EXCEPTIONS = frozenset(
    name
    for name in dir(builtins)
    if isinstance(getattr(builtins, name), type) and issubclass(getattr(builtins, name), BaseException)
)

BARE_RAISES_ALLOWED: dict[tuple[str, str], tuple[int, str]] = {
    # (module, builtin): (how many raises, why it is not one of the family)
    ("_lazy.py", "AttributeError"): (
        1,
        "the module __getattr__ protocol: hasattr() and getattr(m, name, d) need it",
    ),
    ("agui/_intake.py", "TypeError"): (
        1,
        "control flow: caught by the enclosing except, reported as the event's error",
    ),
    ("agui/_patch.py", "IndexError"): (
        1,
        "caught by apply_json_patch, which raises JsonPatchError naming the operation",
    ),
    ("agui/_patch.py", "TypeError"): (1, "caught by apply_json_patch, as above"),
    ("agui/_reducer.py", "LookupError"): (
        2,
        "caught by EventReducer.feed_all: the event is reported as malformed",
    ),
    ("ui/_partial_json.py", "ValueError"): (1, "a json parse hook: caught where the text is parsed"),
    ("logs/_event_array.py", "ValueError"): (
        2,
        "pandas' ExtensionArray protocol (take's fill_value, concat) expects it",
    ),
    ("logs/_event_array.py", "KeyError"): (
        1,
        "EventArray.raw(i) of a row without an event: a mapping's lookup",
    ),
    ("bridge/_conversation.py", "TypeError"): (
        2,
        "caught by push(), raised again as RunStreamError with the index",
    ),
    ("chat/_saved.py", "ValueError"): (
        4,
        "caught below in _unpacked, raised again as ChatLogError naming the file",
    ),
    ("chat/_store.py", "ValueError"): (
        1,
        "control flow: a tail that is not a record is torn, like one that is not JSON",
    ),
    ("evals/_cases.py", "AssertionError"): (
        1,
        "evals.check is a test's assertion: pytest reports a failed one as an AssertionError, as it does expect's",
    ),
    ("widget/_requests.py", "TypeError"): (1, "caught at once, answered to the front end as a bad request"),
    ("widget/_renderers.py", "KeyError"): (
        1,
        "the mapping protocol: del renderers[name] of a name not registered",
    ),
}


def _bare_raises() -> dict[tuple[str, str], int]:
    package = Path(agui_notebook.__file__).parent
    found: dict[tuple[str, str], int] = {}
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and node.exc is not None:
                raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(raised, ast.Name) and raised.id in BUILTIN_EXCEPTIONS:
                    found[(module, raised.id)] = found.get((module, raised.id), 0) + 1
    return found


def test_no_new_raise_of_a_bare_builtin() -> None:
    # A raise of a builtin (``raise ValueError(...)``) outside the list is an error leaving the family: raise the
    # family's class that keeps that builtin (agui_notebook/_errors.py), or add it here with the reason.
    allowed = {key: count for key, (count, _) in BARE_RAISES_ALLOWED.items()}
    assert _bare_raises() == allowed


# -- sources that are neither a file nor JSON ---------------------------------------------------------------------

SOURCE_READERS = {
    "parse_events": lambda source: agui_notebook.parse_events(source),
    "iter_wire_events": lambda source: list(agui_notebook.iter_wire_events(source)),
    "iter_ui_chunks": lambda source: list(agui_notebook.iter_ui_chunks(source)),
    "load_events": lambda source: agui_notebook.load_events(source),
    "expect": lambda source: agui_notebook.expect(source),
    "inspect_run": lambda source: agui_notebook.inspect_run(source),
    "diff_runs": lambda source: agui_notebook.diff_runs(source, source),
    "runs_df": lambda source: agui_notebook.runs_df(source),
    "apply_events": lambda source: agui_notebook.apply_events(source),
    "ui_messages_from_events": lambda source: agui_notebook.ui_messages_from_events(source),
}


@pytest.fixture
def symlink_loop(tmp_path: Path) -> str:
    (tmp_path / "a.jsonl").symlink_to(tmp_path / "b.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "a.jsonl")
    return str(tmp_path / "a.jsonl")


@pytest.mark.parametrize("reader", sorted(SOURCE_READERS))
def test_a_string_that_is_neither_a_file_nor_json_is_a_source_not_found(reader: str) -> None:
    with pytest.raises(
        agui_notebook.SourceNotFoundError, match=r"^'hello' is neither an existing file nor JSON"
    ):
        SOURCE_READERS[reader]("hello")
    with pytest.raises(FileNotFoundError):  # the builtin a caller would catch, kept
        SOURCE_READERS[reader]("hello")


@pytest.mark.parametrize("reader", sorted(SOURCE_READERS))
def test_a_symlink_loop_is_said_to_be_one(reader: str, symlink_loop: str) -> None:
    with pytest.raises(
        agui_notebook.SourceNotFoundError, match="is a symbolic link to nothing readable"
    ) as caught:
        SOURCE_READERS[reader](symlink_loop)
    assert caught.value.path == symlink_loop


@pytest.mark.parametrize("reader", sorted(SOURCE_READERS))
@pytest.mark.parametrize("source", [None, 12, 1.5], ids=["None", "12", "1.5"])
def test_a_value_no_reader_takes_is_an_input_type_error(reader: str, source: object) -> None:
    with pytest.raises(agui_notebook.InputTypeError, match=f"{type(source).__name__}$") as caught:
        SOURCE_READERS[reader](source)
    assert isinstance(caught.value, TypeError)


def test_a_folder_given_as_a_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(agui_notebook.SourceFolderError, match="is a folder, not a file of events") as caught:
        agui_notebook.parse_events(str(tmp_path))
    assert isinstance(caught.value, IsADirectoryError) and caught.value.path == str(tmp_path)


def test_every_error_pickles_with_its_attributes() -> None:
    # A worker process of workers= sends its errors back pickled: a keyword-only constructor did not rebuild.
    import pickle

    error = agui_notebook.EventParseError("run.jsonl:2: invalid JSON", source="run.jsonl", line=2, index=1)
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), str(again), again.source, again.line, again.index) == (
        agui_notebook.EventParseError,
        "run.jsonl:2: invalid JSON",
        "run.jsonl",
        2,
        1,
    )
    for name in _errors.__all__:
        cls = getattr(_errors, name)
        if issubclass(cls, _errors.AguiNotebookError):
            assert pickle.loads(pickle.dumps(cls.__new__(cls))).__class__ is cls
