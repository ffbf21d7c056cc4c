"""Incremental markdown: completed blocks are rendered once and kept, streaming ends where a one-shot render does,
and a long conversation does not make new deltas slower."""

from __future__ import annotations

import random
import statistics

import pytest

pytestmark = pytest.mark.browser

SAMPLES = {
    "blocks": "# Title\n\nA paragraph with *emphasis*\nand a second line.\n\n## Next\n\nText after.\n",
    "lists": "- one\n- two\n  - nested\n- three\n\n1. first\n2. second\n\n- loose\n\n- list\n\nafter the list",
    "code": "Before:\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\n    indented\n\n    code\n\nAfter.",
    "table": "| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\nText | not a table",
    "quote": "> quoted\nlazy line\n\n> second quote\n\nplain",
    "setext": "Heading\n=======\n\nSub\n---\n\n---\n\npara\n***\n",
    "tasks": "- [x] done\n- [ ] todo\n\n~~gone~~ and `code` and <kbd>Ctrl</kbd>",
    "references": "See [the docs][docs] and [1].\n\nMore text here.\n\n[docs]: https://example.com/docs\n[1]: https://example.com/one",
    "html": "<details><summary>More</summary>\n\nhidden *text*\n\n</details>\n\nend",
    "breaks": "line one  \nline two\\\nline three\n\n\n\n\nfar below",
    "coloured code": 'Run:\n\n```python\ndef f(x):\n    """Doc."""\n    return x + 1  # one more\n```\n\nDone.',
}


def stream_chunks(text: str, rng: random.Random) -> list[str]:
    chunks, index = [], 0
    while index < len(text):
        size = rng.choice([1, 1, 2, 3, 5, 8])
        chunks.append(text[index : index + size])
        index += size
    return chunks


def assistant_text(text: str, state: str) -> dict:
    return {"id": "a", "role": "assistant", "parts": [{"type": "text", "text": text, "state": state}]}


def md_html(widget) -> str:
    return widget.locator("[data-part-type=text] .agui-md").inner_html()


@pytest.mark.parametrize("name", list(SAMPLES))
def test_streamed_markdown_ends_like_a_one_shot_render(chat, name):
    text = SAMPLES[name]
    expected = chat.open(messages=[assistant_text(text, "done")])
    streamed = chat.open(messages=[assistant_text("", "streaming")])
    rng = random.Random(name)
    patches = [
        {"kind": "patch", "seq": seq, "ops": [["t", 0, 0, chunk]]}
        for seq, chunk in enumerate(stream_chunks(text, rng), start=1)
    ]
    # Render after every few deltas, as frames would fall between patches.
    for start in range(0, len(patches), 3):
        streamed.deliver(*patches[start : start + 3])
    done = {"type": "text", "text": text, "state": "done"}
    streamed.deliver({"kind": "patch", "seq": len(patches) + 1, "ops": [["p", 0, 0, done]]})
    assert md_html(streamed) == md_html(expected)


def test_completed_blocks_keep_their_dom_nodes(chat):
    widget = chat.open(messages=[assistant_text("", "streaming")])
    text = "First paragraph.\n\n```py\nx = 1\n```\n\nThird block is long and keeps growing"
    seq = 0
    for chunk in stream_chunks(text, random.Random(1)):
        seq += 1
        widget.deliver({"kind": "patch", "seq": seq, "ops": [["t", 0, 0, chunk]]})
    blocks = widget.locator(".agui-md > .agui-md-block")
    assert blocks.count() == 3
    mark_all = "(els) => els.forEach((e, i) => { e.__aguiMark = i; })"
    marks = "(els) => els.map((e) => e.__aguiMark ?? null)"
    blocks.evaluate_all(mark_all)

    def more(*deltas: str) -> None:
        nonlocal seq
        for delta in deltas:
            seq += 1
            widget.deliver({"kind": "patch", "seq": seq, "ops": [["t", 0, 0, delta]]})

    more(" with", " more", " words.")
    # The two completed blocks are the same nodes; the growing third one is redrawn.
    assert blocks.evaluate_all(marks) == [0, 1, None]
    blocks.evaluate_all(mark_all)
    more("\n\n- a", "\n- b")
    # The third block completed exactly as last drawn, so its node was kept too; the list is the new live block.
    assert blocks.evaluate_all(marks) == [0, 1, 2, None]
    assert widget.locator(".agui-md-live").count() == 1
    assert widget.locator(".agui-md-live li").all_inner_texts() == ["a", "b"]


