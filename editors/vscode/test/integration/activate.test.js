// Level 2: the bundled extension (dist/extension.js, as the .vsix ships it)
// with the real vscode-languageclient inside, the `vscode` module replaced by
// test/lib/vscode-stub.js, talking to the real askls binary: activate(), the
// missing-binary notification, settings sent at start and on change, the ask
// command with its input box, progress and cancel, the panel's content,
// opening a citation, peek, and the server's code lenses opening the answer.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
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

function context() {
  return { subscriptions: [], extensionUri: vscode.Uri.file(path.join(__dirname, '..', '..')), extensionPath: path.join(__dirname, '..', '..') };
}

/** load gives a fresh copy of the bundled extension. */
function load() {
  delete require.cache[bundle];
  return require(bundle);
}

async function unload(ext, ctx) {
  await ext.deactivate();
  for (const d of ctx.subscriptions) d.dispose();
}

function resetRecords() {
  for (const k of ['messages', 'inputBoxes', 'inputAnswers', 'progress', 'panels', 'shown', 'decorations', 'executed', 'codeLensProviders', 'statusMessages']) {
    rec[k].length = 0;
  }
  rec.settings.clear();
}

function lastHtml(panel) {
  const renders = panel.posted.filter((m) => m.type === 'render');
  return renders.length ? renders[renders.length - 1].html : panel.webview.html;
}

