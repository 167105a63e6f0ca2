// The askls/ask contract (docs/protocol.md at the repository root), as the
// extension sees it. Positions are LSP positions: 0-based
// lines, UTF-16 columns.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface Location {
  uri: string;
  range: Range;
}

export interface Citation {
  n: number;
  location: Location;
  symbol?: string;
  excerpt?: string;
  stale?: boolean;
  /** blake3 (hex) of the cited lines as cited: askls.locate finds them by it after edits. */
  hash?: string;
}

/** askls.locate's result: where a citation's code is now. */
export interface Located {
  location: Location;
  stale: boolean;
}

export interface Step {
  tool: string;
  args?: unknown;
  summary?: string;
  ms?: number;
}

export interface Stats {
  hops?: number;
  toolCalls?: number;
  promptTokens?: number;
  evalTokens?: number;
  ms?: number;
}

export interface AskResult {
  id: string;
  question: string;
  answer: string;
  citations: Citation[];
  refused: boolean;
  mode: 'model' | 'retrieval';
  model?: string;
  steps?: Step[];
  stats?: Stats;
  /** A note from the server about this answer (e.g. the index was still building). */
  notice?: string;
  /** The thread this answer is the newest turn of, when the question named one. */
  thread?: string;
}

export interface AskParams {
  question: string;
  textDocument?: { uri: string };
  position?: Position;
  workDoneToken?: string;
  partialResultToken?: string;
  /** "new", "last" or a thread id: ask in a thread (a follow-up). */
  thread?: string;
}

/** One thread as askls.threads lists it. */
export interface ThreadSummary {
  id: string;
  title: string;
  turns: number;
  created: string;
  updated: string;
}

/** One turn of a thread as askls.openThread returns it. */
export interface ThreadTurn {
  question: string;
  answer: string;
  mode: 'model' | 'retrieval';
  refused: boolean;
  citations: Citation[];
  at: string;
}

/** A thread as askls.openThread returns it. */
export interface ThreadView {
  id: string;
  title: string;
  created: string;
  updated: string;
  turns: ThreadTurn[];
}

/** The value of a $/progress notification on the partialResultToken. */
export interface AnswerDelta {
  delta: string;
}

export const askMethod = 'askls/ask';
export const showAnswerCommand = 'askls.showAnswer';
export const threadsCommand = 'askls.threads';
export const openThreadCommand = 'askls.openThread';

/** Whether v looks like an askls/ask result (for results of server commands). */
export function isAskResult(v: unknown): v is AskResult {
  if (typeof v !== 'object' || v === null) {
    return false;
  }
  const r = v as Record<string, unknown>;
  return typeof r.answer === 'string' && Array.isArray(r.citations);
}
export const locateCommand = 'askls.locate';
export const clearCitationsCommand = 'askls.clearCitations';
