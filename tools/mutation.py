"""Mutation testing of the rules layer: a tool to run by hand, not in CI.

    pip install -e '.[mutation]'              # mutmut, pinned in pyproject.toml
    python tools/mutation.py ramming          # one module (a bare name, or dotted
    python tools/mutation.py air.landing core.dice   #   under ka_tui/rules/); several
    python tools/mutation.py all              # every rules module (hours on 2 cores)
    python tools/mutation.py --report ramming # only print the last results again

mutmut (configured in ``[tool.mutmut]`` of pyproject.toml: ``ka_tui/rules/``
mutated, ``tests/rules/`` run against each mutant) copies the package into
``mutants/`` and plants one small change at a time (a flipped comparison, an
off-by-one, a changed string). A mutant is *killed* when a test fails,
*survived* when every test still passes, *timeout* when the tests hang.

Printed per module and in total: killed / survived / timeout / other, and the
score killed ÷ (killed + survived + timeout). Survivors are split into
**text** (only a string literal changed: a message or a citation, which the
tests match loosely on purpose) and **logic** (anything else: a real gap or an
equivalent mutant to judge by eye); ``--show`` prints each logic survivor's
diff. ``--fresh`` deletes ``mutants/`` first (after a change to the tests,
so mutmut does not reuse verdicts).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "ka_tui" / "rules"
MUTANTS = ROOT / "mutants"

# mutmut's exit codes (mutmut/stats.py), folded into the four we report.
KILLED = {1, 3}
SURVIVED = {0}
TIMEOUT = {36, 24, -24, 152, 255}


def classify(code: int | None) -> str:
    if code in KILLED:
        return "killed"
    if code in SURVIVED:
        return "survived"
    if code in TIMEOUT:
        return "timeout"
    return "not checked" if code is None else "other"


def module_names(args: list[str]) -> list[str]:
    """``ramming`` / ``air.landing`` / ``all`` → dotted module names under ka_tui.rules."""
    everything = sorted(
        "ka_tui.rules." + ".".join(p.relative_to(RULES).with_suffix("").parts)
        for p in RULES.rglob("*.py") if p.name != "__init__.py")
    if not args or args == ["all"]:
        return everything
    out: list[str] = []
    for a in args:
        name = a.removesuffix(".py").replace("/", ".")
        name = name if name.startswith("ka_tui.rules.") else f"ka_tui.rules.{name}"
        if name not in everything:   # a bare module name: ramming → ka_tui.rules.air.ramming
            found = [n for n in everything if n.endswith("." + name.rsplit(".", 1)[-1])]
            name = found[0] if len(found) == 1 else name
        if name not in everything:
            sys.exit(f"no module {name} under ka_tui/rules (one of: "
                     f"{', '.join(n.removeprefix('ka_tui.rules.') for n in everything)})")
        out.append(name)
    return out


def run_mutmut(modules: list[str], max_children: int, everything: bool) -> int:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # test the mutants/ copy
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children)]
    if not everything:
        cmd += [f"{m}.*" for m in modules]
    print("$", " ".join(cmd), flush=True)
    MUTANTS.mkdir(exist_ok=True)
    with open(MUTANTS / "tools-run.log", "w") as log:
        return subprocess.call(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def results(module: str) -> dict[str, int | None]:
    meta = MUTANTS / (module.replace(".", "/") + ".py.meta")
    if not meta.exists():
        return {}
    data = json.loads(meta.read_text(encoding="utf-8"))
    return dict(data.get("exit_code_by_key", {}))


def _functions(module: str) -> dict[str, ast.AST]:
    src = MUTANTS / (module.replace(".", "/") + ".py")
    tree = ast.parse(src.read_text(encoding="utf-8"))
    return {n.name: n for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _blank_strings(node: ast.AST) -> str:
    class Blank(ast.NodeTransformer):
        def visit_Constant(self, c: ast.Constant) -> ast.AST:
            return ast.Constant("") if isinstance(c.value, str) else c

        def visit_JoinedStr(self, j: ast.JoinedStr) -> ast.AST:
            return ast.Constant("")

    clone = ast.parse(ast.unparse(node))
    return ast.dump(Blank().visit(clone))


def survivor_diff(funcs: dict[str, ast.AST], key: str) -> tuple[bool, str]:
    """(text only?, unified diff) for mutant ``key`` against its original."""
    fname = key.rsplit(".", 1)[-1]                 # x_name__mutmut_7 / xǁClassǁm__mutmut_7
    orig = funcs.get(fname.rsplit("__mutmut_", 1)[0] + "__mutmut_orig")
    mutant = funcs.get(fname)
    if orig is None or mutant is None:
        return False, "(source not found)"
    a = ast.unparse(orig).splitlines()
    b = ast.unparse(mutant).replace(fname, orig.name, 1).splitlines()  # type: ignore[attr-defined]
    diff = [ln for ln in difflib.unified_diff(a, b, lineterm="", n=0)
            if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
    return _blank_strings(orig) == _blank_strings(mutant).replace(
        repr(fname), repr(orig.name)), "\n".join(diff)  # type: ignore[attr-defined]


def report(modules: list[str], show: bool) -> None:
    total: Counter[str] = Counter()
    print(f"{'module':34} {'killed':>6} {'surv.':>6} {'logic':>6} {'text':>6} "
          f"{'timeout':>7} {'other':>6} {'score':>6}")
    for module in modules:
        codes = results(module)
        if not codes:
            continue
        c = Counter(classify(v) for v in codes.values())
        funcs = _functions(module)
        logic: list[tuple[str, str]] = []
        text = 0
        for key, code in sorted(codes.items()):
            if classify(code) == "survived":
                only_text, diff = survivor_diff(funcs, key)
                if only_text:
                    text += 1
                else:
                    logic.append((key, diff))
        c["logic"], c["text"] = len(logic), text
        total.update(c)
        print(f"{module.removeprefix('ka_tui.rules.'):34} {c['killed']:6} {c['survived']:6} "
              f"{c['logic']:6} {c['text']:6} {c['timeout']:7} "
              f"{c['other'] + c['not checked']:6} {score(c):>6}")
        if show:
            for key, diff in logic:
                print(f"  survived: {key}\n" + "\n".join(f"    {ln}" for ln in diff.splitlines()))
    print(f"{'TOTAL':34} {total['killed']:6} {total['survived']:6} {total['logic']:6} "
          f"{total['text']:6} {total['timeout']:7} {total['other'] + total['not checked']:6} "
          f"{score(total):>6}")


def score(c: Counter[str]) -> str:
    judged = c["killed"] + c["survived"] + c["timeout"]
    return f"{100 * c['killed'] / judged:.1f}%" if judged else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="*", help="module(s) under ka_tui/rules, or 'all'")
    ap.add_argument("--report", action="store_true", help="print the last results only")
    ap.add_argument("--show", action="store_true", help="print each logic survivor's diff")
    ap.add_argument("--fresh", action="store_true", help="delete mutants/ first")
    ap.add_argument("--max-children", type=int, default=2, help="parallel workers (2)")
    ns = ap.parse_args(argv)
    modules = module_names(ns.modules)
    if not ns.report:
        if ns.fresh and MUTANTS.exists():
            shutil.rmtree(MUTANTS)
        code = run_mutmut(modules, ns.max_children, not ns.modules or ns.modules == ["all"])
        if code not in (0, 1):
            print(f"mutmut exited with {code}: see mutants/tools-run.log", file=sys.stderr)
    report(modules, ns.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
