"""The fact check: every verdict, count and cost an output states must match the records.

KAPPA's fact check found 9–16 problems in each first-draft report, so we parse each rendered
output back (not just look for strings) and compare it with `results.json` and `events.jsonl`,
read here on their own, without the report code's loader or summaries.
"""

import json
import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

from paperlint.reports import write_report

LABELS = {
    "verified unconditionally": "verified_unconditional",
    "verified conditionally": "verified_conditional",
    "issue recorded": "issue",
    "unfinished": "unfinished",
    "no verdict yet": "no_verdict",
    "input (not verdict-bearing)": "input",
}


# ---------------------------------------------------------------- the truth, from the records


def _bucket(record):
    if not record.get("verdict_bearing", True):
        return "input"
    return record.get("verdict") or "no_verdict"


class Truth:
    def __init__(self, ws: Path):
        records = json.loads((ws / "results.json").read_text())
        self.replay = records["replay"]
        self.results = {r["id"]: r for r in records["results"]}
        self.counts = defaultdict(int)
        for record in records["results"]:
            self.counts[_bucket(record)] += 1
        self.costs = {"role": {}, "model": {}, "result": {}}
        self.total = [0.0, 0, 0]  # known USD, unknown calls, calls
        for line in (ws / "events.jsonl").read_text().splitlines():
            event = json.loads(line)
            if event["type"] == "model_call":
                self._add(event)

    def _add(self, event):
        targets = [self.total]
        for group in ("role", "model", "result"):
            targets.append(self.costs[group].setdefault(event[group] or "(run)", [0.0, 0, 0]))
        cost = event["cost_usd"]
        for target in targets:
            target[0] += cost or 0.0
            target[1] += cost is None
            target[2] += 1

    def sarif_findings(self):
        """Issues one by one; the unfinished results, all in one note (they are not findings)."""
        found = set()
        for rid, record in self.results.items():
            if record["verdict"] == "issue":
                cls = record["issue"]["class"]
                found.add((rid, cls, "error" if cls == "ERROR" else "warning"))
        return found

    def sarif_unfinished(self):
        return {
            rid
            for rid, record in self.results.items()
            if record["verdict"] == "unfinished" and record.get("verdict_bearing", True)
        }


def parse_usd(text):
    """'$1.25' -> (1.25, 0); 'unknown' -> (None, None); '$1 + unknown (2 calls)' -> (1, 2)."""
    text = text.replace("\\", "").strip()
    if text == "unknown":
        return None, None
    match = re.fullmatch(r"\$([\d.]+)(?: \+ unknown \((\d+) calls?\))?", text)
    assert match, f"unparseable cost {text!r}"
    return float(match.group(1)), int(match.group(2) or 0)


def assert_cost(text, truth_entry):
    known, unknown, calls = truth_entry
    usd, unknown_shown = parse_usd(text)
    if unknown == calls:
        assert usd is None, f"all-unknown cost shown as {text!r}"
        return
    assert usd == pytest.approx(known, abs=0.006)
    assert unknown_shown == unknown


@pytest.fixture
def rendered(workspace):
    write_report(workspace)
    return workspace / "report", Truth(workspace)


# ---------------------------------------------------------------- report.json


def test_json_agrees_with_the_records(rendered):
    folder, truth = rendered
    report = json.loads((folder / "report.json").read_text())
    assert report["replay"] == truth.replay
    assert {k: v for k, v in report["counts"].items() if v} == dict(truth.counts)
    for row in report["results"]:
        record = truth.results[row["id"]]
        assert row["verdict"] == record["verdict"]
        assert row["number"] == record["number"]
        assert row["class"] == (record["issue"] or {}).get("class")
        assert row["reason"] == (record["unfinished"] or {}).get("reason")
    assert {r["id"] for r in report["results"]} == set(truth.results)
    total = report["costs"]["total"]
    assert total["cost_usd"] is None  # one call's cost is unknown
    assert total["cost_usd_known"] == pytest.approx(truth.total[0])
    assert total["calls_cost_unknown"] == truth.total[1]
    for line in report["costs"]["by_model"]:
        known, unknown, calls = truth.costs["model"][line["key"]]
        assert (line["cost_usd_known"], line["calls_cost_unknown"]) == (known, unknown)
        assert line["cost_usd"] == (None if unknown else known)


# ---------------------------------------------------------------- report.sarif


