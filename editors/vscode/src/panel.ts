// The answer panel: one webview beside the editor that shows the current
// answer (streaming while it is written) and lets the user go back to the
// earlier answers of this window.
import * as vscode from 'vscode';
import { Entry, renderBody, RenderOptions } from './render';
import type { AskResult } from './protocol';

/** Messages the panel's script sends. */
type FromWebview =
  | { type: 'ready' }
  | { type: 'open'; key: string; n: number }
  | { type: 'show'; key: string }
  | { type: 'peek'; key: string }
  | { type: 'followup'; key: string; question: string };

export interface PanelHandlers {
  openCitation(entry: Entry, n: number): Promise<void>;
  peek(entry: Entry): Promise<void>;
  followUp(entry: Entry, question: string): Promise<void>;
}

export class AnswerPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly entries: Entry[] = [];
  private currentKey: string | undefined;
  private seq = 0;
  private renderTimer: NodeJS.Timeout | undefined;
  /** The last HTML body sent to the webview (read by tests). */
  lastBody = '';

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: PanelHandlers,
    private readonly renderOptions: RenderOptions,
  ) {}

  get all(): readonly Entry[] {
    return this.entries;
  }

  /** The column the panel is in, when it is open. */
  get viewColumn(): vscode.ViewColumn | undefined {
    return this.panel?.viewColumn;
  }

  get current(): Entry | undefined {
    return this.entries.find((e) => e.key === this.currentKey);
  }

  /** The newest entry that has a result, or the one whose server id is id. */
  find(id?: string): Entry | undefined {
    if (id === undefined) {
      return [...this.entries].reverse().find((e) => e.result);
    }
    return this.entries.find((e) => e.key === id || e.result?.id === id);
  }

  /** start adds an entry for a question being asked (in thread, when given) and shows it. */
  start(question: string, thread?: string): Entry {
    const e: Entry = {
      key: `q${++this.seq}`,
      question,
      status: 'asking',
      partial: '',
      progress: [],
      startedAt: Date.now(),
      thread,
    };
    this.entries.push(e);
    this.show(e);
    return e;
  }

  /** add shows a finished result that was not asked here (a code lens's answer). */
  addResult(r: AskResult): Entry {
    const existing = this.entries.find((e) => e.result?.id === r.id);
    if (existing) {
      existing.result = r;
      existing.status = 'done';
      this.show(existing, false);
      return existing;
    }
    const e = this.start(r.question);
    this.finish(e, r);
    return e;
  }

  appendDelta(e: Entry, delta: string): void {
    e.partial += delta;
    this.scheduleRender(e);
  }

  progress(e: Entry, message: string): void {
    if (message && e.progress[e.progress.length - 1] !== message) {
      e.progress.push(message);
      this.scheduleRender(e);
    }
  }

  /**
   * addThread shows a reopened thread: one entry per turn, the newest
   * current. Entries of that thread shown before are replaced by the
   * server's turns (with their citations where the code is now).
   */
  addThread(turns: AskResult[]): Entry | undefined {
    const id = turns[0]?.thread;
    for (let i = this.entries.length - 1; id && i >= 0; i--) {
      const t = this.entries[i].result?.thread || this.entries[i].thread;
      if (t === id && this.entries[i].status !== 'asking') {
        this.entries.splice(i, 1);
      }
    }
    let last: Entry | undefined;
    for (const r of turns) {
      last = {
        key: `q${++this.seq}`,
        question: r.question,
        status: 'done',
        partial: '',
        progress: [],
        startedAt: Date.now(),
        thread: r.thread,
        result: r,
      };
      this.entries.push(last);
    }
    if (last) {
      this.show(last, false);
    }
    return last;
  }

  finish(e: Entry, r: AskResult): void {
    e.result = r;
    if (r.thread) {
      e.thread = r.thread;
    }
    e.status = 'done';
    this.renderNow();
  }

  /** refresh redraws the panel (a citation moved or went stale) without taking focus. */
  refresh(): void {
    this.renderNow();
  }

  fail(e: Entry, status: 'cancelled' | 'error', message?: string): void {
    e.status = status;
    e.error = message;
    this.renderNow();
  }

  show(e: Entry, preserveFocus = true): void {
    this.currentKey = e.key;
    this.reveal(preserveFocus);
    this.renderNow(true);
  }

  reveal(preserveFocus = true): void {
    if (this.panel) {
      this.panel.reveal(this.panel.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus);
      return;
    }
    // Beside the code; with no editor open, in the second column so that
    // the first stays free for the cited code.
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Two;
    const panel = vscode.window.createWebviewPanel(
      'askls.answer',
      'askls: Answer',
      { viewColumn: column, preserveFocus },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [] },
    );
    this.panel = panel;
    panel.onDidDispose(() => {
      this.panel = undefined;
    });
    panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m));
    panel.webview.html = this.shell(panel.webview, this.body());
  }

  private body(): string {
    return renderBody(this.entries, this.current, this.renderOptions);
  }

  private scheduleRender(e: Entry): void {
    if (e.key !== this.currentKey || this.renderTimer) {
      return;
    }
    this.renderTimer = setTimeout(() => {
      this.renderTimer = undefined;
      this.renderNow();
    }, 50);
  }

  /** renderNow sends the body; scroll brings the current entry into view (a thread's newest turn). */
  private renderNow(scroll = false): void {
    if (this.renderTimer) {
      clearTimeout(this.renderTimer);
      this.renderTimer = undefined;
    }
    const body = this.body();
    this.lastBody = body;
    if (this.panel) {
      this.panel.title = this.current ? `askls: ${truncate(this.current.question, 30)}` : 'askls: Answer';
      void this.panel.webview.postMessage({ type: 'render', html: body, scroll });
    }
  }

  private async onMessage(m: FromWebview): Promise<void> {
    try {
      switch (m.type) {
        case 'ready':
          this.renderNow();
          break;
        case 'show': {
          const e = this.entries.find((x) => x.key === m.key);
          if (e) {
            this.show(e);
          }
          break;
        }
        case 'open': {
          const e = this.entries.find((x) => x.key === m.key);
          if (e) {
            await this.handlers.openCitation(e, Number(m.n));
          }
          break;
        }
        case 'followup': {
          const e = this.entries.find((x) => x.key === m.key);
          const q = typeof m.question === 'string' ? m.question.trim() : '';
          if (e && q) {
            await this.handlers.followUp(e, q);
          }
          break;
        }
        case 'peek': {
          const e = this.entries.find((x) => x.key === m.key);
          if (e) {
            await this.handlers.peek(e);
          }
          break;
        }
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`askls: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private shell(webview: vscode.Webview, body: string): string {
    const nonce = Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource} 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
      `img-src ${webview.cspSource} data:`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">${css}</style>
</head><body><main id="root">${body}</main>
<script nonce="${nonce}">${script}</script>
</body></html>`;
  }

  dispose(): void {
    if (this.renderTimer) {
      clearTimeout(this.renderTimer);
    }
    this.panel?.dispose();
  }
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) + '…' : s;
}

