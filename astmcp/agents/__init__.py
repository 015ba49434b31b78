"""Agent setup: register ast-mcp-server with Claude Code and Hermes, and install the skill (SPEC §7)."""