def test_sarif_agrees_with_the_records(rendered):
    folder, truth = rendered
    sarif = json.loads((folder / "report.sarif").read_text())
    run = sarif["runs"][0]
    issues = [
        r
        for r in run["results"]
        if r["ruleId"] != "unfinished" and not r["ruleId"].startswith("preflight/")
    ]
    found = {(r["properties"]["resultId"], r["ruleId"], r["level"]) for r in issues}
    assert found == truth.sarif_findings()
    notes = [r for r in run["results"] if r["ruleId"] == "unfinished"]
    unfinished = truth.sarif_unfinished()
    assert len(notes) == (1 if unfinished else 0)
    if notes:
        assert notes[0]["level"] == "note"
        assert set(notes[0]["properties"]["results"]) == unfinished
    for result in issues:
        record = truth.results[result["properties"]["resultId"]]
        if record["issue"]:
            region = result["locations"][0]["physicalLocation"]["region"]
            assert region["startLine"] == record["issue"]["location"]["line"]
    assert run["properties"]["replay"] == truth.replay


# ---------------------------------------------------------------- report.md


def _md_table(text, heading):
    block = text.split(heading + "\n\n", 1)[1].split("\n\n", 1)[0]
    rows = [line.strip("|").split(" | ") for line in block.splitlines()[2:]]
    return [[cell.strip().replace("\\", "") for cell in row] for row in rows]


def test_markdown_agrees_with_the_records(rendered):
    folder, truth = rendered
    text = (folder / "report.md").read_text()
    counts = {LABELS[label]: int(n) for label, n in _md_table(text, "## Summary")}
    assert {k: v for k, v in counts.items() if v} == dict(truth.counts)
    for group in ("role", "model", "result"):
        rows = _md_table(text, f"### Cost by {group}")
        assert {row[0] for row in rows} == set(truth.costs[group])
        for row in rows:
            assert int(row[1]) == truth.costs[group][row[0]][2]
            assert_cost(row[4], truth.costs[group][row[0]])
    total = re.search(r"^- Total cost: (.+)$", text, re.M).group(1)
    assert_cost(total, truth.total)
    assert ("REPLAY" in text.split("## Summary")[0]) == truth.replay
    for _, _, rid, label, detail in _md_table(text, "## Results at a glance"):
        record = truth.results[rid.strip("`")]
        assert LABELS[label] == _bucket(record)
        expected = (record["issue"] or {}).get("class") or (record["unfinished"] or {}).get(
            "reason"
        )
        assert detail == (expected or "—")
    sections = re.split(r"^### (?=.* — )", text.split("\n## Results\n", 1)[1], flags=re.M)[1:]
    assert len(sections) == len(truth.results)
    for section in sections:
        _check_md_result(section, truth)


def _check_md_result(section, truth):
    rid = re.search(r"^- Id: `([^`]+)`", section, re.M).group(1)
    record = truth.results[rid]
    heading_label = section.splitlines()[0].rsplit(" — ", 1)[1]
    verdict_label = re.search(r"^\*\*Verdict:\*\* (.+)$", section, re.M).group(1)
    assert LABELS[heading_label] == LABELS[verdict_label] == _bucket(record)
    issue_class = re.search(r"^- Issue class: (\w+)", section, re.M)
    assert (issue_class.group(1) if issue_class else None) == (record["issue"] or {}).get("class")
    reason = re.search(r"^- Unfinished: ([\w\\]+):", section, re.M)
    shown = reason.group(1).replace("\\", "") if reason else None
    assert shown == (record["unfinished"] or {}).get("reason")


# ---------------------------------------------------------------- report.html


class Node:
    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.children = tag, dict(attrs), []
        self.text = self.tail = ""  # as in ElementTree: text before the first child, and after

    def all_text(self):
        return self.text + "".join(c.all_text() + c.tail for c in self.children)

    def find_all(self, predicate):
        for child in self.children:
            if predicate(child):
                yield child
            yield from child.find_all(predicate)

    def has_class(self, name):
        return name in (self.attrs.get("class") or "").split()


class TreeBuilder(HTMLParser):
    VOID = {"meta", "link", "br", "img", "hr", "input", "rect", "path", "marker"}

    def __init__(self):
        super().__init__()
        self.root = Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs)
        self.stack[-1].children.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, attrs))

    def handle_endtag(self, tag):
        while len(self.stack) > 1 and self.stack.pop().tag != tag:
            pass

    def handle_data(self, data):
        target = self.stack[-1]
        if target.children:
            target.children[-1].tail += data
        else:
            target.text += data


