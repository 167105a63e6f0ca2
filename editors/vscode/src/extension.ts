// The askls extension: starts the askls language server over stdio, asks
// questions with askls/ask, shows answers in a panel beside the code, opens
// and highlights cited code, and shows citations in the peek view. Code
// lenses come from the server (their command askls.showAnswer is forwarded
// here through the client's middleware and opens the answer).
import * as vscode from 'vscode';
import {
  CancellationToken,
  ExecuteCommandSignature,
  LanguageClient,
  LanguageClientOptions,
  ProgressType,
  ResponseError,
  ServerOptions,
  State,
  TransportKind,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressReport,
  WorkDoneProgressEnd,
} from 'vscode-languageclient/node';
import { serverSettings, ServerKey } from './config';
import { AnswerPanel } from './panel';
import {
  askMethod,
  AskParams,
  AskResult,
  AnswerDelta,
  Citation,
  clearCitationsCommand,
  isAskResult,
  Located,
  locateCommand,
  openThreadCommand,
  showAnswerCommand,
  threadsCommand,
  ThreadSummary,
  ThreadView,
} from './protocol';
import { threadOf } from './render';
import type { Entry } from './render';
import { findServer, installCommand } from './serverPath';

const partialType = new ProgressType<AnswerDelta>();

let client: LanguageClient | undefined;
let panel: AnswerPanel | undefined;
let output: vscode.LogOutputChannel | undefined;
let highlight: vscode.TextEditorDecorationType | undefined;
/** The editor column the code is in (citations open there, not over the panel). */
let codeColumn: vscode.ViewColumn = vscode.ViewColumn.One;
let missingShown = false;
/** How many askls.showAnswer / askls.ask commands are running. */
let answerCommandsRunning = 0;

/** What activate returns: used by the tests and by other extensions. */
export interface AsklsApi {
  client(): LanguageClient | undefined;
  panel(): AnswerPanel | undefined;
  ask(question: string): Promise<Entry | undefined>;
}

function settings(): ReturnType<typeof serverSettings> {
  const cfg = vscode.workspace.getConfiguration('askls');
  return serverSettings((k: ServerKey) => cfg.get(k));
}

