"""Discord's message limits, checked on every message the bot sends or edits.

Each check returns human-readable problems; an empty list means the message is valid.
Numbers are Discord's documented limits (API v10).
"""

from __future__ import annotations

from typing import Any

from .world import JSON

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR_NAME = 256
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_V2_COMPONENTS = 40
IS_COMPONENTS_V2 = 1 << 15

SELECT_TYPES = (3, 5, 6, 7, 8)
LINK_STYLE = 5
PREMIUM_STYLE = 6


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_embeds(embeds: list[JSON]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"{len(embeds)} embeds (max {MAX_EMBEDS})")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embed[{i}]"
        title, desc = _len(embed.get("title")), _len(embed.get("description"))
        footer = _len((embed.get("footer") or {}).get("text"))
        author = _len((embed.get("author") or {}).get("name"))
        fields = embed.get("fields") or []
        if title > MAX_EMBED_TITLE:
            problems.append(f"{where}.title is {title} chars (max {MAX_EMBED_TITLE})")
        if desc > MAX_EMBED_DESCRIPTION:
            problems.append(f"{where}.description is {desc} chars (max {MAX_EMBED_DESCRIPTION})")
        if footer > MAX_FOOTER:
            problems.append(f"{where}.footer.text is {footer} chars (max {MAX_FOOTER})")
        if author > MAX_AUTHOR_NAME:
            problems.append(f"{where}.author.name is {author} chars (max {MAX_AUTHOR_NAME})")
        if len(fields) > MAX_EMBED_FIELDS:
            problems.append(f"{where} has {len(fields)} fields (max {MAX_EMBED_FIELDS})")
        total += title + desc + footer + author
        for j, f in enumerate(fields):
            name, value = _len(f.get("name")), _len(f.get("value"))
            if name > MAX_FIELD_NAME:
                problems.append(f"{where}.fields[{j}].name is {name} chars (max {MAX_FIELD_NAME})")
            if value > MAX_FIELD_VALUE:
                problems.append(
                    f"{where}.fields[{j}].value is {value} chars (max {MAX_FIELD_VALUE})"
                )
            if name == 0 or value == 0:
                problems.append(f"{where}.fields[{j}] has an empty name or value")
            total += name + value
    if total > MAX_EMBED_TOTAL:
        problems.append(f"embeds total {total} chars (max {MAX_EMBED_TOTAL})")
    return problems


def _check_interactive(comp: JSON, where: str, seen_ids: set[str]) -> list[str]:
    problems: list[str] = []
    ctype = comp.get("type")
    custom_id = comp.get("custom_id")
    if custom_id is not None:
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
            problems.append(f"{where}.custom_id has {_len(custom_id)} chars (1..{MAX_CUSTOM_ID})")
        elif custom_id in seen_ids:
            problems.append(f"{where}.custom_id {custom_id!r} is duplicated in the message")
        else:
            seen_ids.add(custom_id)
    if ctype == 2:
        style = comp.get("style")
        if _len(comp.get("label")) > MAX_BUTTON_LABEL:
            problems.append(
                f"{where}.label is {_len(comp.get('label'))} chars (max {MAX_BUTTON_LABEL})"
            )
        if style == LINK_STYLE:
            if not comp.get("url") or custom_id is not None:
                problems.append(f"{where}: a link button needs a url and no custom_id")
        elif style != PREMIUM_STYLE and custom_id is None:
            problems.append(f"{where}: a non-link button needs a custom_id")
        if not comp.get("label") and not comp.get("emoji") and style != PREMIUM_STYLE:
            problems.append(f"{where}: a button needs a label or an emoji")
    elif ctype in SELECT_TYPES:
        if custom_id is None:
            problems.append(f"{where}: a select menu needs a custom_id")
        if _len(comp.get("placeholder")) > MAX_PLACEHOLDER:
            problems.append(f"{where}.placeholder longer than {MAX_PLACEHOLDER}")
        if ctype == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                problems.append(f"{where} has {len(options)} options (1..{MAX_SELECT_OPTIONS})")
            values: set[str] = set()
            for k, opt in enumerate(options):
                for key in ("label", "value", "description"):
                    if _len(opt.get(key)) > MAX_OPTION_TEXT:
                        problems.append(f"{where}.options[{k}].{key} longer than {MAX_OPTION_TEXT}")
                if opt.get("value") in values:
                    problems.append(f"{where}.options[{k}].value {opt.get('value')!r} repeated")
                values.add(opt.get("value"))
            max_values = comp.get("max_values", 1)
            if isinstance(max_values, int) and max_values > max(len(options), 1):
                problems.append(f"{where}.max_values {max_values} > {len(options)} options")
    return problems


def _walk(components: list[JSON]) -> list[JSON]:
    out: list[JSON] = []
    for comp in components:
        out.append(comp)
        out.extend(_walk(comp.get("components") or []))
        if isinstance(comp.get("accessory"), dict):
            out.append(comp["accessory"])
    return out


def check_components(components: list[JSON], flags: int = 0) -> list[str]:
    problems: list[str] = []
    seen_ids: set[str] = set()
    if flags & IS_COMPONENTS_V2:
        everything = _walk(components)
        if len(everything) > MAX_V2_COMPONENTS:
            problems.append(f"{len(everything)} components (max {MAX_V2_COMPONENTS})")
        for i, comp in enumerate(everything):
            if comp.get("type") == 2 or comp.get("type") in SELECT_TYPES:
                problems.extend(_check_interactive(comp, f"component[{i}]", seen_ids))
        return problems
    if len(components) > MAX_ROWS:
        problems.append(f"{len(components)} action rows (max {MAX_ROWS})")
    for r, row in enumerate(components):
        where = f"components[{r}]"
        if row.get("type") != 1:
            problems.append(f"{where} is type {row.get('type')}, not an action row (1)")
            continue
        children = row.get("components") or []
        if not children:
            problems.append(f"{where} is an empty action row")
        kinds = [c.get("type") for c in children]
        n_selects = sum(1 for k in kinds if k in SELECT_TYPES)
        if n_selects and len(children) > 1:
            problems.append(f"{where}: a select menu must be alone in its row")
        if kinds.count(2) > MAX_BUTTONS_PER_ROW:
            problems.append(f"{where} has {kinds.count(2)} buttons (max {MAX_BUTTONS_PER_ROW})")
        for c, comp in enumerate(children):
            problems.extend(_check_interactive(comp, f"{where}.components[{c}]", seen_ids))
    return problems


def check_message(
    content: str | None, embeds: list[JSON], components: list[JSON], flags: int = 0
) -> list[str]:
    """All limit problems of a message in its final (sent or edited) form."""
    problems: list[str] = []
    if content is not None and len(content) > MAX_CONTENT:
        problems.append(f"content is {len(content)} chars (max {MAX_CONTENT})")
    problems.extend(check_embeds(embeds))
    problems.extend(check_components(components, flags))
    return problems
