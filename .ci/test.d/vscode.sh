#!/usr/bin/env bash
# Tests of the VS Code extension (editors/vscode):
#   unit    node --test: answer rendering, citation links, settings, finding askls
#   stdio   the real askls binary over stdio with vscode-jsonrpc (and a fake Ollama)
#   stub    the bundled extension with the real vscode-languageclient and a
#           stubbed vscode module, against the askls binary
#   build   the .vsix (vsce package, no network)
#   vscode  a real VS Code: code-server with the .vsix, driven by playwright-core
#           in headless chromium (test/e2e/codeserver.test.js, and the key
#           tries of test/e2e/keys.test.js); screenshots in
#           editors/vscode/test-artifacts/
# Needs `bash .ci/install.d/vscode.sh` first (npm packages, chromium, code-server).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
EXT=$ROOT/editors/vscode
require_all=${ASKLS_REQUIRE_ALL:-0}

if [ ! -d "$EXT/node_modules" ]; then
  if [ "$require_all" = 1 ]; then
    echo "vscode: editors/vscode/node_modules is missing: run .ci/install.d/vscode.sh" >&2
    exit 1
  fi
  echo "vscode: SKIP: editors/vscode/node_modules is missing (run .ci/install.d/vscode.sh)"
  exit 0
fi

WORK=$(mktemp -d /tmp/askls-vscode-ci.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "vscode: building askls"
go build -o "$WORK/askls" ./cmd/askls
export ASKLS_BIN=$WORK/askls

cd "$EXT"
echo "vscode: build and unit tests"
npm run --silent build
timeout 300 node --test test/unit/

echo "vscode: stdio tests and the stubbed-vscode extension tests against the askls binary"
timeout 600 node --test test/integration/

echo "vscode: package"
VSIX=$(node scripts/package.mjs | tail -1)
test -s "$VSIX"
echo "vscode: packaged $VSIX"

# codeserver.test.js, then keys.test.js (ASKLS_VSCODE_TRIES tries of the
# keys that ask and open an answer, default 30), one code-server at a time.
echo "vscode: code-server end-to-end tests"
ASKLS_VSIX=$VSIX timeout 1800 node --test --test-concurrency=1 test/e2e/
