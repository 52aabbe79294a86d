"""Every second-edition rule number the source cites in an error has a first-edition citation.

A walk over the syntax trees of ``src/``: the rule a :class:`~india1853.errors.RuleError` is
raised with (a literal, or a literal rule citation held in a variable, a policy or a helper's
argument: every string constant shaped like a citation), and the rule numbers in the messages of
``RuleError`` and ``InputError``.  Each second-edition number (2.x-5.x) must be mapped to the
first edition's paragraph in ``data/rule_citations.json`` or listed there as second-only, so a
first-edition game never shows a player a 2009 number; a new rule cited without a mapping fails
here.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

from india1853.data.citations import FILE, citation_map, cite, second_only

SRC = Path(__file__).resolve().parents[2] / "src" / "india1853"
# A second-edition number: not part of a larger number, a table's ("TABLE 3") nor one of the
# first edition's Alternative Rules ("Alternative Rules 4.0").
SECOND = re.compile(r"(?<![\d.])(?<!TABLE )(?<!Rules )(?<!MIK )[2-5](?:\.\d+)*(?![\d.])")
# A string that is a rule citation: "2.5.4", "4.1.2-4.1.3 / 31.2", "4.2.5 / 31.15, TABLE 8".
CITATION = re.compile(r"[\d.\-/, ]*\d\.\d[\d.\-/, ]*(?:, TABLE \d+)?")
ERRORS = ("RuleError", "InputError")


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _strings(node: ast.AST) -> Iterator[str]:
    """The string constants in ``node`` (an f-string's literal parts, both arms of an if)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            yield sub.value


def _rule_params(tree: ast.AST) -> dict[str, dict[str | int, str]]:
    """The module's functions taking a rule ("rule", "reach_rule"): name -> their position
    and keyword."""
    out: dict[str, dict[str | int, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            for i, arg in enumerate(params):
                if arg.arg == "rule" or arg.arg.endswith("_rule"):
                    out.setdefault(node.name, {})[arg.arg] = arg.arg
                    if i < len(node.args.posonlyargs) + len(node.args.args):
                        out[node.name][i] = arg.arg
    return out


def _rule_arguments(call: ast.Call, params: dict[str, dict[str | int, str]]) -> Iterator[str]:
    """The strings a call passes to a parameter named for a rule (``_only(kind, allowed, "3")``)."""
    taken = params.get(_name(call), {})
    for i, arg in enumerate(call.args):
        if i in taken:
            yield from _strings(arg)
    for kw in call.keywords:
        if kw.arg is not None and (kw.arg in taken or kw.arg.endswith("rule")):
            yield from _strings(kw.value)


def cited() -> dict[str, set[str]]:
    """Rule citation -> where the source cites it ("path:line")."""
    out: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        where = path.relative_to(SRC.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        params = _rule_params(tree)
        for node in ast.walk(tree):
            found: list[str] = []
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if CITATION.fullmatch(node.value):
                    found.append(node.value)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                # A step's rules (steps/): ``rule = "4.8"``, ``type_rule = "3"``.
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and (t.id == "rule" or t.id.endswith("_rule"))
                       for t in targets):
                    found += [s for s in _strings(node.value) if SECOND.search(s)]
            elif isinstance(node, ast.Call) and _name(node) not in ERRORS:
                found += [s for s in _rule_arguments(node, params) if SECOND.search(s)]
            elif isinstance(node, ast.Call):
                args = list(node.args)
                if _name(node) == "RuleError" and args:
                    found += [s for s in _strings(args[0]) if SECOND.search(s)]
                    args = args[1:]
                for arg in args:
                    found += [m.group(0) for s in _strings(arg) for m in SECOND.finditer(s)
                              if "." in m.group(0)]
            for citation in found:
                out.setdefault(citation, set()).add(f"{where}:{getattr(node, 'lineno', 0)}")
    return out


def test_the_walk_finds_the_rules_errors_cite() -> None:
    found = cited()
    # A literal rule, one held in a variable, a helper's argument and a policy field.
    for rule in ("5.1", "4.1.2-4.1.3 / 31.2", "2.5.4", "3.1.8", "4.2.2-4.2.3 / 31.13"):
        assert rule in found
    assert "3" in found  # the stock step's "rule 3" for an action out of place in a stock round
    assert "(3-6)" not in found and "3-6" not in found  # a range of player counts


def test_every_second_edition_rule_cited_has_a_first_edition_citation() -> None:
    mapped, only = citation_map("first"), second_only()
    missing = {}
    for citation, where in cited().items():
        left = [n for n in SECOND.findall(cite("first", citation)) if n not in only]
        if left:
            missing[citation] = (left, sorted(where)[:3])
    assert not missing, (
        "2009 rule numbers without a first-edition citation: map them in "
        f"data/rule_citations.json or list them under second_only: {missing}")
    assert not only & set(mapped), "a second-only rule is also mapped"


def test_the_map_gives_first_edition_numbers() -> None:
    data = json.loads(FILE.read_text(encoding="utf-8"))
    for second, first in data["first"].items():
        assert SECOND.fullmatch(second), second
        assert re.fullmatch(r"(1[1-9]|2[0-4]|3[0-6]|4[01])(\.\d+)?", first), (second, first)
