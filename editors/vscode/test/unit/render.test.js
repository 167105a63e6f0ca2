// Unit tests for the answer rendering and the citation links (node --test).
// They run the compiled out/render.js: `npm run build` first.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { renderMarkdown, renderEntry, renderBody, citationPlace, escapeHtml } = require('../../out/render.js');

const root = 'file:///work/proj';
const displayPath = (uri) => uri.startsWith(root + '/') ? uri.slice(root.length + 1) : uri;

function cite(n, file, startLine, endLine, extra = {}) {
  return {
    n,
    location: { uri: `${root}/${file}`, range: { start: { line: startLine, character: 0 }, end: { line: endLine, character: 0 } } },
    excerpt: 'func Load() {}',
    stale: false,
    ...extra,
  };
}

function result(extra = {}) {
  return {
    id: 'a1',
    question: 'Where is the config loaded?',
    answer: 'The config is read by `Load` [1], which calls `parse` [2].',
    citations: [cite(1, 'config/load.go', 9, 20, { symbol: 'Load' }), cite(2, 'config/parse.go', 4, 5)],
    refused: false,
    mode: 'model',
    model: 'qwen2.5-coder:7b',
    steps: [{ tool: 'search_code', args: { query: 'config load' }, summary: '5 hits', ms: 12 }],
    stats: { hops: 2, toolCalls: 3, promptTokens: 900, evalTokens: 80, ms: 2100 },
    ...extra,
  };
}

function entry(extra = {}) {
  return { key: 'q1', question: 'Where is the config loaded?', status: 'done', partial: '', progress: [], startedAt: 0, ...extra };
}

test('citation markers become links carrying their number and place', () => {
  const r = result();
  const html = renderMarkdown(r.answer, r.citations, displayPath);
  assert.match(html, /<a href="#" class="cite" data-n="1" title="config\/load.go:10-20">\[1\]<\/a>/);
  assert.match(html, /<a href="#" class="cite" data-n="2" title="config\/parse.go:5">\[2\]<\/a>/);
  assert.match(html, /<code>Load<\/code>/);
});

test('a marker without a citation is shown but not linked', () => {
  const html = renderMarkdown('see [3] and [1]', [cite(1, 'a.go', 0, 1)], displayPath);
  assert.match(html, /<span class="cite pending">\[3\]<\/span>/);
  assert.match(html, /data-n="1"/);
  assert.doesNotMatch(html, /data-n="3"/);
});

test('markers inside code and real links are left alone', () => {
  const html = renderMarkdown('`a[1]` and [docs](https://go.dev) and [1](x)', [cite(1, 'a.go', 0, 1)], displayPath);
  assert.match(html, /<code>a\[1\]<\/code>/);
  assert.match(html, /<a href="https:\/\/go.dev">docs<\/a>/);
  assert.doesNotMatch(html, /class="cite"/);
});

test('adjacent markers [1][2] are both linked', () => {
  const c = [cite(1, 'a.go', 0, 1), cite(2, 'b.go', 2, 3)];
  const html = renderMarkdown('both [1][2].', c, displayPath);
  assert.match(html, /data-n="1"[^>]*>\[1\]<\/a><a href="#" class="cite" data-n="2"/);
});

test('raw HTML and script in the answer are escaped', () => {
  const html = renderMarkdown('<script>alert(1)</script> <img src=x onerror=alert(1)> [1]', [cite(1, 'a.go', 0, 1)], displayPath);
  assert.doesNotMatch(html, /<script>/);
  assert.doesNotMatch(html, /<img/);
  assert.match(html, /&lt;script&gt;/);
});

