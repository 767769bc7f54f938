"""Tool definitions for the importer and `tools` CLI tests: the same tools in each source's shape.

Two tools (a plain one and a real-world schema with $defs, $ref and anyOf-with-null) written the
way MCP, OpenAI Chat, OpenAI Responses, Anthropic, Gemini and toolproof.tools write them.
"""
from __future__ import annotations

# A real-world schema: what pydantic / zod emit (anyOf with null, $defs/$ref, title everywhere).
REAL = {
    "type": "object", "title": "search_issuesArguments",
    "$defs": {"State": {"type": "string", "enum": ["open", "closed"], "title": "State"}},
    "properties": {
        "repo": {"type": "string", "title": "Repo", "description": "owner/name"},
        "state": {"$ref": "#/$defs/State"},
        "since": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}], "default": None,
                  "title": "Since", "description": "Only issues updated on or after this date"},
    },
    "required": ["repo"],
}
WEATHER = {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}},
           "required": ["city"]}
TOOLS = [("get_weather", "Current weather for a city.", WEATHER),
         ("search_issues", "Search a repository's issues.", REAL)]


def as_shape(shape: str, tools=TOOLS) -> object:
    """The same tools written the way each source writes them."""
    if shape == "mcp":
        return {"tools": [{"name": n, "description": d, "inputSchema": p,
                           "annotations": {"readOnlyHint": True, "destructiveHint": False}} for n, d, p in tools]}
    if shape == "openai-chat":
        return [{"type": "function", "function": {"name": n, "description": d, "parameters": p}} for n, d, p in tools]
    if shape == "openai-responses":
        return [{"type": "function", "name": n, "description": d, "parameters": p, "strict": False} for n, d, p in tools]
    if shape == "anthropic":
        return [{"name": n, "description": d, "input_schema": p} for n, d, p in tools]
    if shape == "gemini":
        return {"functionDeclarations": [{"name": n, "description": d, "parametersJsonSchema": p} for n, d, p in tools]}
    return {"format": "toolproof.tools", "version": 1,
            "tools": [{"name": n, "description": d, "parameters": p} for n, d, p in tools]}
