// Rendering an answer as HTML for the answer panel. Pure: no vscode import,
// so the unit tests (node --test) run it directly.
//
// The answer is markdown; the model's raw HTML is escaped (markdown-it with
// html:false). Each citation marker [n] becomes a link the panel's script
// turns into an "open citation" message; a marker without a citation (while
// the answer is still streaming) is shown but not linked.
import MarkdownIt from 'markdown-it';
import type { AskResult, Citation } from './protocol';

export type EntryStatus = 'asking' | 'done' | 'cancelled' | 'error';

/** One question asked in this window and what is known of its answer. */
export interface Entry {
  /** Local key (the server's id is result.id). */
  key: string;
  question: string;
  status: EntryStatus;
  /** Answer text streamed so far (partial results). */
  partial: string;
  /** Progress messages of the agent's steps, as they came. */
  progress: string[];
  result?: AskResult;
  error?: string;
  startedAt: number;
  /** The thread the question was asked in (known once answered, or when following up). */
  thread?: string;
}

export interface RenderOptions {
  /** How a citation's URI is shown: a workspace-relative path. */
  displayPath: (uri: string) => string;
}

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

type CiteEnv = { cites?: Map<number, Citation>; displayPath?: (uri: string) => string };

function makeMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: false, breaks: false });
  // [n] → a citation token, ahead of markdown's own link rule. A marker that
  // is really a link ("[1](x)" or "[1][ref]") is left to the link rule.
  md.inline.ruler.before('link', 'askls_cite', (state, silent) => {
    const src = state.src;
    const pos = state.pos;
    if (src.charCodeAt(pos) !== 0x5b /* [ */) {
      return false;
    }
    const m = /^\[(\d{1,4})\]/.exec(src.slice(pos));
    if (!m) {
      return false;
    }
    const next = src.charAt(pos + m[0].length);
    if (next === '(' || next === ':') {
      return false;
    }
    if (!silent) {
      const tok = state.push('askls_cite', '', 0);
      tok.meta = { n: Number(m[1]) };
    }
    state.pos += m[0].length;
    return true;
  });
  md.renderer.rules.askls_cite = (tokens, idx, _opts, env: CiteEnv) => {
    const n: number = tokens[idx].meta.n;
    const c = env.cites?.get(n);
    if (!c) {
      return `<span class="cite pending">[${n}]</span>`;
    }
    const where = env.displayPath ? citationPlace(c, env.displayPath) : '';
    const cls = c.stale ? 'cite stale' : 'cite';
    return `<a href="#" class="${cls}" data-n="${n}" title="${escapeHtml(where)}">[${n}]</a>`;
  };
  return md;
}

const md = makeMarkdown();

/** "path:line" or "path:line-line" (1-based lines) of a citation. */
export function citationPlace(c: Citation, displayPath: (uri: string) => string): string {
  const start = c.location.range.start.line + 1;
  let end = c.location.range.end.line + 1;
  // An LSP range ending at column 0 of a line ends on the line before.
  if (c.location.range.end.character === 0 && end > start) {
    end--;
  }
  const lines = end > start ? `${start}-${end}` : `${start}`;
  return `${displayPath(c.location.uri)}:${lines}`;
}

/** renderMarkdown renders answer markdown with its [n] markers linked to cites. */
export function renderMarkdown(text: string, cites: Citation[], displayPath?: (uri: string) => string): string {
  const env: CiteEnv = { cites: new Map(cites.map((c) => [c.n, c])), displayPath };
  return md.render(text, env);
}

function label(kind: string, text: string, title?: string): string {
  const t = title ? ` title="${escapeHtml(title)}"` : '';
  return `<span class="label ${kind}"${t}>${escapeHtml(text)}</span>`;
}

