// A user's script against a browser session (tests/tst_sessions.cpp), with the real
// clients: playwright-core connectOverCDP(cdpHttpUrl) or puppeteer-core
// connect({browserWSEndpoint: cdpUrl}). It opens the fixture site's `path` in the
// session's one context and prints JSON: the page's title and the site's cookies.
// argv[2]: {client: "playwright"|"puppeteer", endpoint, site, path}
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';

const cfg = JSON.parse(process.argv[2]);
const out = { client: cfg.client };

if (cfg.client === 'puppeteer') {
  const browser = await puppeteer.connect({ browserWSEndpoint: cfg.endpoint, defaultViewport: null });
  try {
    const page = await browser.newPage();
    const response = await page.goto(cfg.site + cfg.path, { timeout: 20000 });
    out.status = response.status();
    out.title = await page.title();
    out.cookies = (await page.cookies()).map((c) => c.name + '=' + c.value);
    await page.close();
  } finally {
    await browser.disconnect();
  }
} else {
  const browser = await chromium.connectOverCDP(cfg.endpoint, { timeout: 20000 });
  try {
    const context = browser.contexts()[0];
    out.contexts = browser.contexts().length;
    const page = await context.newPage();
    const response = await page.goto(cfg.site + cfg.path, { timeout: 20000 });
    out.status = response.status();
    out.title = await page.title();
    out.cookies = (await context.cookies()).map((c) => c.name + '=' + c.value);
    await page.close();
  } finally {
    await browser.close();
  }
}
console.log(JSON.stringify(out));