async function until(what, cond, ms = 30000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('activate: a missing askls binary gives one clear notification, commands still exist', { timeout: 60000 }, async (t) => {
  if (!fs.existsSync(bundle)) return h.skipOrFail(t, 'dist/extension.js is missing: npm run build');
  resetRecords();
  rec.settings.set('askls.serverPath', '/nonexistent/askls');
  const ext = load();
  const ctx = context();
  const api = await ext.activate(ctx);
  t.after(() => unload(ext, ctx));
  assert.equal(api.client(), undefined, 'no client without a binary');
  const errs = rec.messages.filter((m) => m.level === 'error');
  assert.equal(errs.length, 1, JSON.stringify(rec.messages));
  assert.match(errs[0].text, /askls.serverPath is set to "\/nonexistent\/askls"/);
  assert.match(errs[0].text, /go install github\.com\/askls\/askls\/cmd\/askls@latest/);
  assert.deepEqual(errs[0].items, ['Copy Install Command', 'Open Settings']);
  const cmds = await vscode.commands.getCommands();
  for (const c of ['askls.askQuestion', 'askls.peekCitations', 'askls.openAnswers', 'askls.restartServer']) {
    assert.ok(cmds.includes(c), `${c} is registered`);
  }
  // Asking without a server says why again, before any question is typed.
  await vscode.commands.executeCommand('askls.askQuestion');
  const again = rec.messages.filter((m) => m.level === 'error');
  assert.equal(again.length, 2);
  assert.match(again[1].text, /go install/);
  assert.equal(rec.inputBoxes.length, 0, 'no input box without a server');
});

test('activate: ask, stream, open a citation, peek, code lens, settings, cancel — against askls', { timeout: 180000 }, async (t) => {
  if (!fs.existsSync(bundle)) return h.skipOrFail(t, 'dist/extension.js is missing: npm run build');
  const bin = h.asklsBinary();
  if (!bin.path) return h.skipOrFail(t, bin.reason);
  resetRecords();
  const root = h.workspace();
  const cache = fs.mkdtempSync(path.join(require('os').tmpdir(), 'askls-stub-cache-'));
  process.env.ASKLS_CACHE_DIR = cache;
  t.after(() => fs.rmSync(cache, { recursive: true, force: true }));
  vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(root), name: 'shop', index: 0 }];
  rec.settings.set('askls.serverPath', bin.path);
  rec.settings.set('askls.ollamaHost', 'http://127.0.0.1:9'); // nothing listens: retrieval mode
  rec.settings.set('askls.maxHops', 3);

  const ext = load();
  const ctx = context();
  const api = await ext.activate(ctx);
  t.after(() => unload(ext, ctx));
  const client = api.client();
  assert.ok(client, 'the client started');
  assert.equal(client.state, 2 /* Running */);
  assert.deepEqual(rec.messages.filter((m) => m.level === 'error'), []);

  // initializationOptions reached the server.
  const status = async () => vscode.commands.executeCommand('askls.status');
  let st = await status();
  assert.equal(st.config.maxHops, 3);
  assert.equal(st.config.ollamaHost, 'http://127.0.0.1:9');
  for (let i = 0; i < 300 && !(st.workspace && st.workspace.ready); i++) {
    await new Promise((r) => setTimeout(r, 50));
    st = await status();
  }
  assert.ok(st.workspace.ready, 'indexed');

  // A change of settings is sent with didChangeConfiguration.
  rec.settings.set('askls.maxHops', 5);
  vscode.__fireConfigurationChange('askls.maxHops');
  for (let i = 0; i < 100 && (await status()).config.maxHops !== 5; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal((await status()).config.maxHops, 5);

  // Ask from main.go with `config.Load` selected: the input box is prefilled.
  const main = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, 'main.go')));
  const ed = await vscode.window.showTextDocument(main, { viewColumn: 1 });
  const line = main.getText().split('\n').findIndex((l) => l.includes('config.Load'));
  const col = main.lineAt(line).text.indexOf('config.Load');
  ed.selection = new vscode.Selection(line, col, line, col + 'config.Load'.length);
  rec.inputAnswers.push('Where is the config file parsed?');
  const entry = await vscode.commands.executeCommand('askls.askQuestion');
  assert.equal(rec.inputBoxes.length, 1);
  assert.equal(rec.inputBoxes[0].value, 'config.Load', 'prefilled with the selection');
  assert.ok(entry && entry.result, `an answer (${entry && entry.error})`);
  assert.equal(entry.status, 'done');
  const res = entry.result;
  assert.equal(res.mode, 'retrieval');
  assert.ok(res.citations.length > 0);

  // Progress: a cancellable notification that showed the agent's steps.
  const prog = rec.progress[rec.progress.length - 1];
  assert.equal(prog.options.cancellable, true);
  assert.equal(prog.options.location, vscode.ProgressLocation.Notification);
  assert.ok(prog.reports.length > 1, `progress reports: ${JSON.stringify(prog.reports)}`);
  assert.ok(entry.partial.length > 0, 'partial results were streamed into the entry');

  // The panel: beside the code, with the answer, labels and links.
  assert.equal(rec.panels.length, 1);
  const panel = rec.panels[0];
  assert.equal(panel.options.enableScripts, true);
  assert.match(panel.webview.html, /Content-Security-Policy/);
  // No remote images: an image in an answer cannot send data out.
  const csp = panel.webview.html.match(/Content-Security-Policy" content="([^"]*)"/)[1];
  const imgSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('img-src '));
  assert.ok(imgSrc, `an img-src directive in ${csp}`);
  // (cspSource is the webview's own resources, not a remote host.)
  const sources = imgSrc.slice('img-src '.length).split(/\s+/).filter((src) => src !== panel.webview.cspSource);
  assert.deepEqual(sources, ['data:'], `img-src allows more than the webview's own resources: ${imgSrc}`);
  const html = lastHtml(panel);
  assert.match(html, /<h2 class="question">Where is the config file parsed\?<\/h2>/);
  assert.match(html, /Retrieval mode/);
  for (const c of res.citations) assert.match(html, new RegExp(`class="cite(?: stale)?" data-n="${c.n}"`));
  assert.match(html, /config\/load\.go:\d+/);

  // Clicking [n] in the panel opens the cited range and highlights it, in
  // the code's column, not over the panel.
  const cite = res.citations.find((c) => c.location.uri.endsWith('/config/load.go')) || res.citations[0];
  panel.send({ type: 'open', key: entry.key, n: cite.n });
  await until('the cited file to open', () => rec.shown.some((s) => s.uri === cite.location.uri));
  const opened = rec.shown.filter((s) => s.uri === cite.location.uri).pop();
  assert.equal(opened.editor.selection.start.line, cite.location.range.start.line);
  assert.notEqual(opened.options.viewColumn, panel.viewColumn);
  const deco = rec.decorations.filter((d) => d.editor === opened.editor && d.ranges.length > 0).pop();
  assert.ok(deco, 'the cited range is highlighted');
  assert.equal(deco.ranges[0].start.line, cite.location.range.start.line);
  assert.equal(deco.ranges[0].end.line, cite.location.range.end.line);

  // Peek: all citations in the peek view.
  panel.send({ type: 'peek', key: entry.key });
  await until('peekLocations', () => rec.executed.some((e) => e.id === 'editor.action.peekLocations'));
  const peek = rec.executed.find((e) => e.id === 'editor.action.peekLocations');
  assert.equal(peek.args[2].length, res.citations.length);
  assert.equal(peek.args[3], 'peek');

  // The server's code lens on cited code runs askls.showAnswer, which the
  // extension turns into showing that answer in the panel.
  assert.ok(rec.codeLensProviders.length > 0, 'the client registered the server\'s code lens provider');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(cite.location.uri));
  const cts = new vscode.CancellationTokenSource();
  let lenses = [];
  for (const { provider } of rec.codeLensProviders) lenses.push(...((await provider.provideCodeLenses(doc, cts.token)) || []));
  const lens = lenses.find((l) => l.command && l.command.command === 'askls.showAnswer');
  assert.ok(lens, `a lens with askls.showAnswer (${JSON.stringify(lenses.map((l) => l.command))})`);
  assert.deepEqual(lens.command.arguments, [res.id]);
  rec.inputAnswers.push('What does the server cache?');
  const second = await vscode.commands.executeCommand('askls.askQuestion');
  assert.notEqual(second.key, entry.key);
  assert.match(lastHtml(panel), /<select id="history">/, 'earlier answers are listed');
  const shownBefore = rec.shown.length;
  await vscode.commands.executeCommand(lens.command.command, ...lens.command.arguments);
  assert.match(lastHtml(panel), /<h2 class="question">Where is the config file parsed\?<\/h2>/, 'the lens showed its answer');
  assert.deepEqual(rec.shown.slice(shownBefore).map((s) => s.uri), [], 'no markdown answer file was opened beside the panel');

  // Edit the cited code (as an open buffer): the lens's answer, asked again
  // from the server, marks that citation stale.
  const citedFile = vscode.__fileURLToPath(cite.location.uri);
  const lines = fs.readFileSync(citedFile, 'utf8').split('\n');
  for (let l = cite.location.range.start.line; l <= cite.location.range.end.line; l++) lines[l] = lines[l].replace(/\w+/, 'Changed');
  await client.sendNotification('textDocument/didOpen', { textDocument: { uri: cite.location.uri, languageId: 'go', version: 100, text: lines.join('\n') } });
  let staleHtml = '';
  for (let i = 0; i < 100 && !/class="cite stale"/.test(staleHtml); i++) {
    await new Promise((r) => setTimeout(r, 50));
    await vscode.commands.executeCommand('askls.showAnswer', res.id);
    staleHtml = lastHtml(panel);
  }
  assert.match(staleHtml, new RegExp(`<a href="#" class="cite stale" data-n="${cite.n}"`), 'the edited citation is marked stale');
  assert.match(staleHtml, /Some citations are stale/);

  // The cited code back as it was, five lines lower (unsaved): a click on
  // [n] in the panel asks the server where the code is now, lands there,
  // highlights it and the panel drops the stale mark.
  const original = fs.readFileSync(citedFile, 'utf8').split('\n');
  const moved = [...original.slice(0, cite.location.range.start.line), '// 1', '// 2', '// 3', '// 4', '// 5', ...original.slice(cite.location.range.start.line)];
  await client.sendNotification('textDocument/didChange', { textDocument: { uri: cite.location.uri, version: 101 }, contentChanges: [{ text: moved.join('\n') }] });
  const panelCite = api.panel().find(res.id).result.citations.find((c) => c.n === cite.n);
  const wantLine = cite.location.range.start.line + 5;
  const shownBeforeMove = rec.shown.length;
  panel.send({ type: 'open', key: api.panel().find(res.id).key, n: cite.n });
  await until('the moved citation to open', () => rec.shown.length > shownBeforeMove);
  const landed = rec.shown[rec.shown.length - 1];
  assert.equal(landed.uri, cite.location.uri);
  assert.equal(landed.editor.selection.start.line, wantLine, 'the click lands on the moved code');
  const movedDeco = rec.decorations.filter((d) => d.editor === landed.editor && d.ranges.length > 0).pop();
  assert.equal(movedDeco.ranges[0].start.line, wantLine);
  assert.equal(panelCite.stale, false, 'the moved, unchanged citation is not stale');
  assert.doesNotMatch(lastHtml(panel), new RegExp(`class="cite stale" data-n="${cite.n}"`), 'the panel dropped the stale mark');
  // Changed for good: the click says so where the person looks.
  const changedAgain = moved.map((l, i) => (i >= wantLine && i <= wantLine + (cite.location.range.end.line - cite.location.range.start.line) ? l.replace(/\w+/, 'Gone') : l));
  await client.sendNotification('textDocument/didChange', { textDocument: { uri: cite.location.uri, version: 102 }, contentChanges: [{ text: changedAgain.join('\n') }] });
  const warnsBefore = rec.messages.filter((m) => m.level === 'warning').length;
  panel.send({ type: 'open', key: api.panel().find(res.id).key, n: cite.n });
  await until('the stale warning', () => rec.messages.filter((m) => m.level === 'warning').length > warnsBefore);
  assert.match(rec.messages.filter((m) => m.level === 'warning').pop().text, new RegExp(`citation \\[${cite.n}\\] is stale`));

  // askls: Clear Citations takes every lens away; the answers stay.
  await vscode.commands.executeCommand('askls.clear');
  assert.match(rec.messages.filter((m) => m.level === 'info').pop().text, /askls: cleared the citations of q\d/);
  lenses = [];
  for (const { provider } of rec.codeLensProviders) lenses.push(...((await provider.provideCodeLenses(doc, cts.token)) || []));
  assert.deepEqual(lenses.filter((l) => l.command && l.command.command === 'askls.showAnswer'), [], 'no askls lens after Clear Citations');
  await vscode.commands.executeCommand('askls.clear');
  assert.match(rec.messages.filter((m) => m.level === 'info').pop().text, /no citations were showing/);
  assert.ok(api.panel().find(res.id), 'the answer is still in the panel');

  // Cancel from the notification: a model that never finishes (fake Ollama).
  const fo = await h.fakeOllama([
    [h.toolChunk('search_code', { query: 'cart cache size' }), h.textChunk('', true)],
    [h.textChunk('The cart cache holds ', false), 'HOLD'],
  ]);
  t.after(() => fo.close());
  rec.settings.set('askls.model', 'fake');
  rec.settings.set('askls.ollamaHost', fo.url);
  vscode.__fireConfigurationChange('askls.model', 'askls.ollamaHost');
  for (let i = 0; i < 100 && (await status()).config.ollamaHost !== fo.url; i++) await new Promise((r) => setTimeout(r, 50));
  rec.inputAnswers.push('How big is the cart cache?');
  const pending = vscode.commands.executeCommand('askls.askQuestion');
  await until(() => `the model to stream (${JSON.stringify(fo.state)} ${JSON.stringify(api.panel().all[api.panel().all.length - 1])})`, () => {
    const e = api.panel().all[api.panel().all.length - 1];
    return e.question === 'How big is the cart cache?' && e.partial.length > 0;
  });
  assert.match(lastHtml(panel), /Answering…/);
  rec.progress[rec.progress.length - 1].cts.cancel();
  const cancelled = await pending;
  assert.equal(cancelled.status, 'cancelled');
  assert.match(lastHtml(panel), /Cancelled/);
  await Promise.race([fo.closed(), new Promise((_, rej) => setTimeout(() => rej(new Error('model stream still open 10 s after cancel')), 10000))]);
});
