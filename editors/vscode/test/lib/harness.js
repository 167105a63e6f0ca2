// Helpers shared by the integration tests: the askls binary, a copy of the
// fixture workspace, a stdio connection to the server, a fake Ollama.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawn } = require('child_process');

const requireAll = process.env.ASKLS_REQUIRE_ALL === '1';
const fixture = path.join(__dirname, '..', 'fixture', 'proj');

/** skipOrFail skips test t with reason, or fails it when ASKLS_REQUIRE_ALL=1 (CI). */
function skipOrFail(t, reason) {
  if (requireAll) {
    throw new Error(`cannot run with ASKLS_REQUIRE_ALL=1: ${reason}`);
  }
  t.skip(reason);
}

/** asklsBinary is $ASKLS_BIN when it is an executable file. */
function asklsBinary() {
  const p = process.env.ASKLS_BIN;
  if (!p) return { reason: 'ASKLS_BIN is not set (build askls: go build -o /tmp/askls ./cmd/askls)' };
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return { path: p };
  } catch {
    return { reason: `ASKLS_BIN=${p} is not an executable file` };
  }
}

/** workspace copies the fixture project into a fresh temp dir and returns it. */
function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askls-vscode-ws-'));
  fs.cpSync(fixture, dir, { recursive: true });
  return dir;
}

function fileUri(p) {
  return 'file://' + p.split(path.sep).map(encodeURIComponent).join('/');
}

/**
 * startServer runs `askls serve` over stdio with a vscode-jsonrpc connection,
 * answering the server's own requests the way VS Code does. progress(token)
 * gives the $/progress values seen on a token.
 */
function startServer(bin, args, env = {}) {
  const rpc = require('vscode-jsonrpc/node');
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'askls-vscode-cache-'));
  const proc = spawn(bin, ['serve', '--cache', cache, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  proc.stderr.on('data', (b) => {
    stderr += b.toString();
  });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  const progress = new Map();
  const serverRequests = [];
  conn.onRequest((method, params) => {
    serverRequests.push({ method, params });
    if (method === 'workspace/configuration') return (params.items || []).map(() => ({}));
    if (method === 'window/showDocument') return { success: true };
    return null;
  });
  conn.onNotification(() => {});
  // $/progress on tokens nobody registered (all of them here) ends up here.
  conn.onUnhandledProgress((p) => {
    if (!progress.has(p.token)) progress.set(p.token, []);
    progress.get(p.token).push(p.value);
  });
  conn.listen();
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    conn,
    proc,
    progress: (token) => progress.get(token) || [],
    serverRequests,
    stderr: () => stderr,
    exited,
    async initialize(root, initializationOptions = {}) {
      const res = await conn.sendRequest('initialize', {
        processId: process.pid,
        clientInfo: { name: 'askls-vscode-test' },
        rootUri: fileUri(root),
        workspaceFolders: [{ uri: fileUri(root), name: path.basename(root) }],
        capabilities: {
          window: { workDoneProgress: true },
          workspace: { codeLens: { refreshSupport: true }, configuration: true, workspaceFolders: true },
          textDocument: { codeLens: {}, synchronization: { didSave: true } },
        },
        initializationOptions,
      });
      await conn.sendNotification('initialized', {});
      return res;
    },
    /** waitIndexed polls askls.status until the first index is ready. */
    async waitIndexed(timeoutMs = 60000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const st = await conn.sendRequest('workspace/executeCommand', { command: 'askls.status', arguments: [] });
        if (st && ((st.workspace && st.workspace.ready) || (st.index && st.index.Ready))) return st;
        if (Date.now() > until) throw new Error(`index not ready after ${timeoutMs} ms: ${JSON.stringify(st)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      try {
        await Promise.race([conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 3000))]);
        await conn.sendNotification('exit');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
      conn.dispose();
      fs.rmSync(cache, { recursive: true, force: true });
    },
  };
}

/**
 * fakeOllama serves the parts of Ollama's HTTP API the agent uses on
 * 127.0.0.1: /api/version, /api/tags, /api/show, and /api/chat as an NDJSON
 * stream that plays the next scripted turn per request. A line 'HOLD' keeps
 * the stream open until the client goes away (then onClosed fires). turns
 * is a list, or a function (request body, index of the chat) giving the
 * turn; opts.delayMs is the pause between lines (default 5).
 */
function fakeOllama(turns, opts = {}) {
  const delayMs = opts.delayMs ?? 5;
  const state = { chats: 0, requests: [], closed: 0, holding: 0 };
  let closedWaiters = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (b) => (body += b));
    req.on('end', () => {
      switch (req.url) {
        case '/api/version':
          return json(res, { version: '0.6.5' });
        case '/api/tags':
          return json(res, { models: [{ name: 'fake:latest', model: 'fake:latest' }] });
        case '/api/show':
          return json(res, { capabilities: ['completion', 'tools'], model_info: { 'llama.context_length': 8192 } });
        case '/api/chat': {
          let parsed = body;
          try {
            parsed = JSON.parse(body);
          } catch {
            // kept as text
          }
          state.requests.push(parsed);
          const turn = (typeof turns === 'function' ? turns(parsed, state.chats) : turns[state.chats]) || [textChunk('No more script.', true)];
          state.chats++;
          res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
          // Watch from the first byte: a client that goes away before the
          // script reaches HOLD (a cancel right after the first words) must
          // count as closed too.
          res.on('close', () => {
            if (res.writableEnded) return; // the script ended the stream itself
            state.closed++;
            for (const w of closedWaiters) w();
            closedWaiters = [];
          });
          play(res, turn, 0);
          return;
        }
        default:
          res.writeHead(404);
          res.end('{"error":"not found"}');
      }
    });
    function play(res, turn, i) {
      if (i >= turn.length) {
        res.end();
        return;
      }
      if (res.destroyed) return; // the client went away: nothing more to play
      if (turn[i] === 'HOLD') {
        state.holding++;
        return;
      }
      res.write(turn[i] + '\n');
      setTimeout(() => play(res, turn, i + 1), delayMs);
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        state,
        closed: () => (state.closed > 0 ? Promise.resolve() : new Promise((r) => closedWaiters.push(r))),
        close: () => new Promise((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}

function json(res, v) {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(v));
}

/** textChunk is one /api/chat stream line with assistant text. */
function textChunk(text, done = false) {
  const m = { model: 'fake', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: text }, done };
  if (done) Object.assign(m, { done_reason: 'stop', prompt_eval_count: 120, eval_count: 30 });
  return JSON.stringify(m);
}

/** toolChunk is one stream line with a native tool call. */
function toolChunk(name, args) {
  return JSON.stringify({
    model: 'fake', created_at: '2026-01-01T00:00:00Z', done: false,
    message: { role: 'assistant', content: '', tool_calls: [{ function: { name, arguments: args } }] },
  });
}

module.exports = { requireAll, fixture, skipOrFail, asklsBinary, workspace, fileUri, startServer, fakeOllama, textChunk, toolChunk };
