// Opens an agent run's live view in Debian's chromium (playwright-core) as a person
// would, waits for a frame of the run's page, takes the page over (a click into a field
// on the frame, typing, Enter) and prints what happened as JSON (tests/tst_liveview.cpp).
// argv[2]: {url, x, y, text, chromium} — x, y: a point of the field on the frames.
import { chromium } from 'playwright-core';

const cfg = JSON.parse(process.argv[2]);
const out = { errors: [], console: [] };
const browser = await chromium.launch({
  executablePath: cfg.chromium || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page = await context.newPage();
  page.on('console', (m) => out.console.push(m.type() + ': ' + m.text()));
  page.on('pageerror', (e) => out.errors.push('pageerror: ' + e.message));
  // A violated Content-Security-Policy is reported on the console.
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) out.errors.push(m.text());
  });
  const response = await page.goto(cfg.url);
  out.httpStatus = response.status();
  // A frame is shown: an image of the run's page, with its natural size.
  await page.waitForFunction(() => {
    const img = document.getElementById('frame');
    return img && img.complete && img.naturalWidth > 0;
  }, null, { timeout: 30000 });
  await page.waitForFunction(() => document.body.dataset.status === 'requires_input' &&
    !document.getElementById('takeover').disabled, null, { timeout: 30000 });
  const seen = await page.evaluate(() => {
    const img = document.getElementById('frame');
    return { naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
      status: document.body.dataset.status, message: document.getElementById('message').textContent };
  });
  Object.assign(out, seen);

  // Take over: the switch, a click where the field is on the (scaled) frame, typing, Enter.
  await page.check('#takeover');
  const box = await page.locator('#frame').boundingBox();
  const x = box.x + cfg.x * box.width / seen.naturalWidth;
  const y = box.y + cfg.y * box.height / seen.naturalHeight;
  const answered = (type) => page.waitForResponse((r) => r.url().includes('/input?') &&
    r.request().postData().includes('"type":"' + type + '"'), { timeout: 15000 });
  let done = answered('click');
  await page.mouse.click(x, y);
  out.click = (await done).status();
  done = answered('type');
  await page.keyboard.type(cfg.text, { delay: 10 });
  out.type = (await done).status();
  done = answered('key');
  await page.keyboard.press('Enter');
  out.key = (await done).status();
  // The submitted page shows up on the view.
  await page.waitForFunction(() => /orders/.test(document.getElementById('where').textContent),
    null, { timeout: 20000 });
  out.where = await page.evaluate(() => document.getElementById('where').textContent);
  out.frames = Number(await page.evaluate(() => document.body.dataset.frames));
} catch (e) {
  out.errors.push(String(e && e.stack || e));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
