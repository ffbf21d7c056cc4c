"""What the built-in DemoAgent's showcase conversation looks like, shared by the tests that drive it."""

SHOWCASE_PART_TYPES = [
    "data-plan",
    "step-start",
    "reasoning",
    "tool-get_weather",
    "step-start",
    "text",
    "source-url",
    "file",
    "tool-send_report",
]
"""The assistant message's part types after the first run, which stops for the ``send_report`` approval."""

RESUMED_PART_TYPES = [*SHOWCASE_PART_TYPES, "step-start", "text", "data-suggestions"]
"""The same message once the approval is answered and the resumed run has replied (and offered what to ask next)."""
