package mcp

// ToolPrefix is what Claude Code names the plugin's tools:
// mcp__plugin_<plugin>_<server>__<tool>, the server being "memory" in the
// plugin's .mcp.json. A permission rule of the prefix allows them all.
const ToolPrefix = "mcp__plugin_cerebro_memory"

// Tools are the server's tools, in the order doctor names them.
var Tools = []string{ToolSearch, ToolGet, ToolRecall, ToolRemember}
