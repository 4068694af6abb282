// playwright-core's connectOverCDP against a browser session's DevTools endpoint, as a
// user's script would: a new page in the session's one context, a fixture page, its
// cookie, and page.route (Playwright's own Fetch beside the session's). Prints JSON.
// argv[2]: {endpoint, site}
import { chromium } from 'playwright-core';

const cfg = JSON.parse(process.argv[2]);
const out = {};
const browser = await chromium.connectOverCDP(cfg.endpoint, { timeout: 20000 });
try {
  const contexts = browser.contexts();
  out.contexts = contexts.length;
  const context = contexts[0];
  const page = await context.newPage();
  // Routing first, so that the session's very first request (and the egress proxy's
  // authentication) pauses in Playwright's Fetch as well as in the session's own: one
  // URL answered by the script, another continued to the site.
  await page.route('**/routed', (route) => route.fulfill({ body: 'from the route', contentType: 'text/plain' }));
  await page.route('**/continued', (route) => route.continue());
  const continued = await page.goto(cfg.site + '/continued', { timeout: 20000 });
  out.continued = continued.status();
  await page.goto(cfg.site + '/routed', { timeout: 20000 });
  out.routed = await page.evaluate(() => document.body.innerText);
  await page.unrouteAll();
  const response = await page.goto(cfg.site + '/login', { timeout: 20000 });
  out.status = response.status();
  out.title = await page.title();
  out.cookies = (await context.cookies()).map((c) => c.name + '=' + c.value);
  out.pages = context.pages().length;
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
