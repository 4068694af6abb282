// The device extension in a real Chromium (issue 32, "It must show"): playwright-core
// launches Debian's chromium with resources/extension loaded (persistent context, new
// headless mode), pairs it through its options page, signs in to a fixture site in that
// browser, then through POST /mcp lists the tabs, runs execute_javascript, reads the
// signed-in page, and kills the browser mid-call. Prints JSON.
// argv[2]: {base, key, extension, site, hook, executablePath}
import { chromium } from 'playwright-core';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cfg = JSON.parse(process.argv[2]);
const out = {};
const profile = mkdtempSync(join(tmpdir(), 'ph-device-'));

async function api(method, path, body) {
  const r = await fetch(cfg.base + path, {
    method,
    headers: { Authorization: 'Bearer ' + cfg.key, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: await r.json().catch(() => ({})) };
}

// The browser process of this profile (only ours: the profile folder is new), by pid.
function browserPid() {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmd = '';
    try { cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    const args = cmd.split('\0');
    if (args.some((a) => a.includes(profile)) && !args.some((a) => a.startsWith('--type=')))
      return Number(pid);
  }
  return 0;
}

const context = await chromium.launchPersistentContext(profile, {
  executablePath: cfg.executablePath || '/usr/bin/chromium',
  headless: false,
  args: ['--headless=new', '--no-sandbox', `--disable-extensions-except=${cfg.extension}`,
         `--load-extension=${cfg.extension}`],
  timeout: 30000,
});
try {
  let [worker] = context.serviceWorkers();
  if (!worker) worker = await context.waitForEvent('serviceworker', { timeout: 20000 });
  const extensionId = new URL(worker.url()).host;
  out.extensionLoaded = !!extensionId;

  // Pair: a code for the key, typed into the options page.
  const pair = await api('POST', '/devices/pair', {});
  out.pairStatus = pair.status;
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await options.fill('#server', cfg.base);
  await options.fill('#code', pair.json.code);
  await options.fill('#name', 'Playwright Chromium');
  await options.click('#submit');
  await options.waitForSelector('#status[data-state="connected"]', { timeout: 20000 });
  out.paired = true;

  // Sign in to the fixture site in this browser.
  const page = await context.newPage();
  await page.goto(cfg.site + '/login');
  await page.fill('#user', 'alice');
  await page.click('#signin');
  await page.waitForURL('**/account');
  out.signedInLocally = (await page.innerText('body')).includes('Welcome back, alice');

  const devices = await api('GET', '/devices');
  out.devices = devices.json.devices.map((d) => ({ status: d.status, name: d.name }));

  const tabs = await api('POST', '/mcp', { tool: 'get_browser_tabs', target: 'device', params: {} });
  out.tabsStatus = tabs.status;
  const account = (tabs.json.tabs || []).find((t) => t.url.endsWith('/account'));
  out.tabsListAccount = !!account;

  const run = await api('POST', '/mcp', {
    tool: 'execute_javascript', target: 'device',
    params: { code: 'document.body.innerText', tabId: account ? account.id : undefined },
  });
  out.scriptStatus = run.status;
  out.scriptResult = run.json.result;

  // The same page through the cloud browser: not signed in.
  const cloud = await api('POST', '/mcp', { tool: 'scrape', params: { urls: [cfg.site + '/account'] } });
  out.cloudStatus = cloud.status;
  out.cloudSawSignedIn = JSON.stringify(cloud.json).includes('Welcome back, alice');

  // Kill the browser while a call runs on it.
  const slow = api('POST', '/mcp', {
    tool: 'execute_javascript', target: 'device', webhookUrl: cfg.hook,
    params: { code: 'new Promise((r) => setTimeout(() => r("late"), 60000))', tabId: account ? account.id : undefined },
  });
  await new Promise((r) => setTimeout(r, 1000)); // let the call reach the tab
  const pid = browserPid();
  out.killed = pid > 0;
  if (pid) process.kill(pid, 'SIGKILL');
  const failed = await slow;
  out.killedStatus = failed.status;
  out.killedCode = failed.json.code;
} finally {
  await context.close().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
