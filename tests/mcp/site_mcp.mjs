// Drives a site's A2W MCP server (from GET /v2/a2w/capabilities) with the official MCP
// TypeScript SDK client: lists the tools and calls one.
// Usage: node site_mcp.mjs <mcpUrl> <tool> <argumentsJson>
// Prints one JSON line {server, tools, result}; exits non-zero when the client fails.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, tool, args] = process.argv.slice(2);
if (!url || !tool) {
  console.error("usage: site_mcp.mjs <mcpUrl> <tool> <argumentsJson>");
  process.exit(2);
}
const transport = new StreamableHTTPClientTransport(new URL(url));
const client = new Client({ name: "pilothouse-site-mcp-test", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const result = await client.callTool(
  { name: tool, arguments: JSON.parse(args || "{}") },
  undefined,
  { timeout: 120000 },
);
console.log(JSON.stringify({
  server: client.getServerVersion(),
  tools: tools.map((t) => ({ name: t.name, title: t.title, inputSchema: t.inputSchema })),
  result: {
    isError: result.isError ?? false,
    structured: result.structuredContent ?? null,
    text: result.content?.[0]?.text ?? "",
  },
}));
await client.close();
