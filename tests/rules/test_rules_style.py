"""The rules layer's own house style (GUIDE "Style"): no class name defined
twice, and code and tests say the feature and the seed section, never a
tracker number ("issue 13", "item 4")."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "ka_tui" / "rules"
RULES_TESTS = ROOT / "tests" / "rules"
TAG = re.compile(r"(?<![a-z])(?:issues?|items?)[ _-]?\d+", re.IGNORECASE)


def test_no_class_name_is_defined_twice_in_the_rules() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(str(path.relative_to(ROOT)))
    twice = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert twice == {}


def test_rules_and_their_tests_carry_no_tracker_numbers() -> None:
    found = []
    for folder in (RULES, RULES_TESTS):
        for path in sorted(folder.rglob("*.py")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if TAG.search(line) and path.name != Path(__file__).name:
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []
