// A client's page in a browser session for its live view (tests/tst_sessions.cpp):
// "open" opens the fixture site's `path` in the session's one context and leaves it open;
// "titles" reads the titles of the session's pages. Prints JSON on its last line.
// argv[2]: {action: "open" | "titles", endpoint, site?, path?}
import { chromium } from 'playwright-core';

const cfg = JSON.parse(process.argv[2]);
const out = { ok: false };
try {
  const browser = await chromium.connectOverCDP(cfg.endpoint, { timeout: 20000 });
  const context = browser.contexts()[0];
  if (cfg.action === 'open') {
    const page = await context.newPage();
    await page.goto(cfg.site + cfg.path, { timeout: 20000 });
    out.title = await page.title();
  }
  out.titles = await Promise.all(context.pages().map((p) => p.title()));
  out.ok = true;
} catch (e) {
  out.error = String((e && e.stack) || e);
}
console.log(JSON.stringify(out));
// The session outlives its clients: end this one's connection, never the browser or its pages.
process.exit(0);
