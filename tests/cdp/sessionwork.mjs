// Work inside a browser session with the real clients (tests/tst_sessionwork.cpp):
// playwright-core connected to the session's cdpUrl (connectOverCDP) signs in to a fixture
// site, or reads the cookies the session holds. Prints what it saw as JSON on its last line.
// argv[2]: {action: "signin" | "cookies", cdpUrl, site, email?, password?}
import { chromium } from 'playwright-core';

const cfg = JSON.parse(process.argv[2]);
const out = { ok: false };
try {
  const browser = await chromium.connectOverCDP(cfg.cdpUrl, { timeout: 30000 });
  // The session's one context: its default context, where Pilothouse's tabs live too.
  const context = browser.contexts()[0];
  if (cfg.action === 'signin') {
    const page = await context.newPage();
    await page.goto(`${cfg.site}/login`);
    await page.fill('#e', cfg.email);
    await page.fill('#p', cfg.password);
    await Promise.all([page.waitForURL(`${cfg.site}/account`), page.click('button[type=submit]')]);
    out.heading = await page.textContent('h1');
    await page.close();
  }
  out.cookies = (await context.cookies(cfg.site)).map((c) => `${c.name}=${c.value}`);
  out.pages = context.pages().length;
  out.ok = true;
} catch (e) {
  out.error = String(e && e.stack || e);
}
console.log(JSON.stringify(out));
// The session outlives its clients: end this one's connection, never the browser.
process.exit(0);
