// Level 1: the real askls binary over stdio, driven with vscode-jsonrpc the
// way the extension drives it: initialize, askls/ask in retrieval mode and
// with a fake Ollama, partial results, work-done progress, code lenses,
// askls.showAnswer, cancellation.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const rpc = require('vscode-jsonrpc/node');
const h = require('../lib/harness');

const bin = h.asklsBinary();

function checkCitations(root, result) {
  assert.ok(result.citations.length > 0, 'has citations');
  const seen = new Set();
  for (const c of result.citations) {
    assert.ok(!seen.has(c.n), `citation ${c.n} is unique`);
    seen.add(c.n);
    assert.ok(c.location.uri.startsWith(h.fileUri(root) + '/'), `${c.location.uri} is inside the workspace`);
    const file = decodeURIComponent(c.location.uri.slice('file://'.length));
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const { start, end } = c.location.range;
    assert.ok(start.line >= 0 && end.line < lines.length && start.line <= end.line, `range of [${c.n}] is inside ${file}`);
    if (c.excerpt) {
      const first = c.excerpt.split('\n')[0].trim();
      assert.ok(lines.slice(start.line, end.line + 1).join('\n').includes(first), `excerpt of [${c.n}] is the cited text`);
    }
  }
}

test('stdio: initialize, ask in retrieval mode, progress, partial results, code lens, showAnswer', { timeout: 120000 }, async (t) => {
  if (!bin.path) return h.skipOrFail(t, bin.reason);
  const root = h.workspace();
  const s = h.startServer(bin.path, ['--no-model']);
  t.after(() => s.close());

  const init = await s.initialize(root, { codeLens: true });
  const cmds = init.capabilities.executeCommandProvider.commands;
  for (const c of ['askls.ask', 'askls.showAnswer', 'askls.reindex', 'askls.status']) {
    assert.ok(cmds.includes(c), `server lists ${c}`);
  }
  assert.ok(!cmds.includes('askls.askQuestion'), 'the extension command name is free');
  assert.ok(init.capabilities.codeLensProvider, 'code lenses');
  await s.waitIndexed();

  const res = await s.conn.sendRequest('askls/ask', {
    question: 'Where is the config file parsed?',
    textDocument: { uri: h.fileUri(path.join(root, 'main.go')) },
    position: { line: 13, character: 2 },
    workDoneToken: 'wd-1',
    partialResultToken: 'pr-1',
  });
  assert.equal(res.mode, 'retrieval');
  assert.equal(res.refused, false);
  assert.equal(res.question, 'Where is the config file parsed?');
  assert.ok(res.id, 'has an id');
  checkCitations(root, res);
  for (const c of res.citations) {
    assert.ok(res.answer.includes(`[${c.n}]`), `answer cites [${c.n}]`);
  }
  const files = res.citations.map((c) => path.relative(root, decodeURIComponent(c.location.uri.slice(7))));
  assert.ok(files.includes(path.join('config', 'load.go')), `config/load.go is cited (${files})`);

  const wd = s.progress('wd-1');
  assert.equal(wd[0] && wd[0].kind, 'begin', `work-done progress begins (${JSON.stringify(wd)})`);
  assert.equal(wd[wd.length - 1].kind, 'end', 'work-done progress ends');
  const deltas = s.progress('pr-1');
  assert.ok(deltas.length > 0, 'partial results arrive');
  for (const d of deltas) assert.equal(typeof d.delta, 'string');

  // A code lens on a cited range, opening the answer.
  const cited = res.citations[0];
  const uri = cited.location.uri;
  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'go', version: 1, text: fs.readFileSync(decodeURIComponent(uri.slice(7)), 'utf8') },
  });
  const lenses = await s.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
  const lens = (lenses || []).find((l) => l.range.start.line === cited.location.range.start.line);
  assert.ok(lens, `a lens on line ${cited.location.range.start.line} (${JSON.stringify(lenses)})`);
  assert.equal(lens.command.command, 'askls.showAnswer');
  assert.deepEqual(lens.command.arguments, [res.id]);
  assert.match(lens.command.title, /\[\d+\]/);

  const shown = await s.conn.sendRequest('workspace/executeCommand', { command: 'askls.showAnswer', arguments: [res.id] });
  assert.equal(shown.id, res.id);
  assert.equal(shown.answer, res.answer);
});

