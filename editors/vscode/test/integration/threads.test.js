// Threads in the extension (the bundled dist/extension.js with the stubbed
// vscode module, against the real askls binary): a question starts a
// thread, the panel's follow-up box asks the next turn in it, the panel
// shows both turns with their citations clickable, and askls.reopenThread
// shows a thread again from the server.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');
const h = require('../lib/harness');

const stubPath = path.join(__dirname, '..', 'lib', 'vscode-stub.js');
const bundle = path.join(__dirname, '..', '..', 'dist', 'extension.js');
const origResolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'vscode') return stubPath;
  return origResolve.call(this, request, ...rest);
};
const vscode = require('vscode');
const rec = vscode.__rec;

function lastHtml(panel) {
  const renders = panel.posted.filter((m) => m.type === 'render');
  return renders.length ? renders[renders.length - 1].html : panel.webview.html;
}

async function until(what, cond, ms = 30000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('threads: ask, follow up from the panel, both turns shown, a turn-1 citation opens, reopen a thread', { timeout: 180000 }, async (t) => {
  if (!fs.existsSync(bundle)) return h.skipOrFail(t, 'dist/extension.js is missing: npm run build');
  const bin = h.asklsBinary();
  if (!bin.path) return h.skipOrFail(t, bin.reason);
  const root = h.workspace();
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'askls-stub-cache-'));
  process.env.ASKLS_CACHE_DIR = cache;
  t.after(() => fs.rmSync(cache, { recursive: true, force: true }));
  vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(root), name: 'shop', index: 0 }];
  rec.settings.set('askls.serverPath', bin.path);
  rec.settings.set('askls.ollamaHost', 'http://127.0.0.1:9'); // nothing listens: retrieval mode

  const ext = require(bundle);
  const ctx = { subscriptions: [], extensionUri: vscode.Uri.file(path.join(__dirname, '..', '..')), extensionPath: path.join(__dirname, '..', '..') };
  const api = await ext.activate(ctx);
  t.after(async () => {
    await ext.deactivate();
    for (const d of ctx.subscriptions) d.dispose();
  });
  assert.ok(api.client(), 'the client started');
  let st = await vscode.commands.executeCommand('askls.status');
  for (let i = 0; i < 300 && !(st.workspace && st.workspace.ready); i++) {
    await new Promise((r) => setTimeout(r, 50));
    st = await vscode.commands.executeCommand('askls.status');
  }
  assert.ok(st.workspace.ready, 'indexed');

  const first = await vscode.commands.executeCommand('askls.askQuestion', 'what does `Load` do?');
  assert.ok(first && first.result, `an answer (${first && first.error})`);
  const thread = first.result.thread;
  assert.match(String(thread), /^[0-9a-f]{16}$/, 'the answer names its thread');
  const panel = rec.panels[rec.panels.length - 1];
  assert.match(lastHtml(panel), /<form class="followup" data-key="/, 'the follow-up box under the answer');

  // The follow-up box: the panel's script posts the question.
  const before = api.panel().all.length;
  panel.send({ type: 'followup', key: first.key, question: 'who calls that?' });
  await until('the follow-up answer', () => {
    const e = api.panel().all[api.panel().all.length - 1];
    return api.panel().all.length > before && e.status !== 'asking';
  });
  const second = api.panel().all[api.panel().all.length - 1];
  assert.equal(second.status, 'done', second.error);
  assert.equal(second.result.thread, thread, 'the follow-up is a turn of the same thread');
  assert.match(second.result.answer, /Following up on `Load`/);
  const html = lastHtml(panel);
  const q1 = html.indexOf('<h2 class="question">what does `Load` do?</h2>');
  const q2 = html.indexOf('<h2 class="question">who calls that?</h2>');
  assert.ok(q1 >= 0 && q2 > q1, 'both turns in the panel, oldest first');
  assert.match(html, /<article class="entry earlier status-done" data-key="/);

  // A citation of turn 1 opens where turn 1 cited.
  const c = first.result.citations[0];
  panel.send({ type: 'open', key: first.key, n: c.n });
  await until('the cited file to open', () => rec.shown.some((s) => s.uri === c.location.uri));
  const opened = rec.shown.filter((s) => s.uri === c.location.uri).pop();
  assert.equal(opened.editor.selection.start.line, c.location.range.start.line);

  // A new question starts a new thread; reopening the first shows its turns.
  const other = await vscode.commands.executeCommand('askls.askQuestion', 'how is the cart served?');
  assert.ok(other.result.thread && other.result.thread !== thread, 'a new thread');
  const reopened = await vscode.commands.executeCommand('askls.reopenThread', thread);
  assert.ok(reopened && reopened.result, 'the thread was reopened');
  assert.equal(reopened.question, 'who calls that?');
  const again = lastHtml(panel);
  const r1 = again.indexOf('<h2 class="question">what does `Load` do?</h2>');
  const r2 = again.indexOf('<h2 class="question">who calls that?</h2>');
  assert.ok(r1 >= 0 && r2 > r1, 'both turns after reopening, oldest first');
  assert.equal(again.split('<h2 class="question">what does `Load` do?</h2>').length, 2, 'turn 1 shown once');
  assert.match(again, /<form class="followup"/);
});
