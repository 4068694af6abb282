// Drives the browser bridge's MCP face (POST /mcp) with the official MCP TypeScript SDK
// client: initialize, list tools, call scrape and a saved tool, and the errors.
// Usage: node bridge_mcp.mjs <mcpUrl> <apiKey> <pageUrl>
// Prints one JSON line with what it saw; exits non-zero on the first failed check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";

const [url, key, pageUrl] = process.argv.slice(2);
if (!url || !key || !pageUrl) {
  console.error("usage: bridge_mcp.mjs <mcpUrl> <apiKey> <pageUrl>");
  process.exit(2);
}

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});
const client = new Client({ name: "pilothouse-bridge-mcp-test", version: "1.0.0" });
const call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 90000 });
function payload(result) {
  assert.equal(result.isError, false, `tool failed: ${JSON.stringify(result.content)}`);
  const text = JSON.parse(result.content[0].text);
  if (result.structuredContent) assert.deepEqual(result.structuredContent, text);
  return text;
}
function toolError(result) {
  assert.equal(result.isError, true, "expected a tool error");
  return JSON.parse(result.content[0].text);
}

await client.connect(transport);
assert.equal(client.getServerVersion().name, "pilothouse-browser-bridge");
assert.ok(transport.sessionId && transport.sessionId.startsWith("mcp_"), "no session id");
assert.equal(transport.protocolVersion, "2025-06-18", "negotiated version");
await client.ping();

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
for (const t of ["act", "agent", "crawl", "execute_javascript", "extract", "get_browser_tabs",
                 "planner", "replay_workflow", "scrape", "user_prices"])
  assert.ok(names.includes(t), `tools/list lacks ${t}: ${names}`);
for (const t of tools) assert.equal(t.inputSchema.type, "object", `${t.name} input schema`);
const saved = tools.find((t) => t.name === "user_prices");
assert.deepEqual(saved.inputSchema.required, ["page"]);
assert.equal(saved.description, "Prices on a page");

// scrape reads the page in the cloud browser.
const scraped = payload(await call("scrape", { urls: [pageUrl] }));
assert.equal(scraped.tool, "scrape");
assert.equal(scraped.results[0].title, "Shop");
assert.ok(scraped.creditsUsed > 0, "creditsUsed");

// The saved tool runs its steps with the argument.
const prices = payload(await call("user_prices", { page: pageUrl }));
assert.equal(prices.status, "success");
assert.deepEqual(prices.result.json.map((p) => p.name), ["Rope", "Fender"]);
assert.ok(prices.trajectoryId.startsWith("traj_"));

// Errors come back as tool errors a model can read.
const device = toolError(await call("get_browser_tabs", {}));
assert.equal(device.code, "DEVICE_UNAVAILABLE");
assert.equal(device.status, 503);
const bad = toolError(await call("user_prices", {}));
assert.equal(bad.code, "INVALID_ARGUMENTS");
const wrong = toolError(await call("extract", { user_input: "x", tab_urls: ["file:///etc/passwd"] }));
assert.equal(wrong.code, "UNSUPPORTED_SCHEME");
assert.equal(wrong.field, "params.tab_urls[0]");

await transport.terminateSession();
await client.close();
console.log(JSON.stringify({ ok: true, tools: names.length, scrapeTitle: scraped.results[0].title }));
