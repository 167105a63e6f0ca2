#!/usr/bin/env bash
# Fetch the pinned tree of the broad set "serdejson" and print its corpus root:
# the serde_json 1.0.87 crate as Debian bookworm ships its sources (package librust-serde-json-dev); the root is the crate folder.
# Run by ../fetch.sh with $NAME and $DIR set; fetch_deb (../fetchlib.sh)
# downloads the exact version with apt-get, checks the .deb's sha256, unpacks
# it into $DIR/pkg and leaves a stamp so that a second run reuses the tree.
set -euo pipefail
DIR=${DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/${NAME:-serdejson}}
# shellcheck source=../fetchlib.sh
. "$(dirname "$0")/../fetchlib.sh"
fetch_deb librust-serde-json-dev 1.0.87-1 \
  2d053de630af6649c40a39d9ab6268d5469385289016a1205d0dec196e7b77d2 \
  usr/share/cargo/registry/serde_json-1.0.87
