// Firecrawl's MCP server (firecrawl-mcp) started with FIRECRAWL_API_URL pointing at
// Pilothouse, and the official MCP SDK client on its stdio: what the firecrawl_mcp*.mjs
// scripts share. `serverLog()` is the tail of the server's stderr.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRequire } from 'node:module';
import path from 'node:path';

export function firecrawlMcp(apiUrl, apiKey) {
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
  let log = '';
  transport.stderr?.on('data', (d) => { log += d.toString(); });
  const client = new Client({ name: 'pilothouse-test', version: '1.0.0' });
  return { client, transport, serverLog: () => log.slice(-4000) };
}
