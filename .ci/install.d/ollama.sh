#!/usr/bin/env bash
# Builds the real Ollama server (v0.6.5, CPU only, CGO) for the
# TestRealOllama… end-to-end tests. It is a separate binary, never a
# dependency of askls's go.mod. The binary is cached outside the repository
# (ASKLS_OLLAMA_BIN_DIR, default /root/.cache/askls-ci/bin, or
# $HOME/.cache/askls-ci/bin) and the build is skipped when it is present.
# v0.6.5 is the last version whose module zip builds here: later zips lack a
# header their C++ code includes.
set -euo pipefail
version=0.6.5
bindir="${ASKLS_OLLAMA_BIN_DIR:-${HOME:-/root}/.cache/askls-ci/bin}"
bin="$bindir/ollama"
if [ -x "$bin" ] && "$bin" --version 2>&1 | grep -q "$version"; then
  echo "ollama $version already built: $bin"
  exit 0
fi
need=()
command -v g++ >/dev/null || need+=(g++)
[ -e /usr/include/nlohmann/json.hpp ] || need+=(nlohmann-json3-dev)
[ -e /usr/include/stb/stb_image.h ] || need+=(libstb-dev)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    # Other install scripts may run apt at the same time: wait for its lock
    # and try again once.
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${need[@]}" ||
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${need[@]}"
  else
    echo "ollama.sh: missing ${need[*]}; run as root or install them: apt-get install -y ${need[*]}" >&2
    exit 1
  fi
fi
mkdir -p "$bindir"
echo "building ollama $version into $bindir (a few minutes cold)"
# Outside the askls module so that its go.mod is neither read nor touched.
cd /
GOBIN="$bindir" CGO_ENABLED=1 go install \
  -ldflags "-s -w -X github.com/ollama/ollama/version.Version=$version" \
  "github.com/ollama/ollama@v$version"
"$bin" --version 2>&1 | head -2 || true
echo "ollama $version: $bin"
