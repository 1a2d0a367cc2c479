"""Prompts: one jinja2 template per task, rendered into a system and a user message.

Each `templates/<task>.j2` has two blocks, `system` (the role, its rules and the output
schema) and `user` (the inputs). The output schema is generated from the task's pydantic
model, so the prompt and the validator cannot drift. Paper text is wrapped by the `data`
filter in a delimited block the system message declares to be data, never instructions.
jinja2 is imported lazily: the CLI must start without it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperlint.agents.outputs import OUTPUT_MODELS

if TYPE_CHECKING:
    from jinja2 import Environment

TASKS = tuple(OUTPUT_MODELS)
# Tasks asked with another task's template: the second, independent draft (#15) is the
# drafter's prompt in a fresh conversation, on inputs that never hold the first draft.
SHARED_TEMPLATES: dict[str, str] = {"second_drafter": "drafter"}
TEMPLATE_DIR = Path(__file__).parent / "templates"
# A template's references to others, as jinja2's `meta.find_referenced_templates` finds them in
# ours (literal names only; tests/agents/test_prompt_hashes.py holds the two equal on every
# template): hashing needs no jinja2 import and no parse (~0.15 s of a settled resume).
_REFERENCE = re.compile(r"""\{%-?\s*(?:include|import|extends|from)\s+(["'])([^"']+)\1""")


def template_name(task: str) -> str:
    return f"{SHARED_TEMPLATES.get(task, task)}.j2"


@dataclass(frozen=True)
class Prompt:
    system: str
    user: str
    # What the prompt was made of, recorded with every answer so a later run can tell a changed
    # template (a paperlint upgrade) from changed inputs (a revised paper): `template_sha256`
    # and `inputs_sha256`.
    template_sha256: str = ""
    inputs_sha256: str = ""

    @property
    def messages(self) -> list[dict[str, str]]:
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user}]

    @property
    def sha256(self) -> str:
        """Hash of the rendered prompt, recorded beside transcript entries to show drift."""
        return messages_sha256(self.messages)


def messages_sha256(messages: list[dict[str, str]]) -> str:
    canonical = json.dumps(messages, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def output_schema(task: str) -> dict[str, Any]:
    """The task's output JSON Schema (a fresh copy: callers may change it)."""
    loaded: dict[str, Any] = json.loads(_schema_json(task))
    return loaded


@cache
def _schema_json(task: str) -> str:
    # Generated once per process: pydantic's schema generation was a tenth of a replay run.
    return to_json(OUTPUT_MODELS[task].model_json_schema())


def render_prompt(task: str, inputs: Mapping[str, Any]) -> Prompt:
    """Render `templates/<task>.j2` with `inputs` (plus `schema`, the output JSON Schema).

    A missing input is an error (StrictUndefined), never an empty string in the prompt.
    """
    if task not in OUTPUT_MODELS:
        raise ValueError(f"unknown task {task!r}; expected one of {', '.join(TASKS)}")
    template = _environment().get_template(template_name(task))
    variables = {
        **inputs,
        "task": task,
        "schema": _schema_json(task),
        "lean_fields": lean_field_names(task),
    }
    context = template.new_context(variables)
    system = "".join(template.blocks["system"](context)).strip() + "\n"
    context = template.new_context(variables)
    user = "".join(template.blocks["user"](context)).strip() + "\n"
    return Prompt(
        system=system,
        user=user,
        template_sha256=template_sha256(task),
        inputs_sha256=inputs_sha256(inputs),
    )


def template_sha256(task: str) -> str:
    """Hash of everything a task's prompt is rendered from that is not an input: the sources of
    `templates/<task>.j2` and of every template it includes (recursively, by name), and the
    output schema. Equal hashes mean the same inputs render the same prompt."""
    if task not in OUTPUT_MODELS:
        raise ValueError(f"unknown task {task!r}; expected one of {', '.join(TASKS)}")
    return _template_sha256(task)


def template_hashes() -> dict[str, str]:
    """Every task's `template_sha256` today (what drift notes compare recorded answers with)."""
    return {task: template_sha256(task) for task in TASKS}


@cache
def _template_sha256(task: str) -> str:
    digest = hashlib.sha256(b"paperlint-template\0")
    pending, seen = [template_name(task)], set()
    while pending:
        name = pending.pop(0)
        if name in seen:
            continue
        seen.add(name)
        source = (TEMPLATE_DIR / name).read_text(encoding="utf-8")
        digest.update(name.encode() + b"\0" + source.encode("utf-8") + b"\0")
        pending += sorted(referenced_templates(source))
    digest.update(_schema_json(task).encode("utf-8"))
    digest.update(json.dumps(lean_field_names(task)).encode("utf-8"))
    return digest.hexdigest()


def referenced_templates(source: str) -> list[str]:
    """The templates `source` includes, imports or extends by a literal name."""
    return [match.group(2) for match in _REFERENCE.finditer(source)]


def inputs_sha256(inputs: Mapping[str, Any]) -> str:
    """Hash of a prompt's inputs as canonical JSON (the values the template is rendered with)."""
    canonical = json.dumps(
        inputs, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def lean_field_names(task: str) -> list[str]:
    """The task's Lean-valued fields as the prompt names them (`obligations[].lean`)."""
    from paperlint.agents.fences import LEAN_FIELDS

    return [".".join(path).replace(".*", "[]") for path in LEAN_FIELDS.get(task, ())]


def data_block(text: object, name: str) -> str:
    """Wrap untrusted text (paper, bibliography, Lean output) in a labelled data block.

    The closing tag carries a hash of the content, so text inside cannot close the block
    early by quoting the delimiter, and the prompt stays deterministic (its hash is stable).
    """
    body = "" if text is None else str(text)
    tag = hashlib.sha256(body.encode("utf-8")).hexdigest()[:10]
    return f"<<<DATA {name} #{tag}\n{body.rstrip()}\nDATA {name} #{tag}>>>"


def to_json(value: object) -> str:
    """Pretty JSON without HTML escaping (jinja's `tojson` escapes `<`, `&`: bad for Lean)."""
    return json.dumps(value, indent=2, ensure_ascii=False)


@cache
def _environment() -> Environment:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    from paperlint.usercache import jinja_bytecode

    env = Environment(
        loader=FileSystemLoader(TEMPLATE_DIR),
        autoescape=False,  # prompts are plain text, not HTML
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.bytecode_cache = jinja_bytecode(env)  # compiled code kept between processes
    env.filters["data"] = data_block
    env.filters["json"] = to_json
    return env
