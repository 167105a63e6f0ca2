// A small stand-in for the `vscode` module, enough for the real
// vscode-languageclient and the extension to run in plain Node. What the
// extension shows (messages, input boxes, progress, webview content, opened
// editors, decorations, executed commands) is recorded for the tests; input
// boxes answer from a queue. Anything not modelled here is a no-op that
// returns a disposable, so the client's optional features load.
'use strict';
const path = require('path');
const fs = require('fs');
const { URL, pathToFileURL, fileURLToPath } = require('url');

const rec = {
  messages: [], // {level, text, items}
  inputBoxes: [], // options passed to showInputBox
  inputAnswers: [], // what the next showInputBox calls return
  progress: [], // {options, reports, cts}
  panels: [],
  shown: [], // {uri, options}
  decorations: [], // {editor, type, ranges}
  executed: [], // {id, args}
  codeLensProviders: [],
  settings: new Map(),
  statusMessages: [],
};

class Disposable {
  constructor(fn) {
    this._fn = fn;
  }
  static from(...ds) {
    return new Disposable(() => ds.forEach((d) => d && d.dispose && d.dispose()));
  }
  dispose() {
    if (this._fn) this._fn();
    this._fn = undefined;
  }
}

class EventEmitter {
  constructor() {
    this._l = new Set();
    this.event = (listener, thisArg, disposables) => {
      const f = thisArg ? listener.bind(thisArg) : listener;
      this._l.add(f);
      const d = new Disposable(() => this._l.delete(f));
      if (Array.isArray(disposables)) disposables.push(d);
      return d;
    };
  }
  fire(v) {
    for (const l of [...this._l]) l(v);
  }
  dispose() {
    this._l.clear();
  }
}

class CancellationTokenSource {
  constructor() {
    const em = new EventEmitter();
    this._em = em;
    this.token = { isCancellationRequested: false, onCancellationRequested: em.event };
  }
  cancel() {
    if (!this.token.isCancellationRequested) {
      this.token.isCancellationRequested = true;
      this._em.fire(undefined);
    }
  }
  dispose() {}
}

