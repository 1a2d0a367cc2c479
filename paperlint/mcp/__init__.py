"""`paperlint mcp`: the CLI's verbs as MCP tools over stdio (optional extra `paperlint[mcp]`)."""