function renderCitations(r: AskResult, o: RenderOptions): string {
  if (r.citations.length === 0) {
    return '';
  }
  const items = r.citations
    .slice()
    .sort((a, b) => a.n - b.n)
    .map((c) => {
      const sym = c.symbol ? ` <code class="symbol">${escapeHtml(c.symbol)}</code>` : '';
      const stale = c.stale
        ? ` ${label('stale', 'stale', 'The cited code changed since the answer was written')}`
        : '';
      const excerpt = c.excerpt
        ? `<pre class="excerpt">${escapeHtml(c.excerpt.length > 400 ? c.excerpt.slice(0, 400) + '…' : c.excerpt)}</pre>`
        : '';
      const cls = c.stale ? 'citation stale' : 'citation';
      return (
        `<li class="${cls}" value="${c.n}">` +
        `<a href="#" class="cite-link" data-n="${c.n}">[${c.n}] ${escapeHtml(citationPlace(c, o.displayPath))}</a>` +
        `${sym}${stale}${excerpt}</li>`
      );
    })
    .join('');
  return `<section class="citations"><h3>Citations</h3><ol>${items}</ol></section>`;
}

function renderSteps(e: Entry): string {
  const steps = e.result?.steps ?? [];
  if (steps.length > 0) {
    const rows = steps
      .map((s) => {
        const args = s.args === undefined ? '' : typeof s.args === 'string' ? s.args : JSON.stringify(s.args);
        const ms = typeof s.ms === 'number' ? ` <span class="ms">${s.ms} ms</span>` : '';
        return (
          `<li><code>${escapeHtml(s.tool)}</code> <code class="args">${escapeHtml(args)}</code>${ms}` +
          (s.summary ? `<div class="summary">${escapeHtml(s.summary)}</div>` : '') +
          `</li>`
        );
      })
      .join('');
    return `<details class="steps"><summary>${steps.length} step${steps.length === 1 ? '' : 's'}</summary><ol>${rows}</ol></details>`;
  }
  if (e.progress.length > 0) {
    const open = e.status === 'asking' ? ' open' : '';
    const rows = e.progress.map((p) => `<li>${escapeHtml(p)}</li>`).join('');
    return `<details class="steps"${open}><summary>${e.progress.length} step${e.progress.length === 1 ? '' : 's'}</summary><ol>${rows}</ol></details>`;
  }
  return '';
}

function renderStats(r: AskResult): string {
  const s = r.stats;
  if (!s) {
    return '';
  }
  const parts: string[] = [];
  if (typeof s.ms === 'number') parts.push(`${(s.ms / 1000).toFixed(1)} s`);
  if (typeof s.hops === 'number') parts.push(`${s.hops} hops`);
  if (typeof s.toolCalls === 'number') parts.push(`${s.toolCalls} tool calls`);
  if (typeof s.promptTokens === 'number') parts.push(`${s.promptTokens} prompt tokens`);
  if (typeof s.evalTokens === 'number') parts.push(`${s.evalTokens} answer tokens`);
  return parts.length ? `<div class="stats">${escapeHtml(parts.join(' · '))}</div>` : '';
}

