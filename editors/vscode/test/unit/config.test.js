'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { serverSettings, serverKeys } = require('../../out/config.js');
const { findServer, goEnvDirs } = require('../../out/serverPath.js');

test('every setting of docs/protocol.md is a setting with a description', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8'));
  const props = pkg.contributes.configuration.properties;
  for (const k of serverKeys) {
    assert.ok(props[`askls.${k}`], `askls.${k} is declared`);
    assert.ok(props[`askls.${k}`].markdownDescription || props[`askls.${k}`].description, `askls.${k} has a description`);
  }
  assert.ok(props['askls.serverPath']);
  assert.deepEqual(
    [...serverKeys].sort(),
    ['apiKey', 'baseUrl', 'citationsAsDiagnostics', 'codeLens', 'exclude', 'logLevel', 'maxFileBytes', 'maxHops', 'model', 'numCtx', 'ollamaHost', 'provider', 'timeoutSeconds'],
  );
});

test('the declared defaults are the server defaults, every key is sent', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8'));
  const props = pkg.contributes.configuration.properties;
  const got = serverSettings((k) => props[`askls.${k}`].default);
  assert.deepEqual(got, {
    provider: '', model: '', ollamaHost: '', baseUrl: '', apiKey: '', numCtx: 0, maxHops: 0, timeoutSeconds: 120, exclude: [], maxFileBytes: 0,
    codeLens: true, citationsAsDiagnostics: 'auto', logLevel: 'info',
  });
  // Unset (undefined) values give the same.
  assert.deepEqual(serverSettings(() => undefined), got);
});

test('set values are passed, trimmed and of the right type', () => {
  const vals = {
    provider: 'openai', baseUrl: ' http://gpu:8000/v1 ', apiKey: 'sk-x', model: ' qwen2.5-coder:7b ', ollamaHost: 'http://127.0.0.1:11434', numCtx: 8192, maxHops: 6.7,
    timeoutSeconds: 'x', exclude: ['vendor/**', 3, ''], maxFileBytes: -1, codeLens: false, citationsAsDiagnostics: 'yes', logLevel: 'debug',
  };
  assert.deepEqual(serverSettings((k) => vals[k]), {
    provider: 'openai', model: 'qwen2.5-coder:7b', ollamaHost: 'http://127.0.0.1:11434', baseUrl: 'http://gpu:8000/v1', apiKey: 'sk-x', numCtx: 8192, maxHops: 6,
    timeoutSeconds: 120, exclude: ['vendor/**'], maxFileBytes: 0, codeLens: false, citationsAsDiagnostics: 'auto', logLevel: 'debug',
  });
  assert.equal(serverSettings((k) => (k === 'citationsAsDiagnostics' ? true : undefined)).citationsAsDiagnostics, 'always');
  assert.equal(serverSettings((k) => (k === 'provider' ? 'anthropic' : undefined)).provider, '');
});

test('findServer: a set serverPath must exist', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askls-find-'));
  const bin = path.join(dir, 'askls');
  fs.writeFileSync(bin, '#!/bin/sh\n', { mode: 0o755 });
  assert.deepEqual(findServer(bin, { PATH: '' }), { path: bin });
  const missing = findServer(path.join(dir, 'nope'), { PATH: dir });
  assert.equal(missing.path, undefined);
  assert.match(missing.reason, /askls.serverPath is set to/);
});

test('findServer: PATH, then GOPATH/bin, then ~/go/bin; not a directory or a non-executable', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askls-find-'));
  for (const d of ['p1', 'p2', 'gp/bin', 'home/go/bin']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.mkdirSync(path.join(dir, 'p1', 'askls'));
  fs.writeFileSync(path.join(dir, 'p2', 'askls'), 'x', { mode: 0o644 });
  const env = { PATH: [path.join(dir, 'p1'), path.join(dir, 'p2')].join(path.delimiter), GOPATH: path.join(dir, 'gp'), HOME: path.join(dir, 'home') };
  const noGo = () => [];
  assert.match(findServer('', env, noGo).reason, /not found/);
  fs.writeFileSync(path.join(dir, 'home/go/bin/askls'), 'x', { mode: 0o755 });
  assert.equal(findServer('', env, noGo).path, path.join(dir, 'home/go/bin/askls'));
  fs.writeFileSync(path.join(dir, 'gp/bin/askls'), 'x', { mode: 0o755 });
  assert.equal(findServer(undefined, env, noGo).path, path.join(dir, 'gp/bin/askls'));
  fs.chmodSync(path.join(dir, 'p2', 'askls'), 0o755);
  assert.equal(findServer('  ', env, noGo).path, path.join(dir, 'p2/askls'));
});

test('findServer: where `go env GOBIN GOPATH` says go install puts it, when the environment does not say', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askls-find-'));
  for (const d of ['bin', 'gobin', 'gopath/bin', 'home']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  // A `go` on PATH that answers as go does: GOBIN, then GOPATH, a line each.
  fs.writeFileSync(path.join(dir, 'bin', 'go'), `#!/bin/sh\n[ "$1 $2 $3" = "env GOBIN GOPATH" ] || exit 2\necho "${path.join(dir, 'gobin')}"\necho "${path.join(dir, 'gopath')}"\n`, { mode: 0o755 });
  const env = { PATH: path.join(dir, 'bin'), HOME: path.join(dir, 'home') };
  assert.deepEqual(goEnvDirs(env), [path.join(dir, 'gobin'), path.join(dir, 'gopath', 'bin')]);
  const none = findServer('', env);
  assert.match(none.reason, /not found/);
  assert.ok(none.reason.includes(path.join(dir, 'gobin')), none.reason);
  fs.writeFileSync(path.join(dir, 'gopath/bin/askls'), 'x', { mode: 0o755 });
  assert.equal(findServer('', env).path, path.join(dir, 'gopath/bin/askls'));
  fs.writeFileSync(path.join(dir, 'gobin/askls'), 'x', { mode: 0o755 });
  assert.equal(findServer('', env).path, path.join(dir, 'gobin/askls'));
});
