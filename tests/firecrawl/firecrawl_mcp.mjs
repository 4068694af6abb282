// Firecrawl's MCP server (firecrawl-mcp) pointed at Pilothouse with FIRECRAWL_API_URL,
// driven by the official MCP SDK client over stdio:
// node firecrawl_mcp.mjs <apiUrl> <apiKey> <pageUrl>. Prints one JSON line.
import { firecrawlMcp } from './mcp_client.mjs';

const [apiUrl, apiKey, pageUrl] = process.argv.slice(2);
const { client, transport, serverLog } = firecrawlMcp(apiUrl, apiKey);
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
  out.serverLog = serverLog();
} finally {
  await client.close().catch(() => {});
}
console.log(JSON.stringify(out));