/** renderEntry renders one question and its answer (finished or streaming). */
export function renderEntry(e: Entry, o: RenderOptions): string {
  const out: string[] = [];
  out.push(`<article class="entry status-${e.status}" data-key="${escapeHtml(e.key)}">`);
  out.push(`<h2 class="question">${escapeHtml(e.question)}</h2>`);
  const labels: string[] = [];
  const r = e.result;
  if (r) {
    if (r.mode === 'retrieval') {
      labels.push(
        label('retrieval', 'Retrieval mode', 'No model was reachable: this is the evidence askls found, ranked and cited, not a written answer'),
      );
    } else {
      labels.push(label('model', r.model ? `Answered by ${r.model}` : 'Answered by the model'));
    }
    if (r.refused) {
      labels.push(label('refused', 'Not answered', 'The evidence found does not answer this question'));
    }
    if (r.citations.some((c) => c.stale)) {
      labels.push(label('stale', 'Some citations are stale'));
    }
  } else if (e.status === 'asking') {
    labels.push(label('asking', 'Answering…'));
  } else if (e.status === 'cancelled') {
    labels.push(label('cancelled', 'Cancelled'));
  } else if (e.status === 'error') {
    labels.push(label('error', 'Failed'));
  }
  out.push(`<div class="labels">${labels.join(' ')}</div>`);
  if (r && r.refused) {
    out.push(
      `<div class="refusal" role="note"><strong>askls could not answer this from the code it found.</strong> ` +
        `The evidence it read does not support an answer; nothing below is a claim about your code.</div>`,
    );
  }
  if (r && r.notice) {
    out.push(`<div class="notice" role="note">${escapeHtml(r.notice)}</div>`);
  }
  if (e.error) {
    out.push(`<div class="error" role="alert">${escapeHtml(e.error)}</div>`);
  }
  const text = r ? r.answer : e.partial;
  if (text) {
    out.push(`<div class="answer">${renderMarkdown(text, r ? r.citations : [], o.displayPath)}</div>`);
  }
  if (r) {
    out.push(renderCitations(r, o));
  }
  out.push(renderSteps(e));
  if (r) {
    out.push(renderStats(r));
  }
  out.push(`</article>`);
  return out.join('\n');
}

/** renderHistory renders the list of earlier questions, newest first. */
export function renderHistory(entries: Entry[], currentKey: string | undefined): string {
  if (entries.length < 2) {
    return '';
  }
  const opts = entries
    .slice()
    .reverse()
    .map((e) => {
      const sel = e.key === currentKey ? ' selected' : '';
      const q = e.question.length > 80 ? e.question.slice(0, 80) + '…' : e.question;
      return `<option value="${escapeHtml(e.key)}"${sel}>${escapeHtml(q)}</option>`;
    })
    .join('');
  return `<label class="history">Earlier answers <select id="history">${opts}</select></label>`;
}

/** threadOf is the thread of an entry: its result's, else the one it was asked in. */
export function threadOf(e: Entry): string | undefined {
  return e.result?.thread || e.thread || undefined;
}

/** earlierTurns are the entries of current's thread asked before it, oldest first. */
export function earlierTurns(entries: Entry[], current: Entry): Entry[] {
  const t = threadOf(current);
  if (!t) {
    return [];
  }
  const i = entries.indexOf(current);
  return entries.slice(0, i < 0 ? entries.length : i).filter((e) => threadOf(e) === t && e.result);
}

/** renderFollowUp is the box under a thread's newest answer for the next question. */
function renderFollowUp(current: Entry): string {
  if (!threadOf(current) || current.status === 'asking') {
    return '';
  }
  return (
    `<form class="followup" data-key="${escapeHtml(current.key)}">` +
    `<input id="followup-input" type="text" placeholder="Ask a follow-up question…" aria-label="Follow-up question">` +
    `<button type="submit">Follow up</button></form>`
  );
}

/**
 * renderBody is what the panel shows: the history picker, then the current
 * entry's conversation: the earlier turns of its thread (each with its
 * clickable citations), the current entry, and the follow-up box.
 */
export function renderBody(entries: Entry[], current: Entry | undefined, o: RenderOptions): string {
  const head = `<nav class="toolbar">${renderHistory(entries, current?.key)}` +
    (current?.result && current.result.citations.length > 0
      ? `<button id="peek" data-key="${escapeHtml(current.key)}">Peek citations</button>`
      : '') +
    `</nav>`;
  if (!current) {
    return head + `<p class="empty">Ask a question with <strong>askls: Ask a Question about the Code</strong>.</p>`;
  }
  const earlier = earlierTurns(entries, current).map((e) => renderEntry(e, o).replace('<article class="entry', '<article class="entry earlier'));
  return head + earlier.join('\n') + renderEntry(current, o) + renderFollowUp(current);
}
