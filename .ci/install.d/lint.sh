#!/usr/bin/env bash
# Installs the linters .ci/lint runs: staticcheck, pinned, built from the Go
# module proxy into ~/.cache/askls-ci/bin, and shellcheck from Debian.
# Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/../.."
STATICCHECK_VERSION=v0.8.2 # staticcheck 2026.1.x; supports Go 1.26
BIN="${ASKLS_CI_BIN:-${HOME:-/root}/.cache/askls-ci/bin}"
mkdir -p "$BIN"

if [ -x "$BIN/staticcheck" ] && "$BIN/staticcheck" -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
  echo "lint: staticcheck $STATICCHECK_VERSION ready in $BIN"
else
  echo "lint: go install honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION into $BIN"
  GOBIN="$BIN" go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
fi

if ! command -v shellcheck >/dev/null; then
  echo "lint: apt-get install shellcheck"
  export DEBIAN_FRONTEND=noninteractive
  # Other parts install at the same time: wait for apt's locks.
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq shellcheck >/dev/null
fi
echo "lint: $(shellcheck --version | sed -n 2p)"
