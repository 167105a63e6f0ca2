// Settings → the options object the server receives as initializationOptions
// and in workspace/didChangeConfiguration. Pure: no vscode import, so it can
// be unit tested. The server keeps the current value of a key that is
// missing, so every key is always sent (a cleared setting sends its default:
// "" and 0 mean "the server's default").

/** The settings of docs/protocol.md, in settings order. */
export const serverKeys = [
  'provider',
  'model',
  'ollamaHost',
  'baseUrl',
  'apiKey',
  'numCtx',
  'maxHops',
  'timeoutSeconds',
  'exclude',
  'maxFileBytes',
  'codeLens',
  'citationsAsDiagnostics',
  'logLevel',
] as const;

export type ServerKey = (typeof serverKeys)[number];

export interface ServerSettings {
  provider: '' | 'ollama' | 'openai';
  model: string;
  ollamaHost: string;
  baseUrl: string;
  apiKey: string;
  numCtx: number;
  maxHops: number;
  timeoutSeconds: number;
  exclude: string[];
  maxFileBytes: number;
  codeLens: boolean;
  citationsAsDiagnostics: 'auto' | 'always' | 'never';
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function count(v: unknown, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.floor(v)) : dflt;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], dflt: T): T {
  return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : dflt;
}

/**
 * serverSettings reads each key with get (for VS Code:
 * workspace.getConfiguration('askls').get) and returns every key, each with
 * the right type: a value of the wrong type becomes the key's default.
 */
export function serverSettings(get: (key: ServerKey) => unknown): ServerSettings {
  const diag = get('citationsAsDiagnostics');
  return {
    provider: oneOf(get('provider'), ['', 'ollama', 'openai'] as const, ''),
    model: str(get('model')),
    ollamaHost: str(get('ollamaHost')),
    baseUrl: str(get('baseUrl')),
    apiKey: str(get('apiKey')),
    numCtx: count(get('numCtx'), 0),
    maxHops: count(get('maxHops'), 0),
    timeoutSeconds: count(get('timeoutSeconds'), 120),
    exclude: Array.isArray(get('exclude')) ? (get('exclude') as unknown[]).filter((s): s is string => typeof s === 'string' && s !== '') : [],
    maxFileBytes: count(get('maxFileBytes'), 0),
    codeLens: typeof get('codeLens') === 'boolean' ? (get('codeLens') as boolean) : true,
    citationsAsDiagnostics:
      typeof diag === 'boolean' ? (diag ? 'always' : 'never') : oneOf(diag, ['auto', 'always', 'never'] as const, 'auto'),
    logLevel: oneOf(get('logLevel'), ['debug', 'info', 'warn', 'error'] as const, 'info'),
  };
}
