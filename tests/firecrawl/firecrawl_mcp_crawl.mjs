// firecrawl-mcp's crawl tools against Pilothouse (FIRECRAWL_API_URL), driven by the MCP
// SDK client over stdio: node firecrawl_mcp_crawl.mjs <apiUrl> <apiKey> <startUrl>.
// firecrawl_crawl waits for the crawl; firecrawl_check_crawl_status reads it again by id.
// Prints one JSON line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRequire } from 'node:module';
import path from 'node:path';

const [apiUrl, apiKey, startUrl] = process.argv.slice(2);
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
const text = (r) => (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
try {
  await client.connect(transport);
  const tools = await client.listTools();
  out.tools = tools.tools.map((t) => t.name);
  const crawl = await client.callTool({ name: 'firecrawl_crawl',
    arguments: { url: startUrl, limit: 3, sitemap: 'skip',
                 scrapeOptions: { formats: ['markdown'] } } }, undefined, { timeout: 180000 });
  out.crawl = { isError: !!crawl.isError, text: text(crawl),
                structured: crawl.structuredContent ?? null };
  let id = crawl.structuredContent?.id ?? null;
  if (!id) {
    try { id = JSON.parse(text(crawl)).id ?? null; } catch { id = null; }
  }
  out.id = id;
  const status = await client.callTool({ name: 'firecrawl_check_crawl_status',
                                         arguments: { id } });
  out.status = { isError: !!status.isError, text: text(status),
                 structured: status.structuredContent ?? null };
} catch (e) {
  out.error = String(e?.stack ?? e);
  out.serverLog = serverLog.slice(-4000);
} finally {
  await client.close().catch(() => {});
}
console.log(JSON.stringify(out));