def test_only_the_last_block_changes_while_streaming(chat):
    widget = chat.open(messages=[assistant_text("# Head\n\nfirst para\n\nsecond", "streaming")])
    chat.evaluate(
        """() => {
        window.__touched = new Set();
        const md = document.querySelector('.agui-md');
        new MutationObserver((records) => {
          for (const r of records) {
            for (const n of [r.target, ...r.addedNodes, ...r.removedNodes]) {
              const el = n.nodeType === 1 ? n : n.parentElement;
              const block = el?.closest?.('.agui-md-block');
              window.__touched.add(block ? block.textContent.slice(0, 6) : (el === md ? 'container' : 'other'));
            }
          }
        }).observe(md, {subtree: true, childList: true, characterData: true, attributes: true});
      }"""
    )
    for seq, delta in enumerate([" para", " grows", " more"], start=1):
        widget.deliver({"kind": "patch", "seq": seq, "ops": [["t", 0, 0, delta]]})
    touched = set(chat.evaluate("() => [...window.__touched]"))
    assert touched <= {"second", "container"}, touched


def test_reference_definition_arriving_later_links_earlier_blocks(chat):
    widget = chat.open(messages=[assistant_text("See [the docs][docs].\n\nMore text.\n\n", "streaming")])
    assert widget.locator("[data-part-type=text] a").count() == 0
    widget.deliver({"kind": "patch", "seq": 1, "ops": [["t", 0, 0, "[docs]: https://example.com/docs"]]})
    link = widget.locator("[data-part-type=text] a")
    assert link.get_attribute("href") == "https://example.com/docs"
    assert link.inner_text() == "the docs"


def test_code_block_copy_button_copies_the_code(chat):
    widget = chat.open(messages=[assistant_text("```sh\necho hi\n```", "done")])
    button = widget.locator("[data-agui=copy-code]")
    button.click()
    assert chat.evaluate("() => navigator.clipboard.readText()") == "echo hi\n"
    assert button.get_attribute("data-copied") == "true"


PYTHON = 'import json\n\n@cache\ndef load(path: str, retries=3):\n    """Read <b>it</b>."""\n    # not <img src=x onerror=alert(1)>\n    return json.loads(open(path).read()) if retries > 0 else None\n'


def tokens(widget, kind: str) -> list[str]:
    return widget.locator(f".agui-code code .agui-tok-{kind}").all_inner_texts()


def test_code_blocks_are_coloured_by_language(chat):
    widget = chat.open(messages=[assistant_text(f"```py\n{PYTHON}```", "done")])
    code = widget.locator(".agui-code code")
    assert code.get_attribute("data-highlighted") == "python"
    assert code.evaluate("(el) => el.textContent") == PYTHON  # colouring never changes the text
    assert tokens(widget, "keyword") == ["import", "def", "return", "if", "else"]
    assert tokens(widget, "def") == ["load"] and tokens(widget, "meta") == ["@cache"]
    assert tokens(widget, "string") == ['"""Read <b>it</b>."""']
    assert tokens(widget, "comment") == ["# not <img src=x onerror=alert(1)>"]
    assert tokens(widget, "number") == ["3", "0"] and tokens(widget, "literal") == ["None"]
    assert widget.locator(".agui-code code b, .agui-code code img").count() == 0  # text, never markup
    colour = "(el) => getComputedStyle(el).color"
    keyword = widget.locator(".agui-tok-keyword").first.evaluate(colour)
    assert keyword != code.evaluate(colour) != widget.locator(".agui-tok-string").first.evaluate(colour)
    widget.locator("[data-agui=copy-code]").click()
    assert chat.evaluate("() => navigator.clipboard.readText()") == PYTHON


