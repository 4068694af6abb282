// firecrawl-mcp's crawl tools against Pilothouse (FIRECRAWL_API_URL), driven by the MCP
// SDK client over stdio: node firecrawl_mcp_crawl.mjs <apiUrl> <apiKey> <startUrl>.
// firecrawl_crawl waits for the crawl; firecrawl_check_crawl_status reads it again by id.
// Prints one JSON line.
import { firecrawlMcp } from './mcp_client.mjs';

const [apiUrl, apiKey, startUrl] = process.argv.slice(2);
const { client, transport, serverLog } = firecrawlMcp(apiUrl, apiKey);
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
  out.serverLog = serverLog();
} finally {
  await client.close().catch(() => {});
}
console.log(JSON.stringify(out));
