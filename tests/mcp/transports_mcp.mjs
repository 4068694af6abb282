// One MCP endpoint, both transport generations, each driven by its real SDK client:
// - @modelcontextprotocol/sdk 1.32.2 opens a 2025 session (initialize, Mcp-Session-Id);
// - @modelcontextprotocol/client 2.4.0 in versionNegotiation 'auto' probes with
//   server/discover and speaks the stateless 2026-07-28 transport (no initialize, no
//   session, Mcp-Method / Mcp-Name / MCP-Protocol-Version on every POST).
// Both call the same tool with the same arguments; the answers must agree. The stateless
// client also opens subscriptions/listen and closes it.
// Usage: node transports_mcp.mjs <mcpUrl> <apiKey> <toolName> <argumentsJson>
// Prints one JSON line with what it saw; exits non-zero on the first failed check.
import { Client as SessionClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as SessionTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import assert from "node:assert/strict";

const [url, key, toolName, argsJson] = process.argv.slice(2);
if (!url || !key || !toolName || !argsJson) {
  console.error("usage: transports_mcp.mjs <mcpUrl> <apiKey> <toolName> <argumentsJson>");
  process.exit(2);
}
const args = JSON.parse(argsJson);
const auth = { headers: { Authorization: `Bearer ${key}` } };

// Every HTTP exchange a client makes, as the server saw its headers.
function recorder() {
  const seen = [];
  const fetchFn = async (input, init) => {
    const h = new Headers(init?.headers);
    const entry = {
      httpMethod: init?.method ?? "GET",
      mcpMethod: h.get("mcp-method"),
      mcpName: h.get("mcp-name"),
      version: h.get("mcp-protocol-version"),
      sessionSent: h.get("mcp-session-id"),
    };
    let body;
    try { body = init?.body ? JSON.parse(init.body) : undefined; } catch { body = undefined; }
    entry.bodyMethod = body?.method;
    const response = await fetch(input, init);
    entry.status = response.status;
    entry.sessionMinted = response.headers.get("mcp-session-id");
    seen.push(entry);
    return response;
  };
  return { seen, fetchFn };
}

function payload(result) {
  assert.equal(result.isError, false, `tool failed: ${JSON.stringify(result.content)}`);
  const text = JSON.parse(result.content[0].text);
  assert.deepEqual(result.structuredContent, text, "structuredContent equals the text content");
  return text;
}

// The parts of an answer that do not depend on the run (ids, timings, credits).
function stable(answer) {
  return {
    tool: answer.tool,
    status: answer.status,
    titles: (answer.results ?? []).map((r) => r.title),
    urls: (answer.results ?? []).map((r) => r.url),
    sites: (answer.sites ?? []).map((s) => s.siteId),
  };
}

// The 2025 generation.
const old = recorder();
const sessionTransport = new SessionTransport(new URL(url), { requestInit: auth, fetch: old.fetchFn });
const sessionClient = new SessionClient({ name: "pilothouse-session-client", version: "1.0.0" });
await sessionClient.connect(sessionTransport);
assert.ok(sessionTransport.sessionId?.startsWith("mcp_"), "the session client got a session id");
assert.equal(sessionTransport.protocolVersion, "2025-06-18");
const sessionTools = (await sessionClient.listTools()).tools.map((t) => t.name);
assert.ok(sessionTools.includes(toolName), `session tools/list lacks ${toolName}`);
const sessionAnswer = payload(await sessionClient.callTool({ name: toolName, arguments: args }, undefined, { timeout: 120000 }));
await sessionTransport.terminateSession();
await sessionClient.close();
assert.ok(old.seen.some((e) => e.bodyMethod === "initialize"), "the session client initialized");

// The 2026-07-28 generation.
const modern = recorder();
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: auth, fetch: modern.fetchFn });
const client = new Client({ name: "pilothouse-stateless-client", version: "2.0.0" },
                          { versionNegotiation: { mode: "auto" } });
await client.connect(transport);
assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28", "negotiated the stateless revision");
assert.equal(transport.sessionId, undefined, "no session on the stateless transport");
const statelessTools = (await client.listTools()).tools.map((t) => t.name);
assert.deepEqual([...statelessTools].sort(), [...sessionTools].sort(), "the same tools on both generations");
const statelessAnswer = payload(await client.callTool({ name: toolName, arguments: args }, { timeout: 120000 }));

// subscriptions/listen: acknowledged with the subset honoured (none), then closed.
const subscription = await client.listen({ toolsListChanged: true }, { timeout: 20000 });
assert.deepEqual(subscription.honoredFilter ?? {}, {}, "no change notification is promised");
await subscription.close();
await client.close();

const posts = modern.seen.filter((e) => e.httpMethod === "POST" && e.bodyMethod && e.bodyMethod !== "notifications/cancelled");
assert.ok(!modern.seen.some((e) => e.bodyMethod === "initialize"), "the stateless client never initialized");
assert.ok(posts.some((e) => e.bodyMethod === "server/discover"), "the stateless client probed with server/discover");
for (const e of posts) {
  assert.equal(e.version, "2026-07-28", `MCP-Protocol-Version on ${e.bodyMethod}`);
  assert.equal(e.mcpMethod, e.bodyMethod, `Mcp-Method on ${e.bodyMethod}`);
  assert.equal(e.sessionMinted, null, `no session minted for ${e.bodyMethod}`);
  assert.equal(e.sessionSent, null, `no session sent with ${e.bodyMethod}`);
}
const toolCall = posts.find((e) => e.bodyMethod === "tools/call");
assert.equal(toolCall.mcpName, toolName, "Mcp-Name on tools/call");
assert.equal(toolCall.status, 200);

assert.deepEqual(stable(statelessAnswer), stable(sessionAnswer), "both generations answer alike");
console.log(JSON.stringify({
  ok: true,
  session: stable(sessionAnswer),
  stateless: stable(statelessAnswer),
  statelessMethods: posts.map((e) => e.bodyMethod),
}));
