// OAuth sign-in for MCP clients with the official MCP TypeScript SDK client and its
// OAuthClientProvider: discovery from the 401, dynamic registration, the consent page
// (driven here over HTTP as a person's browser would), the code exchange, a tool call,
// a refresh, a token for another resource refused, and refusal after revocation.
// Usage: node oauth_mcp.mjs <base> <ownerKey> <keyId> <pageUrl>
// Prints one JSON line with what it saw; exits non-zero on the first failed check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import assert from "node:assert/strict";

const [base, ownerKey, keyId, pageUrl] = process.argv.slice(2);
if (!base || !ownerKey || !keyId || !pageUrl) {
  console.error("usage: oauth_mcp.mjs <base> <ownerKey> <keyId> <pageUrl>");
  process.exit(2);
}
const mcpUrl = new URL(`${base}/mcp`);

// An MCP client application's side: it keeps what the SDK hands it.
class Provider {
  constructor() {
    this.authUrl = undefined;
  }
  get redirectUrl() {
    return "http://127.0.0.1:9/oauth/callback";
  }
  get clientMetadata() {
    return {
      client_name: "SDK test client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return "state-42";
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url) {
    this.authUrl = url;
  }
  saveCodeVerifier(verifier) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope) {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all") this.client = undefined;
  }
}

// The consent page's hidden fields and the cookie it set.
function formOf(html) {
  const fields = {};
  for (const m of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g))
    fields[m[1]] = m[2];
  return fields;
}
function cookieOf(response) {
  const set = response.headers.get("set-cookie");
  assert.ok(set, "the consent page sets its CSRF cookie");
  assert.match(set, /HttpOnly/);
  assert.match(set, /SameSite=Strict/);
  return set.split(";")[0];
}
async function postForm(url, cookie, fields) {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams(fields),
  });
}

// A person signs in with the owner key and lets the client act as `keyId`.
async function consent(authUrl) {
  assert.equal(authUrl.searchParams.get("code_challenge_method"), "S256");
  assert.equal(authUrl.searchParams.get("resource"), mcpUrl.href);
  const page = await fetch(authUrl);
  assert.equal(page.status, 200, "the consent page");
  assert.match(page.headers.get("content-security-policy"), /frame-ancestors 'none'/);
  const first = formOf(await page.text());
  const signIn = await postForm(`${base}/oauth/authorize`, cookieOf(page), {
    ...first, credential: ownerKey, decision: "signin",
  });
  const signInHtml = await signIn.text();
  assert.equal(signIn.status, 200, signInHtml);
  assert.ok(signInHtml.includes(`value="${keyId}"`), "the key is offered");
  const second = formOf(signInHtml);
  assert.notEqual(second.csrf, first.csrf, "the CSRF token is renewed after sign-in");
  const allow = await postForm(`${base}/oauth/authorize`, cookieOf(signIn), {
    ...second, key: keyId, decision: "allow",
  });
  assert.equal(allow.status, 302, await allow.text());
  const back = new URL(allow.headers.get("location"));
  assert.equal(back.origin + back.pathname, "http://127.0.0.1:9/oauth/callback");
  assert.equal(back.searchParams.get("state"), "state-42");
  assert.equal(back.searchParams.get("iss"), base, "RFC 9207 iss");
  return back.searchParams.get("code");
}

async function connect(provider) {
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const client = new Client({ name: "pilothouse-oauth-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

async function rawMcp(path, token) {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {
      protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
}

const provider = new Provider();

// 1. No token: the SDK follows the 401's resource_metadata, registers and redirects.
{
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const client = new Client({ name: "pilothouse-oauth-mcp-test", version: "1.0.0" });
  await assert.rejects(client.connect(transport), UnauthorizedError);
  assert.ok(provider.authUrl, "the SDK asked to open the consent page");
  assert.ok(provider.client.client_id.startsWith("phc_"), "registered (RFC 7591)");
  const code = await consent(provider.authUrl);
  await transport.finishAuth(code);
}
const first = provider.tokens();
assert.ok(first.access_token.startsWith("pho_at_"));
assert.ok(first.refresh_token.startsWith("pho_rt_"));

// 2. A tool call with the access token.
let scrapeTitle;
{
  const { client, transport } = await connect(provider);
  const result = await client.callTool({ name: "scrape", arguments: { urls: [pageUrl] } },
                                       undefined, { timeout: 90000 });
  assert.equal(result.isError, false, JSON.stringify(result.content));
  scrapeTitle = JSON.parse(result.content[0].text).results[0].title;
  await transport.terminateSession();
  await client.close();
}

// 3. Refresh: the SDK trades the refresh token for new tokens (rotation).
assert.equal(await auth(provider, { serverUrl: mcpUrl }), "AUTHORIZED");
const second = provider.tokens();
assert.notEqual(second.access_token, first.access_token);
assert.notEqual(second.refresh_token, first.refresh_token, "the refresh token rotates");
{
  const { client, transport } = await connect(provider);
  assert.ok((await client.listTools()).tools.length > 0);
  await transport.terminateSession();
  await client.close();
}

// 4. The token is for /mcp: /config/mcp refuses it and names its own metadata.
const other = await rawMcp("/config/mcp", second.access_token);
assert.equal(other.status, 401);
const challenge = other.headers.get("www-authenticate");
assert.ok(challenge.includes(`resource_metadata="${base}/.well-known/oauth-protected-resource/config/mcp"`),
          challenge);
assert.equal((await other.json()).code, "INVALID_TOKEN");

// 5. Revocation (RFC 7009) of the refresh token ends the grant: the access token is refused.
const revoked = await fetch(`${base}/oauth/revoke`, {
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ token: second.refresh_token, client_id: provider.client.client_id }),
});
assert.equal(revoked.status, 200);
const after = await rawMcp("/mcp", second.access_token);
assert.equal(after.status, 401);
assert.ok(after.headers.get("www-authenticate").includes("resource_metadata="));
{
  provider.authUrl = undefined;
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const client = new Client({ name: "pilothouse-oauth-mcp-test", version: "1.0.0" });
  await assert.rejects(client.connect(transport), UnauthorizedError, "refused after revocation");
  assert.ok(provider.authUrl, "the SDK starts a new sign-in");
}

console.log(JSON.stringify({ ok: true, clientId: provider.client.client_id, scrapeTitle }));