def parse_html(path):
    builder = TreeBuilder()
    builder.feed(path.read_text())
    return builder.root


def test_html_agrees_with_the_records(rendered):
    folder, truth = rendered
    root = parse_html(folder / "report.html")
    table = next(root.find_all(lambda n: n.tag == "table" and n.has_class("counts")))
    counts = {}
    for row in table.find_all(lambda n: n.tag == "tr" and "data-verdict" in n.attrs):
        label = next(row.find_all(lambda n: n.tag == "th")).all_text().strip()
        assert LABELS[label] == row.attrs["data-verdict"]
        counts[row.attrs["data-verdict"]] = int(
            next(row.find_all(lambda n: n.has_class("count"))).all_text()
        )
    assert {k: v for k, v in counts.items() if v} == dict(truth.counts)
    _check_html_costs(root, truth)
    _check_html_results(root, truth)
    banner = list(root.find_all(lambda n: n.has_class("banner")))
    assert bool(banner) == truth.replay


def _check_html_costs(root, truth):
    total = next(root.find_all(lambda n: n.attrs.get("data-fact") == "total-cost"))
    assert_cost(total.all_text(), truth.total)
    for table in root.find_all(lambda n: n.tag == "table" and n.has_class("costs")):
        group = table.attrs["data-group"]
        rows = list(table.find_all(lambda n: n.tag == "tr" and "data-key" in n.attrs))
        assert {r.attrs["data-key"] for r in rows} == set(truth.costs[group])
        for row in rows:
            usd = next(row.find_all(lambda n: n.has_class("usd"))).all_text()
            assert_cost(usd, truth.costs[group][row.attrs["data-key"]])


def _check_html_results(root, truth):
    articles = list(root.find_all(lambda n: n.tag == "article"))
    assert {a.attrs["data-id"] for a in articles} == set(truth.results)
    for article in articles:
        record = truth.results[article.attrs["data-id"]]
        badge = next(article.find_all(lambda n: n.has_class("badge"))).all_text()
        assert LABELS[badge] == article.attrs["data-verdict"] == _bucket(record)
        classes = [n.all_text() for n in article.find_all(lambda n: n.has_class("issue-class"))]
        assert classes == ([record["issue"]["class"]] if record["issue"] else [])
        reasons = [
            n.attrs["data-reason"] for n in article.find_all(lambda n: "data-reason" in n.attrs)
        ]
        assert reasons == ([record["unfinished"]["reason"]] if record["unfinished"] else [])


def test_fact_check_catches_a_wrong_count(rendered):
    """The check itself can fail: a report edited to claim one more verified result."""
    folder, truth = rendered
    report = folder / "report.md"
    text = report.read_text()
    report.write_text(
        text.replace("| verified unconditionally | 1 |", "| verified unconditionally | 2 |")
    )
    with pytest.raises(AssertionError):
        test_markdown_agrees_with_the_records((folder, truth))


# ---------------------------------------------------------------- blueprint.tex, worksheet.md


def test_blueprint_and_worksheet_agree_with_the_records(rendered):
    folder, truth = rendered
    tex = (folder / "blueprint.tex").read_text()
    chunks = tex.split("\\label{")[1:]  # one per result, up to the next result's label
    # A proof's \leanok only for an unconditional verdict (leanblueprint reads it as formalised
    # outright); a conditional one keeps \leanok on its statement only (issue #17).
    shown = {c.split("}", 1)[0] for c in chunks if "\\begin{proof}\\leanok" in c}
    assert shown == {
        rid for rid, r in truth.results.items() if r["verdict"] == "verified_unconditional"
    }
    stated = {c.split("}", 1)[0] for c in chunks if "\\leanok" in c.split("\\end{", 1)[0]}
    verified = {"verified_unconditional", "verified_conditional"}
    may_state = {
        rid
        for rid, r in truth.results.items()
        if r["verdict"] in verified or not r["verdict_bearing"]
    }
    conditional = {
        rid for rid, r in truth.results.items() if r["verdict"] == "verified_conditional"
    }
    assert stated <= may_state and conditional & stated  # never more than verified
    worksheet = (folder / "worksheet.md").read_text()
    conditions = [c for r in truth.results.values() for c in r["conditions"]]
    assert worksheet.count("- [ ] checked") == len(conditions)
    for condition in conditions:
        assert f"`{condition['name']} : {condition['lean_type']}`" in worksheet