const script = `
(function () {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('root');
  // The entry a click is in (a thread shows several), else the current one.
  function key(el) {
    const a = (el && el.closest('article.entry')) || root.querySelector('article.entry:not(.earlier)');
    return a ? a.getAttribute('data-key') : '';
  }
  window.addEventListener('message', function (ev) {
    const m = ev.data;
    if (m && m.type === 'render') {
      root.innerHTML = m.html;
      const cur = root.querySelector('article.entry:not(.earlier)');
      if (m.scroll && cur && root.querySelector('article.earlier')) {
        cur.scrollIntoView({ block: 'start' });
      }
    }
  });
  root.addEventListener('click', function (ev) {
    const t = ev.target.closest('a[data-n]');
    if (t) {
      ev.preventDefault();
      vscode.postMessage({ type: 'open', key: key(t), n: Number(t.getAttribute('data-n')) });
      return;
    }
    const p = ev.target.closest('#peek');
    if (p) {
      vscode.postMessage({ type: 'peek', key: p.getAttribute('data-key') });
    }
  });
  root.addEventListener('change', function (ev) {
    if (ev.target && ev.target.id === 'history') {
      vscode.postMessage({ type: 'show', key: ev.target.value });
    }
  });
  root.addEventListener('submit', function (ev) {
    const f = ev.target.closest('form.followup');
    if (!f) {
      return;
    }
    ev.preventDefault();
    const input = f.querySelector('input');
    const q = input ? input.value.trim() : '';
    if (q) {
      vscode.postMessage({ type: 'followup', key: f.getAttribute('data-key'), question: q });
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
`;

