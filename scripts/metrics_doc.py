"""Write docs/metrics.md's column tables again from their declarations (agui_notebook/logs/_columns.py).

    python scripts/metrics_doc.py            # rewrite the doc
    python scripts/metrics_doc.py --check    # exit 1 when the committed doc is out of date

Only the part between the doc's markers is generated; the prose around it is the doc's own.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agui_notebook.logs._columns import metrics_doc  # noqa: E402

DOC = ROOT / "docs" / "metrics.md"


def main() -> int:
    current = DOC.read_text()
    generated = metrics_doc(current)
    if "--check" in sys.argv[1:]:
        if generated != current:
            print("docs/metrics.md is out of date: run python scripts/metrics_doc.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(generated)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
