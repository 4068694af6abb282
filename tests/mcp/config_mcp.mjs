// Drives Pilothouse's configuration MCP with the official MCP TypeScript SDK client.
// Usage: node config_mcp.mjs <mcpUrl> <connectKey> <siteId> <otherSiteId>
// Prints one JSON line with what it created; exits non-zero on the first failed check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";

const [url, key, siteId, otherSiteId] = process.argv.slice(2);
if (!url || !key || !siteId || !otherSiteId) {
  console.error("usage: config_mcp.mjs <mcpUrl> <connectKey> <siteId> <otherSiteId>");
  process.exit(2);
}

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});
const client = new Client({ name: "pilothouse-config-mcp-test", version: "1.0.0" });

// Tool results carry the JSON object as text content (and as structuredContent).
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
const call = (name, args) => client.callTool({ name, arguments: args });

await client.connect(transport);
assert.equal(client.getServerVersion().name, "pilothouse-config");
assert.ok(transport.sessionId && transport.sessionId.startsWith("mcp_"), "no session id");
assert.equal(transport.protocolVersion, "2025-06-18", "negotiated version");
assert.ok(client.getServerCapabilities().tools, "tools capability");

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
assert.deepEqual(names, [
  "draft_journey", "get_analytics_summary", "get_config_brief", "get_config_section",
  "get_journey", "list_journeys", "list_pending_changes", "list_sites",
  "propose_config_change", "validate_config_patch",
]);
for (const t of tools) {
  assert.equal(t.inputSchema.type, "object", `${t.name} input schema`);
  assert.ok(t.description.length > 10, `${t.name} description`);
  assert.ok(!t.name.includes("apply"), "there is no apply tool");
}
const propose = tools.find((t) => t.name === "propose_config_change");
assert.deepEqual([...propose.inputSchema.required].sort(), ["clientRequestId", "patch", "siteId", "title"]);

const sites = payload(await call("list_sites", {}));
assert.deepEqual(sites.sites.map((s) => s.siteId), [siteId], "a Connect AI key sees its site only");

const section = payload(await call("get_config_section", { siteId, fields: ["greeting"] }));
assert.deepEqual(Object.keys(section.config), ["greeting"]);
assert.equal(section.config.greeting.text, "Welcome to the harbour");

const journeys = payload(await call("list_journeys", { siteId }));
assert.deepEqual(journeys.journeys.map((j) => j.id), ["tour"]);
const journey = payload(await call("get_journey", { siteId, journeyId: "tour" }));
assert.equal(journey.journey.steps.length, 2);

const summary = payload(await call("get_analytics_summary", { siteId, range: "30d" }));
assert.equal(summary.totals.visits, 2);
assert.equal(summary.totals.interactions, 1);
assert.ok(!JSON.stringify(summary).includes("userKey"), "aggregates only");

const brief = payload(await call("get_config_brief", { siteId, section: "knowledge" }));
assert.equal(brief.brief.entries.length, 1);

const validation = payload(await call("validate_config_patch", {
  siteId, patch: { greeting: { text: "Hello there" }, colour: "teal" },
}));
assert.equal(validation.valid, true);
assert.deepEqual(validation.droppedPaths, ["patch.colour"]);

const proposal = {
  siteId,
  patch: { greeting: { text: "Hello there" }, aiAccess: { enabled: false } },
  title: "Warmer greeting",
  description: "Suggested by the site's own AI",
  clientRequestId: "sdk-proposal-1",
};
const change = payload(await call("propose_config_change", proposal));
assert.equal(change.status, "pending");
assert.ok(change.changeId.startsWith("chg_"));
assert.ok(change.reviewUrl.endsWith(`/review/changes/${change.changeId}`));
assert.deepEqual(change.droppedPaths, ["patch.aiAccess"]);
const retried = payload(await call("propose_config_change", proposal));
assert.equal(retried.changeId, change.changeId, "a retry returns the same change");
assert.equal(retried.replayed, true);

const draft = payload(await call("draft_journey", {
  siteId,
  journey: { label: "Return an item", steps: [{ title: "Find the order" }, { title: "Pick a reason" }] },
  clientRequestId: "sdk-journey-1",
}));
assert.equal(draft.kind, "journey");
assert.equal(draft.patch.shortcuts[0].kind, "journey");
assert.equal(draft.patch.shortcuts[0].enabled, false);

const pending = payload(await call("list_pending_changes", { siteId }));
assert.deepEqual(pending.changes.map((c) => c.changeId).sort(), [change.changeId, draft.changeId].sort());

// Another site is not found, and bad arguments are tool errors the model can read.
assert.equal(toolError(await call("get_config_section", { siteId: otherSiteId })).code, "SITE_NOT_FOUND");
assert.equal(toolError(await call("get_journey", { siteId })).code, "INVALID_ARGUMENTS");
assert.equal(toolError(await call("get_config_brief", { siteId, section: "secrets" })).code, "INVALID_ARGUMENTS");
assert.equal(toolError(await call("propose_config_change", {
  siteId, patch: { voice: { autoStopMs: 1 } }, title: "bad", clientRequestId: "sdk-bad-1",
})).field, "patch.voice.autoStopMs");

// There is no apply tool: the server refuses it as an unknown tool (a protocol error).
await assert.rejects(call("apply_config_change", { changeId: change.changeId }), /Unknown tool/);

await client.ping();
await transport.terminateSession();
await client.close();
console.log(JSON.stringify({ ok: true, changeId: change.changeId, journeyChangeId: draft.changeId }));