class Uri {
  constructor(scheme, authority, p, query, fragment) {
    this.scheme = scheme;
    this.authority = authority || '';
    this.path = p || '';
    this.query = query || '';
    this.fragment = fragment || '';
  }
  static parse(s) {
    const u = new URL(s);
    return new Uri(u.protocol.replace(/:$/, ''), u.host, decodeURIComponent(u.pathname), u.search.replace(/^\?/, ''), u.hash.replace(/^#/, ''));
  }
  static file(p) {
    return new Uri('file', '', path.resolve(p));
  }
  static joinPath(u, ...parts) {
    return new Uri(u.scheme, u.authority, path.posix.join(u.path, ...parts));
  }
  get fsPath() {
    return this.path;
  }
  with(c) {
    return new Uri(c.scheme ?? this.scheme, c.authority ?? this.authority, c.path ?? this.path, c.query ?? this.query, c.fragment ?? this.fragment);
  }
  toString() {
    if (this.scheme === 'file') return pathToFileURL(this.path).href;
    return `${this.scheme}://${this.authority}${this.path}${this.query ? '?' + this.query : ''}`;
  }
  toJSON() {
    return { scheme: this.scheme, path: this.path, external: this.toString() };
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
  isEqual(o) {
    return o.line === this.line && o.character === this.character;
  }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') {
      this.start = new Position(a, b);
      this.end = new Position(c, d);
    } else {
      this.start = a;
      this.end = b;
    }
  }
  get isEmpty() {
    return this.start.line === this.end.line && this.start.character === this.end.character;
  }
}

class Selection extends Range {
  constructor(a, b, c, d) {
    super(a, b, c, d);
    this.anchor = this.start;
    this.active = this.end;
  }
}

class Location {
  constructor(uri, rangeOrPos) {
    this.uri = uri;
    this.range = rangeOrPos instanceof Position ? new Range(rangeOrPos, rangeOrPos) : rangeOrPos;
  }
}

class ThemeColor {
  constructor(id) {
    this.id = id;
  }
}

class CodeLens {
  constructor(range, command) {
    this.range = range;
    this.command = command;
  }
  get isResolved() {
    return !!this.command;
  }
}

class MarkdownString {
  constructor(value = '') {
    this.value = value;
  }
  appendText(t) {
    this.value += t;
    return this;
  }
  appendMarkdown(t) {
    this.value += t;
    return this;
  }
}

function makeDocument(uri) {
  const text = fs.readFileSync(uri.fsPath, 'utf8');
  const lines = text.split('\n');
  return {
    uri,
    fileName: uri.fsPath,
    languageId: uri.fsPath.endsWith('.go') ? 'go' : 'plaintext',
    version: 1,
    isDirty: false,
    isClosed: false,
    isUntitled: false,
    eol: 1,
    lineCount: lines.length,
    getText(range) {
      if (!range) return text;
      const out = [];
      for (let l = range.start.line; l <= range.end.line; l++) {
        const s = l === range.start.line ? range.start.character : 0;
        const e = l === range.end.line ? range.end.character : lines[l].length;
        out.push(lines[l].slice(s, e));
      }
      return out.join('\n');
    },
    lineAt(l) {
      const n = typeof l === 'number' ? l : l.line;
      return { text: lines[n], lineNumber: n };
    },
    save: async () => true,
  };
}

function makeEditor(doc, viewColumn) {
  const ed = {
    document: doc,
    selection: new Selection(0, 0, 0, 0),
    selections: [],
    viewColumn,
    options: {},
    visibleRanges: [],
    setDecorations(type, ranges) {
      rec.decorations.push({ editor: ed, type, ranges });
    },
    revealRange(range) {
      ed.revealed = range;
    },
  };
  return ed;
}

// A namespace whose unknown members are no-ops: onX → an event, anything
// else → a function returning a disposable.
function namespace(known) {
  return new Proxy(known, {
    get(target, prop) {
      if (prop in target) return target[prop];
      if (typeof prop !== 'string') return undefined;
      if (prop.startsWith('on')) return () => new Disposable();
      return () => new Disposable();
    },
  });
}

const documents = new Map();
function openDocument(uri) {
  const key = uri.toString();
  if (!documents.has(key)) documents.set(key, makeDocument(uri));
  return documents.get(key);
}

const onDidChangeConfiguration = new EventEmitter();
const onDidChangeActiveTextEditor = new EventEmitter();

const workspace = namespace({
  workspaceFolders: [],
  textDocuments: [],
  notebookDocuments: [],
  name: 'test',
  getConfiguration(section) {
    const prefix = section ? section + '.' : '';
    return {
      get(key, dflt) {
        const v = rec.settings.get(prefix + key);
        return v === undefined ? dflt : v;
      },
      has(key) {
        return rec.settings.has(prefix + key);
      },
      inspect() {
        return undefined;
      },
      update: async () => {},
    };
  },
  onDidChangeConfiguration: onDidChangeConfiguration.event,
  asRelativePath(u) {
    const p = typeof u === 'string' ? u : u.fsPath;
    for (const f of workspace.workspaceFolders) {
      const rel = path.relative(f.uri.fsPath, p);
      if (!rel.startsWith('..')) return rel.split(path.sep).join('/');
    }
    return p;
  },
  getWorkspaceFolder(u) {
    return workspace.workspaceFolders.find((f) => !path.relative(f.uri.fsPath, u.fsPath).startsWith('..'));
  },
  async openTextDocument(u) {
    return openDocument(typeof u === 'string' ? Uri.file(u) : u);
  },
  createFileSystemWatcher() {
    return { onDidCreate: () => new Disposable(), onDidChange: () => new Disposable(), onDidDelete: () => new Disposable(), dispose() {} };
  },
  fs: { stat: async () => ({}) },
});

function message(level) {
  return async (text, ...items) => {
    rec.messages.push({ level, text, items: items.filter((i) => typeof i === 'string') });
    return undefined;
  };
}

function outputChannel(name) {
  const lines = [];
  const ch = { name, lines, logLevel: 2, onDidChangeLogLevel: () => new Disposable() };
  for (const m of ['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']) {
    ch[m] = (s) => lines.push(String(s));
  }
  ch.clear = () => (lines.length = 0);
  ch.show = () => {};
  ch.hide = () => {};
  ch.dispose = () => {};
  return ch;
}

const window = namespace({
  activeTextEditor: undefined,
  visibleTextEditors: [],
  onDidChangeActiveTextEditor: onDidChangeActiveTextEditor.event,
  showErrorMessage: message('error'),
  showWarningMessage: message('warning'),
  showInformationMessage: message('info'),
  createOutputChannel: (name) => outputChannel(name),
  async showInputBox(options) {
    rec.inputBoxes.push(options);
    return rec.inputAnswers.shift();
  },
  async withProgress(options, task) {
    const cts = new CancellationTokenSource();
    const entry = { options, reports: [], cts };
    rec.progress.push(entry);
    return task({ report: (v) => entry.reports.push(v) }, cts.token);
  },
  createWebviewPanel(viewType, title, showOptions, options) {
    const onMessage = new EventEmitter();
    const onDispose = new EventEmitter();
    const panel = {
      viewType,
      title,
      viewColumn: typeof showOptions === 'object' ? showOptions.viewColumn : showOptions,
      options,
      posted: [],
      webview: {
        html: '',
        cspSource: 'vscode-webview:',
        options,
        postMessage: async (m) => {
          panel.posted.push(m);
          return true;
        },
        onDidReceiveMessage: onMessage.event,
        asWebviewUri: (u) => u,
      },
      /** send simulates a message from the panel's script. */
      send: (m) => onMessage.fire(m),
      reveal: () => {},
      onDidDispose: onDispose.event,
      onDidChangeViewState: () => new Disposable(),
      dispose: () => onDispose.fire(),
    };
    if (panel.viewColumn === -2) panel.viewColumn = 2;
    rec.panels.push(panel);
    return panel;
  },
  async showTextDocument(doc, options) {
    const d = doc.uri ? doc : openDocument(doc);
    const ed = makeEditor(d, (options && options.viewColumn) || 1);
    if (options && options.selection) ed.selection = new Selection(options.selection.start, options.selection.end);
    rec.shown.push({ uri: d.uri.toString(), options, editor: ed });
    window.activeTextEditor = ed;
    window.visibleTextEditors = [ed];
    onDidChangeActiveTextEditor.fire(ed);
    return ed;
  },
  createTextEditorDecorationType(options) {
    return { key: 'deco' + Math.random(), options, dispose() {} };
  },
  setStatusBarMessage(text) {
    rec.statusMessages.push(text);
    return new Disposable();
  },
  createStatusBarItem() {
    return { show() {}, hide() {}, dispose() {} };
  },
});

const registered = new Map();
const commands = namespace({
  registerCommand(id, fn, thisArg) {
    if (registered.has(id)) throw new Error(`command '${id}' already exists`);
    registered.set(id, thisArg ? fn.bind(thisArg) : fn);
    return new Disposable(() => registered.delete(id));
  },
  async executeCommand(id, ...args) {
    rec.executed.push({ id, args });
    const fn = registered.get(id);
    return fn ? fn(...args) : undefined;
  },
  async getCommands() {
    return [...registered.keys()];
  },
});

const languages = namespace({
  registerCodeLensProvider(selector, provider) {
    rec.codeLensProviders.push({ selector, provider });
    return new Disposable();
  },
  createDiagnosticCollection(name) {
    const m = new Map();
    return {
      name,
      set: (u, d) => (d === undefined ? u.forEach(([k, v]) => m.set(k.toString(), v)) : m.set(u.toString(), d)),
      delete: (u) => m.delete(u.toString()),
      clear: () => m.clear(),
      get: (u) => m.get(u.toString()),
      forEach: (f) => m.forEach((v, k) => f(Uri.parse(k), v)),
      dispose: () => m.clear(),
    };
  },
  match: () => 10,
});

const enums = {
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2, Three: 3 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  TextEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
  OverviewRulerLane: { Left: 1, Center: 2, Right: 4, Full: 7 },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  EndOfLine: { LF: 1, CRLF: 2 },
  UIKind: { Desktop: 1, Web: 2 },
  LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
  TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
  SymbolKind: new Proxy({}, { get: () => 0 }),
  CompletionItemKind: new Proxy({}, { get: () => 0 }),
};

const known = {
  version: '1.91.0',
  Disposable, EventEmitter, CancellationTokenSource, Uri, Position, Range, Selection, Location, ThemeColor, CodeLens, MarkdownString,
  ...enums,
  workspace, window, commands, languages,
  env: namespace({
    language: 'en', appName: 'stub', appRoot: '/', uriScheme: 'vscode', machineId: 'm', sessionId: 's', uiKind: 1,
    clipboard: { writeText: async (t) => (rec.clipboard = t), readText: async () => rec.clipboard || '' },
    openExternal: async () => true,
  }),
  extensions: namespace({ all: [], getExtension: () => undefined }),
  /** Test hooks: not part of vscode. */
  __rec: rec,
  /** __fireConfigurationChange tells listeners that the given keys changed. */
  __fireConfigurationChange(...keys) {
    onDidChangeConfiguration.fire({ affectsConfiguration: (s) => keys.some((k) => k === s || k.startsWith(s + '.')) });
  },
  __uriFromPath: (p) => Uri.file(p),
  __fileURLToPath: fileURLToPath,
};

// Unknown capitalised names (classes the client extends or constructs) are
// plain classes; unknown lowercase names are no-op namespaces.
const generic = new Map();
module.exports = new Proxy(known, {
  get(target, prop) {
    if (prop in target) return target[prop];
    if (typeof prop !== 'string') return undefined;
    if (!generic.has(prop)) {
      if (/^[A-Z]/.test(prop)) {
        generic.set(prop, class {
          constructor(...args) {
            this.args = args;
          }
        });
      } else {
        generic.set(prop, namespace({}));
      }
    }
    return generic.get(prop);
  },
});