test('stdio: a model answer through a fake Ollama streams its text and cites what the tool read', { timeout: 120000 }, async (t) => {
  if (!bin.path) return h.skipOrFail(t, bin.reason);
  const root = h.workspace();
  const fo = await h.fakeOllama([
    [h.toolChunk('read_file', { path: 'config/load.go', start_line: 29, end_line: 40 }), h.textChunk('', true)],
    [h.textChunk('Parse reads `key = value` lines ', false), h.textChunk('and rejects unknown keys [1].', false), h.textChunk('', true)],
  ]);
  t.after(() => fo.close());
  const s = h.startServer(bin.path, []);
  t.after(() => s.close());
  await s.initialize(root, { model: 'fake', ollamaHost: fo.url });
  await s.waitIndexed();

  const res = await s.conn.sendRequest('askls/ask', {
    question: 'How are config lines parsed?',
    workDoneToken: 'wd-2',
    partialResultToken: 'pr-2',
  });
  assert.equal(res.mode, 'model', JSON.stringify(res).slice(0, 500));
  assert.equal(res.model, 'fake');
  assert.equal(res.refused, false);
  assert.match(res.answer, /Parse reads `key = value` lines and rejects unknown keys \[1\]\./);
  assert.equal(res.citations.length, 1);
  checkCitations(root, res);
  assert.ok(res.citations[0].location.uri.endsWith('/config/load.go'));
  assert.equal(res.citations[0].location.range.start.line, 28, 'cites from line 29 (0-based 28)');
  assert.ok(res.steps.some((st) => st.tool === 'read_file'), 'the read_file step is reported');
  const text = s.progress('pr-2').map((d) => d.delta).join('');
  assert.match(text, /Parse reads/, `streamed text (${JSON.stringify(text)})`);
  assert.equal(fo.state.chats, 2, 'two model turns');
});

async function cancelTest(t, turns, waitFor) {
  if (!bin.path) return h.skipOrFail(t, bin.reason);
  const root = h.workspace();
  const fo = await h.fakeOllama(turns);
  t.after(() => fo.close());
  const s = h.startServer(bin.path, []);
  t.after(() => s.close());
  await s.initialize(root, { model: 'fake', ollamaHost: fo.url });
  await s.waitIndexed();

  const cts = new rpc.CancellationTokenSource();
  const pending = s.conn.sendRequest('askls/ask', { question: 'What does the server cache?', partialResultToken: 'pr-3' }, cts.token);
  const ready = () => (waitFor === 'text' ? s.progress('pr-3').length > 0 : fo.state.chats >= turns.length && fo.state.holding > 0);
  // Wait until the model stream is open: the fake has the request, and
  // (when the script streams text after evidence) the first words arrived.
  for (let i = 0; i < 400 && !ready(); i++) {
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.ok(ready(), 'the model is answering');
  cts.cancel();
  await assert.rejects(pending, (err) => {
    assert.equal(err.code, -32800, `error code (${err.message})`);
    return true;
  });
  await Promise.race([fo.closed(), new Promise((_, rej) => setTimeout(() => rej(new Error('model stream still open 5 s after cancel')), 5000))]);

  // The server keeps serving after a cancel.
  const st = await s.conn.sendRequest('workspace/executeCommand', { command: 'askls.status', arguments: [] });
  assert.ok(st, 'status answers');
}

test('stdio: cancelling an ask during the first model turn closes the stream and replies -32800', { timeout: 120000 }, (t) =>
  cancelTest(t, [[h.textChunk('The server keeps ', false), 'HOLD']], 'request'));

// docs/protocol.md: $/cancelRequest ends the model stream and the reply is
// error -32800, in a later turn too (not turned into a refusal answer).
test('stdio: cancelling an ask after a tool call replies -32800', { timeout: 120000 }, (t) =>
  cancelTest(t, [
    [h.toolChunk('search_code', { query: 'cart cache' }), h.textChunk('', true)],
    [h.textChunk('The server keeps ', false), 'HOLD'],
  ], 'text'));
