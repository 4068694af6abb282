// Drives a fixture site page that carries the embed SDK's one-line snippet in Debian's
// chromium (playwright-core), as a visitor would, and prints what happened as JSON.
// argv[2]: {url, scenario, fixture, chromium}
import { chromium } from 'playwright-core';

const cfg = JSON.parse(process.argv[2]);
const out = { scenario: cfg.scenario, console: [] };
const browser = await chromium.launch({
  executablePath: cfg.chromium || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('console', (m) => out.console.push(m.type() + ': ' + m.text()));
  page.on('pageerror', (e) => out.console.push('pageerror: ' + e.message));
  const ready = () =>
    // The session is open and the chat surface is on the page (it is built after the
    // session opens).
    page.waitForFunction(() => window.Pilothouse && window.Pilothouse.state() && window.Pilothouse.state().sessionId &&
      document.querySelector('[data-pilothouse]'), null, { timeout: 20000 });
  const messages = () =>
    page.evaluate(() => {
      const host = document.querySelector('[data-pilothouse]');
      return host ? [...host.shadowRoot.querySelectorAll('.msg')].map((m) => m.className.split(' ')[1] + ': ' + m.textContent) : [];
    });
  const waitForAssistant = (pattern) =>
    page.waitForFunction((p) => {
      const host = document.querySelector('[data-pilothouse]');
      return host && [...host.shadowRoot.querySelectorAll('.msg.assistant')].some((m) => new RegExp(p).test(m.textContent));
    }, pattern, { timeout: 45000 });

  // A visitor signed in to the site first (a cookie login), when the scenario needs one.
  if (cfg.login) await page.goto(cfg.login);
  await page.goto(cfg.url);
  out.landed = page.url();
  await ready();
  out.sessionId = await page.evaluate(() => window.Pilothouse.state().sessionId);
  out.greeting = await messages();
  // The chat opens from the keyboard: the launcher is a button with a name.
  out.launcher = await page.evaluate(() => {
    const b = document.querySelector('[data-pilothouse]').shadowRoot.querySelector('.launcher');
    return b ? b.getAttribute('aria-label') : null;
  });

  if (cfg.scenario === 'form') {
    await page.evaluate((t) => window.Pilothouse.send(t), 'Type "Ann" into "Name" and click "Send"');
    await page.waitForURL(/thanks/, { timeout: 45000 });
    await ready();
    await waitForAssistant('^Done');
    out.url = page.url();
    out.messages = await messages();
    out.state = await page.evaluate(() => window.Pilothouse.state());
  } else if (cfg.scenario === 'external') {
    await page.evaluate((t) => window.Pilothouse.send(t), 'Open https://www.blocked.test/page');
    await waitForAssistant('could not finish');
    out.url = page.url();
    out.messages = await messages();
  } else if (cfg.scenario === 'expired') {
    await page.evaluate(() => {
      window.__refreshes = 0;
      window.Pilothouse.on('refresh', () => window.__refreshes++);
    });
    await fetch(cfg.fixture + '/advance-clock');
    const sent = await page.evaluate((t) => window.Pilothouse.send(t), 'Scroll down');
    out.runId = sent.runId;
    out.refreshes = await page.evaluate(() => window.__refreshes);
    out.sessionAfter = await page.evaluate(() => window.Pilothouse.state().sessionId);
  } else if (cfg.scenario === 'stale') {
    await page.evaluate(() => {
      window.__retries = [];
      window.Pilothouse.on('retry', (r) => window.__retries.push(r.code));
    });
    await fetch(cfg.fixture + '/bump-epoch?session=' + out.sessionId);
    const sent = await page.evaluate((t) => window.Pilothouse.send(t), 'Scroll down');
    out.runId = sent.runId;
    out.epoch = sent.epoch;
    out.retries = await page.evaluate(() => window.__retries);
  } else if (cfg.scenario === 'claim') {
    // Opened through an A2W run's `open` link: the visitor allows it, the SDK claims the
    // run and carries it out, and the visitor shares the result.
    const consent = page.locator('[data-pilothouse="consent"]');
    await consent.waitFor({ state: 'attached', timeout: 20000 });
    await consent.locator('button[data-action="accept"]').click();
    await page.waitForURL(/thanks/, { timeout: 45000 });
    await ready();
    await waitForAssistant('^Done');
    const share = page.locator('[data-pilothouse="share"]');
    await share.waitFor({ state: 'attached', timeout: 20000 });
    await share.locator('button[data-action="accept"]').click();
    await share.waitFor({ state: 'detached', timeout: 20000 });
    out.url = page.url();
    out.messages = await messages();
  } else if (cfg.scenario === 'confirm-own') {
    // The visitor's own task sends a form: the site's confirmation policy asks them first.
    await page.evaluate((t) => window.Pilothouse.send(t), cfg.message);
    await waitForAssistant('^Confirm');
    out.beforeConfirm = await (await fetch(cfg.fixture + '/probe')).json();
    // Not awaited in the page: the confirmed form takes this document away.
    await page.evaluate(() => { window.Pilothouse.send('confirm').catch(() => {}); });
    await page.waitForURL(/account\/delete/, { timeout: 45000 });
    out.url = page.url();
  } else if (cfg.scenario === 'send-blocked' || cfg.scenario === 'send-leaves') {
    await page.evaluate((t) => window.Pilothouse.send(t), cfg.message);
    if (cfg.scenario === 'send-leaves') {
      await page.waitForURL(/localhost/, { timeout: 45000 });
    } else {
      await waitForAssistant('could not finish');
      out.messages = await messages();
    }
    out.url = page.url();
  } else if (cfg.scenario.startsWith('consent-')) {
    // An agent's run opened from its link: the visitor is asked in the page first.
    const probe = async () => (await fetch(cfg.fixture + '/probe?a2w=' + cfg.a2w + '&session=' + out.sessionId)).json();
    const shadowText = (kind) =>
      page.evaluate((k) => document.querySelector('[data-pilothouse="' + k + '"]').shadowRoot.textContent, kind);
    const listen = () => page.evaluate(() => {
      window.Pilothouse.on('claim', (c) => { window.__claim = c; });
      window.Pilothouse.on('review', (r) => { window.__review = r; });
    });
    const consent = page.locator('[data-pilothouse="consent"]');
    await consent.waitFor({ state: 'attached', timeout: 20000 });
    out.dialog = await shadowText('consent');
    out.beforeConsent = await probe();
    await listen();
    if (cfg.scenario === 'consent-decline') {
      await consent.locator('button[data-action="decline"]').click();
      await page.waitForFunction(() => window.__claim, null, { timeout: 20000 });
      out.claim = await page.evaluate(() => window.__claim);
    } else {
      await consent.locator('button[data-action="accept"]').click();
      if (cfg.scenario === 'consent-confirm') {
        // The site's confirmation policy: the form waits for the visitor's word.
        await waitForAssistant('^Confirm');
        out.beforeConfirm = await probe();
        // Not awaited in the page: the confirmed form takes this document away.
    await page.evaluate(() => { window.Pilothouse.send('confirm').catch(() => {}); });
      }
      // The result: shown to the visitor, who decides whether the agent gets it.
      const share = page.locator('[data-pilothouse="share"]');
      await share.waitFor({ state: 'attached', timeout: 45000 });
      out.shareDialog = await shadowText('share');
      await listen();
      await share.locator(cfg.scenario === 'consent-share' ? 'button[data-action="accept"]'
        : 'button[data-action="decline"]').click();
      await page.waitForFunction(() => window.__review, null, { timeout: 20000 });
      out.review = await page.evaluate(() => window.__review);
    }
    out.url = page.url();
    out.messages = await messages();
    out.after = await probe();
  } else if (cfg.scenario === 'noscroll') {
    // pageConfig.disableAutoScroll (on by default): acting does not scroll the page.
    await page.evaluate((t) => window.Pilothouse.send(t), 'Type "far away" into "Far field"');
    await waitForAssistant('^Done');
    out.typed = await page.evaluate(() => document.querySelector('input[name=far]').value);
    out.scrollY = await page.evaluate(() => window.scrollY);
  } else if (cfg.scenario === 'goal') {
    out.tracked = await page.evaluate(() => window.Pilothouse.trackGoal('signup', 5));
    await page.waitForTimeout(1000);
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
