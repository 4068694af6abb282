// Firecrawl's MCP server (firecrawl-mcp) pointed at Pilothouse with FIRECRAWL_API_URL,
// driven by the official MCP SDK client over stdio:
// node firecrawl_mcp.mjs <apiUrl> <apiKey> <pageUrl>. Prints one JSON line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRequire } from 'node:module';
import path from 'node:path';

const [apiUrl, apiKey, pageUrl] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const server = path.join(path.dirname(require.resolve('firecrawl-mcp/package.json')),
                         'dist', 'index.js');
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [server],
  env: { ...process.env, FIRECRAWL_API_URL: apiUrl, FIRECRAWL_API_KEY: apiKey,
         FIRECRAWL_RETRY_MAX_ATTEMPTS: '1' },
  stderr: 'pipe',
});
let serverLog = '';
transport.stderr?.on('data', (d) => { serverLog += d.toString(); });
const client = new Client({ name: 'pilothouse-test', version: '1.0.0' });
const out = {};
try {
  await client.connect(transport);
  const tools = await client.listTools();
  out.tools = tools.tools.map((t) => t.name);
  const text = (r) => (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  const scrape = await client.callTool({ name: 'firecrawl_scrape',
                                         arguments: { url: pageUrl, formats: ['markdown'] } });
  out.scrape = { isError: !!scrape.isError, text: text(scrape) };
  // Actions through the tool: the form page next to the page, filled in and read.
  const acted = await client.callTool({ name: 'firecrawl_scrape', arguments: {
    url: new URL('/form.html', pageUrl).href, formats: ['markdown'],
    actions: [{ type: 'click', selector: '#name' }, { type: 'write', text: 'Ada' },
              { type: 'click', selector: '#go' }] } });
  out.actions = { isError: !!acted.isError, text: text(acted) };
  const map = await client.callTool({ name: 'firecrawl_map', arguments: { url: pageUrl } });
  out.map = { isError: !!map.isError, text: text(map) };
} catch (e) {
  out.error = String(e?.stack ?? e);
  out.serverLog = serverLog.slice(-4000);
} finally {
  await client.close().catch(() => {});
}
console.log(JSON.stringify(out));