function displayPath(uri: string): string {
  try {
    const u = vscode.Uri.parse(uri);
    const rel = vscode.workspace.asRelativePath(u, vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1);
    return rel || u.fsPath || uri;
  } catch {
    return uri;
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<AsklsApi> {
  output = vscode.window.createOutputChannel('askls', { log: true });
  highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    borderColor: new vscode.ThemeColor('editor.findMatchHighlightBorder'),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  panel = new AnswerPanel(
    context.extensionUri,
    { openCitation, peek, followUp: async (e, q) => void (await askQuestion(q, threadOf(e))) },
    { displayPath },
  );
  context.subscriptions.push(output, highlight, panel);

  context.subscriptions.push(
    vscode.commands.registerCommand('askls.askQuestion', (question?: string) => askQuestion(question)),
    vscode.commands.registerCommand('askls.followUp', (question?: string) => {
      const e = panel?.current;
      const t = e ? threadOf(e) : undefined;
      if (!t) {
        void vscode.window.showInformationMessage('askls: no answer to follow up on yet. Ask a question first.');
        return undefined;
      }
      return askQuestion(question, t);
    }),
    vscode.commands.registerCommand('askls.reopenThread', (id?: string) => reopenThread(id)),
    vscode.commands.registerCommand('askls.peekCitations', (id?: string) => {
      const e = panel?.find(id);
      if (!e) {
        void vscode.window.showInformationMessage('askls: no answer with citations yet. Ask a question first.');
        return;
      }
      return peek(e);
    }),
    vscode.commands.registerCommand('askls.openAnswers', () => panel?.reveal(false)),
    vscode.commands.registerCommand('askls.restartServer', () => restart()),
    vscode.commands.registerCommand('askls.clear', () => clearCitations()),
    vscode.window.onDidChangeActiveTextEditor((ed) => {
      if (ed && ed.viewColumn !== undefined && ed.viewColumn !== panel?.viewColumn) {
        codeColumn = ed.viewColumn;
      }
    }),
    vscode.workspace.onDidChangeConfiguration((ev) => {
      if (ev.affectsConfiguration('askls.serverPath')) {
        missingShown = false; // a new path deserves a new answer
        void restart();
      } else if (ev.affectsConfiguration('askls') && client && client.state === State.Running) {
        void client.sendNotification('workspace/didChangeConfiguration', { settings: { askls: settings() } });
      }
    }),
    { dispose: () => void client?.stop() },
  );

  await startClient(context);
  return {
    client: () => client,
    panel: () => panel,
    ask: (q: string) => askQuestion(q),
  };
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    await c.stop();
  }
}

let extensionContext: vscode.ExtensionContext | undefined;

async function startClient(context?: vscode.ExtensionContext): Promise<boolean> {
  if (context) {
    extensionContext = context;
  }
  const found = findServer(vscode.workspace.getConfiguration('askls').get<string>('serverPath'));
  if (!found.path) {
    showMissing(found.reason ?? 'askls was not found.');
    return false;
  }
  missingShown = false;
  const serverOptions: ServerOptions = {
    run: { command: found.path, args: ['serve'], transport: TransportKind.stdio },
    debug: { command: found.path, args: ['serve'], transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file' }],
    initializationOptions: settings(),
    outputChannel: output,
    middleware: {
      // For clients that cannot show answers, askls.showAnswer and askls.ask
      // also write the answer as markdown and open it with
      // window/showDocument. Here the panel shows it: while one of those
      // commands runs, its showDocument is answered without opening a tab.
      window: {
        showDocument: async (params, token, next) => {
          if (answerCommandsRunning > 0 && params.uri.endsWith('.md')) {
            output?.appendLine(`askls: answer file ${params.uri} not opened; the panel shows the answer`);
            return { success: true };
          }
          return next(params, token);
        },
      },
      // askls.showAnswer (the command of the server's code lenses) and
      // askls.ask return an answer: show it in the panel. The server's copy
      // is asked for first, so citations made stale by edits show as stale.
      executeCommand: async (command: string, args: unknown[], next: ExecuteCommandSignature) => {
        if (command !== showAnswerCommand && command !== 'askls.ask') {
          return next(command, args);
        }
        const id = typeof args[0] === 'string' ? args[0] : undefined;
        let result: unknown;
        answerCommandsRunning++;
        try {
          result = await next(command, args);
        } catch (err) {
          const local = command === showAnswerCommand ? panel?.find(id) : undefined;
          if (!local) {
            throw err;
          }
          panel?.show(local, false);
          return local.result;
        } finally {
          answerCommandsRunning--;
        }
        if (isAskResult(result)) {
          panel?.addResult(result);
        } else if (command === showAnswerCommand) {
          const local = panel?.find(id);
          if (local) {
            panel?.show(local, false);
          }
        }
        return result;
      },
    },
  };
  client = new LanguageClient('askls', 'askls', serverOptions, clientOptions);
  try {
    await client.start();
    output?.appendLine(`askls: started ${found.path}`);
    return true;
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    output?.appendLine(`askls: could not start ${found.path}: ${msg}`);
    void vscode.window.showErrorMessage(`askls: the language server (${found.path}) did not start: ${msg}`, 'Show Log').then((b) => {
      if (b) output?.show();
    });
    return false;
  }
}

/** clearCitations hides the lenses of every answer (askls.clearCitations); the answers stay in the panel. */
async function clearCitations(): Promise<string[] | undefined> {
  if (!client || client.state !== State.Running) {
    void vscode.window.showErrorMessage('askls: the language server is not running: nothing to clear (askls: Restart the Language Server).');
    return undefined;
  }
  try {
    const r = await client.sendRequest<{ cleared?: string[] }>('workspace/executeCommand', { command: clearCitationsCommand, arguments: [] });
    const cleared = r?.cleared ?? [];
    void vscode.window.showInformationMessage(
      cleared.length > 0 ? `askls: cleared the citations of ${cleared.join(', ')}.` : 'askls: no citations were showing.',
    );
    return cleared;
  } catch (err) {
    void vscode.window.showErrorMessage(`askls: clearing the citations failed: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

async function restart(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop();
    } catch {
      // already stopped
    }
  }
  await startClient(extensionContext);
}

function showMissing(reason: string): void {
  output?.appendLine(`askls: ${reason}`);
  if (missingShown) {
    return;
  }
  missingShown = true;
  void vscode.window
    .showErrorMessage(
      `askls: ${reason} Install it with \`${installCommand}\` (needs Go), or set askls.serverPath.`,
      'Copy Install Command',
      'Open Settings',
    )
    .then((b) => {
      if (b === 'Copy Install Command') {
        void vscode.env.clipboard.writeText(installCommand);
      } else if (b === 'Open Settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'askls.serverPath');
      }
    });
}

/** The selection, as one line, to prefill the question with. */
function selectionText(ed: vscode.TextEditor | undefined): string {
  if (!ed || ed.selection.isEmpty) {
    return '';
  }
  const t = ed.document.getText(ed.selection).replace(/\s+/g, ' ').trim();
  return t.length > 300 ? t.slice(0, 300) : t;
}

function newToken(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * reopenThread shows a thread of this workspace in the answer panel (its
 * turns with their citations where the code is now), picked from a list
 * unless id is given; the follow-up box continues it.
 */
async function reopenThread(id?: string): Promise<Entry | undefined> {
  if (!client || client.state === State.Stopped) {
    if (!(await startClient(extensionContext))) {
      return undefined;
    }
  }
  const c = client!;
  if (!id) {
    const list = await c.sendRequest<ThreadSummary[]>('workspace/executeCommand', { command: threadsCommand, arguments: [] });
    if (!Array.isArray(list) || list.length === 0) {
      void vscode.window.showInformationMessage('askls: no threads in this workspace yet. Ask a question first.');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      list.map((t) => ({ label: t.title, description: `${t.turns} turn${t.turns === 1 ? '' : 's'}`, detail: t.updated, id: t.id })),
      { title: 'askls: Reopen a Thread', placeHolder: 'The first question of each thread, the most recent first' },
    );
    if (!pick) {
      return undefined;
    }
    id = pick.id;
  }
  const th = await c.sendRequest<ThreadView>('workspace/executeCommand', { command: openThreadCommand, arguments: [id] });
  const turns: AskResult[] = (th?.turns ?? []).map((t, i) => ({
    id: `${th.id}-${i + 1}`,
    question: t.question,
    answer: t.answer,
    citations: t.citations ?? [],
    refused: t.refused,
    mode: t.mode,
    thread: th.id,
  }));
  return panel?.addThread(turns);
}

async function askQuestion(given?: string, thread?: string): Promise<Entry | undefined> {
  const ed = vscode.window.activeTextEditor;
  if (ed?.viewColumn !== undefined) {
    codeColumn = ed.viewColumn;
  }
  // No server, no question: say why (again: the user asked for it) before
  // anything is typed.
  if (!client || client.state === State.Stopped) {
    missingShown = false;
    if (!(await startClient(extensionContext))) {
      return undefined;
    }
  }
  let question = typeof given === 'string' ? given : undefined;
  if (question === undefined) {
    const sel = selectionText(ed);
    question = await vscode.window.showInputBox({
      title: 'askls: Ask a Question about the Code',
      prompt: 'Ask about the code in this workspace; the answer cites the code it is based on.',
      placeHolder: 'Where is the configuration read?',
      value: sel,
      ignoreFocusOut: true,
    });
  }
  if (question === undefined || question.trim() === '') {
    return undefined;
  }
  question = question.trim();
  const c = client!;
  const p = panel!;
  const entry = p.start(question, thread);
  // Every question is a turn of a thread: a new one, or the one followed up.
  const params: AskParams = {
    question,
    workDoneToken: newToken('askls-ask'),
    partialResultToken: newToken('askls-answer'),
    thread: thread ?? 'new',
  };
  // The position is context for the question ("what does this do?"); only
  // files inside the workspace can be context.
  if (ed && ed.document.uri.scheme === 'file' && vscode.workspace.getWorkspaceFolder(ed.document.uri)) {
    params.textDocument = { uri: c.code2ProtocolConverter.asUri(ed.document.uri) };
    params.position = { line: ed.selection.active.line, character: ed.selection.active.character };
  }
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'askls', cancellable: true },
    async (progress, token) => {
      progress.report({ message: truncate(question!, 60) });
      const subs = [
        c.onProgress(WorkDoneProgress.type, params.workDoneToken!, (v: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd) => {
          const msg = v.kind === 'begin' ? [v.title, v.message].filter(Boolean).join(': ') : v.message;
          if (msg) {
            progress.report({ message: msg });
            p.progress(entry, msg);
          }
        }),
        c.onProgress(partialType, params.partialResultToken!, (v: AnswerDelta) => {
          if (v && typeof v.delta === 'string') {
            p.appendDelta(entry, v.delta);
          }
        }),
      ];
      try {
        const result = await c.sendRequest<AskResult>(askMethod, params, token as CancellationToken);
        if (!isAskResult(result)) {
          throw new Error('the server sent no answer');
        }
        p.finish(entry, result);
        if (result.mode === 'retrieval') {
          output?.appendLine('askls: answered in retrieval mode (no model was reachable); see `askls doctor`.');
          warnRetrieval(result.notice);
        }
      } catch (err) {
        if (token.isCancellationRequested || (err instanceof ResponseError && err.code === -32800)) {
          p.fail(entry, 'cancelled', 'The question was cancelled.');
        } else {
          const msg = err instanceof Error ? err.message : String(err);
          p.fail(entry, 'error', msg);
          void vscode.window.showErrorMessage(`askls: ${msg}`);
        }
      } finally {
        for (const s of subs) s.dispose();
      }
    },
  );
  return entry;
}

/** The reasons for retrieval mode already shown as a warning this session. */
const retrievalWarned = new Set<string>();

/**
 * warnRetrieval says, once per reason, why no model answered and what to do
 * (the server's notice: "no Ollama server at …: run `ollama serve`"), as a
 * warning where VS Code shows messages; the panel shows it above the answer
 * too.
 */
function warnRetrieval(notice: string | undefined): void {
  if (!notice || retrievalWarned.has(notice)) {
    return;
  }
  retrievalWarned.add(notice);
  // The reason first: a toast shows its first line only.
  void vscode.window.showWarningMessage(`askls: ${notice}. Until a model answers, answers are the ranked evidence (retrieval mode).`);
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) + '…' : s;
}

function toLocation(c: AskResult['citations'][number]): vscode.Location {
  if (client) {
    return client.protocol2CodeConverter.asLocation(c.location);
  }
  const r = c.location.range;
  return new vscode.Location(
    vscode.Uri.parse(c.location.uri),
    new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character),
  );
}