const css = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 12px 24px; line-height: 1.5; }
h2.question { font-size: 1.15em; margin: 0.6em 0 0.3em; }
.toolbar { display: flex; gap: 8px; align-items: center; justify-content: space-between; padding: 6px 0; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
.toolbar select { background: var(--vscode-dropdown-background); color: var(--vscode-dropdown-foreground); border: 1px solid var(--vscode-dropdown-border); max-width: 60vw; }
button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: none; padding: 3px 10px; cursor: pointer; }
button:hover { background: var(--vscode-button-hoverBackground); }
.label { display: inline-block; font-size: 0.85em; padding: 0 6px; border-radius: 3px; margin-right: 4px; background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); }
.label.retrieval { background: var(--vscode-statusBarItem-warningBackground, #b58900); color: var(--vscode-statusBarItem-warningForeground, #fff); }
.label.refused, .label.error { background: var(--vscode-statusBarItem-errorBackground, #c62828); color: var(--vscode-statusBarItem-errorForeground, #fff); }
.label.stale { background: var(--vscode-editorWarning-foreground, #b58900); color: var(--vscode-editor-background, #000); }
.refusal { border-left: 3px solid var(--vscode-editorError-foreground, #c62828); padding: 4px 10px; margin: 8px 0; }
.error { color: var(--vscode-errorForeground); margin: 8px 0; }
.notice { border-left: 3px solid var(--vscode-editorInfo-foreground, #1a85ff); padding: 4px 10px; margin: 8px 0; opacity: 0.9; }
a.cite { text-decoration: none; font-weight: 600; color: var(--vscode-textLink-foreground); }
a.cite.stale, li.citation.stale > a { text-decoration: line-through; opacity: 0.75; }
span.cite.pending { opacity: 0.6; }
.citations ol { padding-left: 1.2em; list-style: none; }
.citations li { margin: 4px 0; }
.citations a { color: var(--vscode-textLink-foreground); text-decoration: none; font-family: var(--vscode-editor-font-family); }
.citations a:hover, a.cite:hover { text-decoration: underline; }
pre, code { font-family: var(--vscode-editor-font-family); }
pre { background: var(--vscode-textCodeBlock-background); padding: 6px 8px; overflow-x: auto; }
pre.excerpt { margin: 2px 0 6px; font-size: 0.9em; max-height: 8em; overflow: hidden; }
details.steps { margin-top: 10px; opacity: 0.85; }
details.steps li { margin: 2px 0; }
.summary, .stats, .ms { opacity: 0.75; font-size: 0.9em; }
.empty { opacity: 0.7; }
article.earlier { opacity: 0.85; border-bottom: 1px solid var(--vscode-panel-border, #8884); padding-bottom: 6px; }
form.followup { display: flex; gap: 6px; margin-top: 14px; }
form.followup input { flex: 1; background: var(--vscode-input-background); color: var(--vscode-input-foreground); border: 1px solid var(--vscode-input-border, transparent); padding: 3px 6px; }
`;
