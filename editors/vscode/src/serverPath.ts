// Finding the askls binary. Pure Node: no vscode import.
import * as childProcess from 'child_process';
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
 * goEnvDirs asks `go env GOBIN GOPATH` where `go install` puts binaries
 * (GOPATH may be set only in go's own env file, and an editor started from
 * a desktop or a login shell may not have it in its environment). It
 * returns [] when go is not there or does not answer in 5 s.
 */
export function goEnvDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const candidates = ['go', '/usr/local/go/bin/go', path.join(env.HOME ?? os.homedir(), 'go', 'bin', 'go')];
  for (const go of candidates) {
    try {
      const out = childProcess.execFileSync(go, ['env', 'GOBIN', 'GOPATH'], { env, timeout: 5000, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const [gobin = '', gopath = ''] = out.split('\n').map((l) => l.trim());
      const dirs: string[] = [];
      if (gobin !== '') {
        dirs.push(gobin);
      }
      for (const gp of gopath.split(path.delimiter)) {
        if (gp !== '') {
          dirs.push(path.join(gp, 'bin'));
        }
      }
      return dirs;
    } catch {
      // not this one
    }
  }
  return [];
}

/**
 * findServer returns the askls binary: the setting when it is set (it must
 * then exist: a wrong setting is reported, not silently replaced), otherwise
 * the first `askls` on PATH, then in $GOBIN, $GOPATH/bin and ~/go/bin, then
 * in the folders `go env GOBIN GOPATH` names (goEnv, asked only then).
 */
export function findServer(setting: string | undefined, env: NodeJS.ProcessEnv = process.env, goEnv: (env: NodeJS.ProcessEnv) => string[] = goEnvDirs): Found {
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
  const goDirs = goEnv(env).filter((d) => !dirs.includes(d));
  for (const d of goDirs) {
    const p = path.join(d, exe);
    if (isExecutable(p)) {
      return { path: p };
    }
  }
  const where = ['PATH', '$GOBIN', '$GOPATH/bin', '~/go/bin', ...goDirs].join(', ');
  return { reason: `askls was not found (looked on ${where}).` };
}
