// puppeteer-core's connect({browserWSEndpoint}) against a browser session's DevTools
// endpoint: a new page, a fixture page, its title and cookie. Prints JSON.
// argv[2]: {endpoint, site}
import puppeteer from 'puppeteer-core';

const cfg = JSON.parse(process.argv[2]);
const out = {};
const browser = await puppeteer.connect({ browserWSEndpoint: cfg.endpoint, protocolTimeout: 20000 });
try {
  out.version = await browser.version();
  const page = await browser.newPage();
  const response = await page.goto(cfg.site + '/login', { timeout: 20000 });
  out.status = response.status();
  out.title = await page.title();
  out.cookie = await page.evaluate(() => document.cookie);
  await page.close();
} finally {
  await browser.disconnect();
}
console.log(JSON.stringify(out));
