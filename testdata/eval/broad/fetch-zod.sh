#!/usr/bin/env bash
# Fetch the pinned tree of the zod set: the npm package zod@3.25.76 as its
# tarball ships it. Run by ../fetch.sh with $NAME and $DIR set; prints only the
# corpus root (the unpacked package/ folder) on stdout, progress on stderr.
set -euo pipefail

# shellcheck source=../fetchlib.sh
. "$(dirname "$0")/../fetchlib.sh"

: "${NAME:=zod}"
: "${DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/$NAME}"
fetch_npm zod 3.25.76 \
  'sha512-gzUt/qt81nXsFGKIFcC3YnfEAx5NkunCfnDlvuBSSFS02bcXu4Lmea0AFIUwbLWxWPx3d9p8S5QoaujKcNQxcQ==' \
  9e1f1a05f0dd0c1dab64ee91ceb9bf55cd44d35368c70edda80a2fdc70a88377