/** The column to open cited code in: where the code was, never over the panel. */
function citationColumn(): vscode.ViewColumn {
  const pc = panel?.viewColumn;
  if (pc !== undefined && pc === codeColumn) {
    return pc === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
  }
  return codeColumn;
}

/**
 * locate asks the server where citation c of entry e is now (askls.locate):
 * a kept answer's anchor, else the nearest lines with the citation's hash.
 * It updates the citation (the panel shows the new line and stale mark)
 * and reports whether it changed; without a server or a hash it keeps it.
 */
async function locate(e: Entry, c: Citation): Promise<boolean> {
  if (!client || client.state !== State.Running || !c.hash) {
    return false;
  }
  const arg: Record<string, unknown> = { location: c.location, hash: c.hash };
  if (e.result?.id) {
    // A kept answer's citation follows its anchor; an id the server does
    // not keep (a reopened thread's turn) falls back to the hash.
    arg.answer = e.result.id;
    arg.n = c.n;
  }
  try {
    const now = await client.sendRequest<Located>('workspace/executeCommand', { command: locateCommand, arguments: [arg] });
    if (!now || !now.location) {
      return false;
    }
    const moved = JSON.stringify(now.location) !== JSON.stringify(c.location) || Boolean(c.stale) !== now.stale;
    c.location = now.location;
    c.stale = now.stale;
    return moved;
  } catch (err) {
    output?.appendLine(`askls: ${locateCommand} failed: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
}

/** openCitation opens the cited code where it is now, beside the panel, and highlights it. */
async function openCitation(e: Entry, n: number): Promise<void> {
  const cite = e.result?.citations.find((c) => c.n === n);
  if (!cite) {
    return;
  }
  if (await locate(e, cite)) {
    panel?.refresh();
  }
  const loc = toLocation(cite);
  const doc = await vscode.workspace.openTextDocument(loc.uri);
  const ed = await vscode.window.showTextDocument(doc, {
    viewColumn: citationColumn(),
    selection: new vscode.Range(loc.range.start, loc.range.start),
    preserveFocus: false,
  });
  ed.revealRange(loc.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  for (const other of vscode.window.visibleTextEditors) {
    if (highlight) other.setDecorations(highlight, []);
  }
  if (highlight) {
    ed.setDecorations(highlight, [loc.range]);
  }
  if (cite.stale) {
    void vscode.window.showWarningMessage(`askls: citation [${n}] is stale: the cited code changed or is gone since the answer; this is where it was.`);
  }
}

/** peek shows all citations of an answer in the peek view, anchored at the first one. */
async function peek(e: Entry): Promise<void> {
  const cites = e.result?.citations ?? [];
  if (cites.length === 0) {
    void vscode.window.showInformationMessage('askls: this answer has no citations.');
    return;
  }
  let moved = false;
  for (const c of cites) {
    moved = (await locate(e, c)) || moved;
  }
  if (moved) {
    panel?.refresh();
  }
  const locs = cites.slice().sort((a, b) => a.n - b.n).map(toLocation);
  const first = locs[0];
  const doc = await vscode.workspace.openTextDocument(first.uri);
  await vscode.window.showTextDocument(doc, { viewColumn: citationColumn(), selection: new vscode.Range(first.range.start, first.range.start) });
  await vscode.commands.executeCommand('editor.action.peekLocations', first.uri, first.range.start, locs, 'peek');
}

