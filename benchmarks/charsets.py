"""The charset matrix: real text in many encodings x declared labels, decoded.

Each case (``tests/html/charset_cases.py``) is a page of real text encoded in one of
the encodings its script uses, declaring the right label, none, ``iso-8859-1`` (the
servers' default), ``utf-8``, or a wrong label of its own script family (koi8-r on
windows-1251 bytes, big5 on gb18030...). Right: the decoded page holds the text.

    python benchmarks/charsets.py [--out results.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from corpusbot.html.decode import decode_html  # noqa: E402
from tests.html.charset_cases import cases  # noqa: E402
from tests.html.test_charset_matrix import EXTRA  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    made = cases(EXTRA)
    right, total, misses = Counter(), Counter(), []
    started = time.perf_counter()
    for case in made:
        decoded = decode_html(case.body())
        total[case.kind] += 1
        if case.text in decoded.text:
            right[case.kind] += 1
        else:
            misses.append(f"{case.name} -> {decoded.encoding}")
    seconds = time.perf_counter() - started
    print(f"{sum(right.values())} of {len(made)} right, {1000 * seconds / len(made):.1f} ms "
          "per page")
    for kind in total:
        print(f"  {kind:8} {right[kind]} of {total[kind]}")
    for miss in misses:
        print(f"  miss: {miss}")
    if args.out:
        args.out.write_text(json.dumps({"right": sum(right.values()), "cases": len(made),
                                        "by_label": {k: [right[k], total[k]] for k in total},
                                        "misses": misses}, indent=2) + "\n")


if __name__ == "__main__":
    main()
