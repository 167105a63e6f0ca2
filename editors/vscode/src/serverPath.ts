// Finding the askls binary. Pure Node: no vscode import.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const installCommand = 'go install github.com/askls/askls/cmd/askls@latest';

export interface Found {
  path?: string;
  /** Why nothing was found, for the notification. */
  reason?: string;
}

function isExecutable(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) {
      return false;
    }
    if (process.platform === 'win32') {
      return true;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function expandHome(p: string): string {
  if (p === '~' || p.startsWith('~/')) {
    return path.join(os.homedir(), p.slice(1));
  }
  return p;
}

/**
 * findServer returns the askls binary: the setting when it is set (it must
 * then exist: a wrong setting is reported, not silently replaced), otherwise
 * the first `askls` on PATH, then in $GOBIN, $GOPATH/bin and ~/go/bin.
 */
export function findServer(setting: string | undefined, env: NodeJS.ProcessEnv = process.env): Found {
  const exe = process.platform === 'win32' ? 'askls.exe' : 'askls';
  if (setting && setting.trim() !== '') {
    const p = expandHome(setting.trim());
    if (isExecutable(p)) {
      return { path: p };
    }
    return { reason: `askls.serverPath is set to "${setting}", but no executable file is there.` };
  }
  const dirs: string[] = [];
  for (const d of (env.PATH ?? '').split(path.delimiter)) {
    if (d !== '') {
      dirs.push(d);
    }
  }
  if (env.GOBIN) {
    dirs.push(env.GOBIN);
  }
  for (const gp of (env.GOPATH ?? '').split(path.delimiter)) {
    if (gp !== '') {
      dirs.push(path.join(gp, 'bin'));
    }
  }
  dirs.push(path.join(env.HOME ?? os.homedir(), 'go', 'bin'));
  for (const d of dirs) {
    const p = path.join(d, exe);
    if (isExecutable(p)) {
      return { path: p };
    }
  }
  return { reason: 'askls was not found on PATH, in $GOPATH/bin or in ~/go/bin.' };
}