@pytest.mark.parametrize(
    ("language", "source", "kind", "expected"),
    [
        ("ts", "const n: number = 1; // c", "keyword", ["const"]),
        ("json", '{"a": [true, null, 2]}', "property", ['"a"']),
        ("bash", 'echo "$HOME" --all # c', "variable", []),
        ("bash", "export PATH=$HOME/bin", "variable", ["$HOME"]),
        ("SQL", "select * from t where a = 'x' -- c", "keyword", ["select", "from", "where"]),
        ("yaml", "name: demo # c\nn: 2", "property", ["name", "n"]),
    ],
)
def test_other_languages(chat, language, source, kind, expected):
    widget = chat.open(messages=[assistant_text(f"```{language}\n{source}\n```", "done")])
    assert tokens(widget, kind) == expected
    assert widget.locator(".agui-code code").evaluate("(el) => el.textContent") == source + "\n"


def test_unknown_languages_stay_plain(chat):
    widget = chat.open(
        messages=[assistant_text("```brainfuck\n+[--->++<]>+.\n```\n\n```\nno language\n```", "done")]
    )
    assert widget.locator(".agui-code code [class^=agui-tok-]").count() == 0
    assert widget.locator(".agui-code code[data-highlighted]").count() == 0


DELTA_TIMING = """
async ([targets, count]) => {
  // Frames run on demand here, so the time measured is the widget's own work (apply + render + layout).
  // The widgets take turns delta by delta, so a busy machine slows them alike.
  const queue = [];
  const realRaf = window.requestAnimationFrame;
  window.requestAnimationFrame = (callback) => { queue.push(callback); return queue.length; };
  const times = targets.map(() => []);
  try {
    for (let i = 0; i < count; i += 1) {
      targets.forEach(([model, messageIndex], t) => {
        const start = performance.now();
        window.agui.deliver(model, {kind: 'patch', seq: i + 1, ops: [['t', messageIndex, 0, ' word' + i]]});
        while (queue.length) queue.shift()(performance.now());
        document.body.getBoundingClientRect();
        times[t].push(performance.now() - start);
      });
    }
  } finally {
    window.requestAnimationFrame = realRaf;
  }
  return times;
}
"""


def conversation_of(length: int) -> list[dict]:
    messages = []
    for index in range(length - 1):
        role = "user" if index % 2 == 0 else "assistant"
        text = (
            f"A question about *item* {index}?"
            if role == "user"
            else f"## Answer {index}\n\n- point\n- point\n\n`code`"
        )
        messages.append(
            {"id": f"m{index}", "role": role, "parts": [{"type": "text", "text": text, "state": "done"}]}
        )
    messages.append(
        {"id": "live", "role": "assistant", "parts": [{"type": "text", "text": "", "state": "streaming"}]}
    )
    return messages


def test_500_messages_do_not_slow_new_deltas(chat):
    long = chat.open(messages=conversation_of(500), height=400)
    short = chat.open(messages=conversation_of(6), height=400)
    assert long.locator(".agui-message").count() == 500
    long_times, short_times = chat.evaluate(DELTA_TIMING, [[[long.model, 499], [short.model, 5]], 150])
    short_median = statistics.median(short_times[20:])
    long_median = statistics.median(long_times[20:])
    print(f"median per delta: 6 messages {short_median:.3f} ms, 500 messages {long_median:.3f} ms")
    assert long_median < 8.0  # inside half a frame (a flex list took 40 ms here)
    assert long_median < 2.5 * short_median + 1.5


def test_json_views_are_coloured_but_plain_strings_are_not(chat):
    tool = {
        "type": "tool-get_weather",
        "toolCallId": "c",
        "state": "output-available",
        "input": {"city": "Paris", "days": 2},
        "output": "Sunny, 18 degrees",
    }
    widget = chat.open(
        messages=[{"id": "a", "role": "assistant", "parts": [tool, {"type": "data-w", "data": [1]}]}]
    )
    texts = "(els) => els.map((e) => e.textContent)"  # the closed card hides them from innerText
    arguments = widget.locator(".agui-tool-input .agui-json")
    assert arguments.locator(".agui-tok-property").evaluate_all(texts) == ['"city"', '"days"']
    assert arguments.locator(".agui-tok-number").evaluate_all(texts) == ["2"]
    output = widget.locator(".agui-tool-output .agui-json")
    assert output.locator("[class^=agui-tok-]").count() == 0
    assert output.evaluate("(e) => e.textContent") == "Sunny, 18 degrees"
    assert widget.locator(".agui-data .agui-json .agui-tok-number").evaluate_all(texts) == ["1"]