test('javascript: links are not rendered as links', () => {
  const html = renderMarkdown('[x](javascript:alert(1))', [], displayPath);
  assert.doesNotMatch(html, /href="javascript:/);
});

test('citationPlace gives 1-based lines and drops an end at column 0', () => {
  assert.equal(citationPlace(cite(1, 'a.go', 9, 20), displayPath), 'a.go:10-20');
  assert.equal(citationPlace(cite(1, 'a.go', 4, 5), displayPath), 'a.go:5');
  const c = cite(1, 'a.go', 4, 6);
  c.location.range.end.character = 3;
  assert.equal(citationPlace(c, displayPath), 'a.go:5-7');
});

test('a finished entry lists citations with path, line and symbol, and folds the steps', () => {
  const html = renderEntry(entry({ result: result() }), { displayPath });
  assert.match(html, /<li class="citation" value="1"><a href="#" class="cite-link" data-n="1">\[1\] config\/load.go:10-20<\/a> <code class="symbol">Load<\/code>/);
  assert.match(html, /\[2\] config\/parse.go:5/);
  assert.match(html, /<details class="steps"><summary>1 step<\/summary>/);
  assert.match(html, /search_code/);
  assert.match(html, /Answered by qwen2.5-coder:7b/);
  assert.doesNotMatch(html, /Retrieval mode/);
  assert.doesNotMatch(html, /class="refusal"/);
  assert.match(html, /2.1 s · 2 hops · 3 tool calls/);
});

test('stale citations are marked in the list and in the text', () => {
  const r = result();
  r.citations[1].stale = true;
  const html = renderEntry(entry({ result: r }), { displayPath });
  assert.match(html, /<li class="citation stale" value="2">.*<span class="label stale"/s);
  assert.match(html, /<a href="#" class="cite stale" data-n="2"/);
  assert.match(html, /Some citations are stale/);
});

test('retrieval mode is labelled and never shown as a model answer', () => {
  const r = result({ mode: 'retrieval', model: undefined });
  const html = renderEntry(entry({ result: r }), { displayPath });
  assert.match(html, /<span class="label retrieval"[^>]*>Retrieval mode<\/span>/);
  assert.doesNotMatch(html, /Answered by/);
});

test('a refusal is shown as one', () => {
  const r = result({ refused: true, answer: 'The code does not say.', citations: [] });
  const html = renderEntry(entry({ result: r }), { displayPath });
  assert.match(html, /class="label refused"/);
  assert.match(html, /<div class="refusal" role="note">/);
  assert.doesNotMatch(html, /<section class="citations">/);
});

test('a streaming entry shows the partial text and the open progress steps', () => {
  const e = entry({ status: 'asking', partial: 'So far [1] and **bold', progress: ['search_code config', 'read_file a.go'] });
  const html = renderEntry(e, { displayPath });
  assert.match(html, /Answering…/);
  assert.match(html, /So far <span class="cite pending">\[1\]<\/span>/);
  assert.match(html, /<details class="steps" open><summary>2 steps<\/summary>/);
});

test('cancelled and failed entries say so, with the error escaped', () => {
  assert.match(renderEntry(entry({ status: 'cancelled', error: 'cancelled' }), { displayPath }), /Cancelled/);
  const html = renderEntry(entry({ status: 'error', error: 'bad <thing>' }), { displayPath });
  assert.match(html, /Failed/);
  assert.match(html, /bad &lt;thing&gt;/);
});

test('the question is escaped', () => {
  const html = renderEntry(entry({ question: '<b>why</b>?' }), { displayPath });
  assert.match(html, /<h2 class="question">&lt;b&gt;why&lt;\/b&gt;\?<\/h2>/);
});

test('earlier answers are reachable from the history picker, newest first', () => {
  const a = entry({ key: 'q1', question: 'first' });
  const b = entry({ key: 'q2', question: 'second', result: result() });
  const html = renderBody([a, b], a, { displayPath });
  assert.match(html, /<select id="history"><option value="q2">second<\/option><option value="q1" selected>first<\/option><\/select>/);
  assert.match(html, /<h2 class="question">first<\/h2>/);
  assert.doesNotMatch(renderBody([a], a, { displayPath }), /history/);
  assert.match(renderBody([a, b], b, { displayPath }), /<button id="peek" data-key="q2">/);
});

test('escapeHtml escapes the five characters', () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});

test('a notice from the server is shown, escaped', () => {
  const html = renderEntry(entry({ result: result({ notice: 'index still building (<50%)' }) }), { displayPath });
  assert.match(html, /<div class="notice" role="note">index still building \(&lt;50%\)<\/div>/);
  assert.doesNotMatch(renderEntry(entry({ result: result() }), { displayPath }), /class="notice"/);
});

test('a thread: the earlier turns show above the newest, each with its links, and a follow-up box below', () => {
  const t1 = entry({ key: 'q1', question: 'Where is the config loaded?', result: result({ thread: 'abc', id: 'a1' }) });
  const t2 = entry({
    key: 'q2',
    question: 'who calls that?',
    result: result({ thread: 'abc', id: 'a2', question: 'who calls that?', answer: 'main calls it [1].', citations: [cite(1, 'main.go', 12, 12)] }),
  });
  const other = entry({ key: 'q3', question: 'unrelated', result: result({ thread: 'zzz', id: 'a3' }) });
  const html = renderBody([t1, other, t2], t2, { displayPath });
  const a = html.indexOf('<h2 class="question">Where is the config loaded?</h2>');
  const b = html.indexOf('<h2 class="question">who calls that?</h2>');
  assert.ok(a >= 0 && b > a, 'turn 1 above turn 2');
  assert.match(html, /<article class="entry earlier status-done" data-key="q1">/);
  assert.doesNotMatch(html, /<h2 class="question">unrelated<\/h2>/, 'another thread is not shown');
  assert.match(html, /<form class="followup" data-key="q2">/);
  assert.ok(html.indexOf('config/load.go:10-20') > a, "turn 1's citation links are there");
  // Without a thread (an old server): no follow-up box, no earlier turns.
  const alone = renderBody([entry({ result: result() })], entry({ result: result() }), { displayPath });
  assert.doesNotMatch(alone, /followup/);
});
