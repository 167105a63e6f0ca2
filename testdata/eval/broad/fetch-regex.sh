#!/usr/bin/env bash
# Fetch the regex set's tree: the Rust crate regex-syntax 0.6.27 (the parser
# of the regex crate: AST, HIR, Unicode tables) as Debian bookworm packages
# it in librust-regex-syntax-dev. Run by ../fetch.sh with $NAME and $DIR set;
# prints only the corpus root on stdout: the crate folder under
# usr/share/cargo/registry.
set -euo pipefail

DIR=${DIR:?DIR must be set (run through testdata/eval/fetch.sh regex)}
# shellcheck source=../fetchlib.sh
. "$(dirname "$0")/../fetchlib.sh"

fetch_deb librust-regex-syntax-dev 0.6.27-1 \
  16c9879e07d6f9c6b2618906126d17e51ec8b04bced0fe3bb0cf0f3062f8a353 \
  usr/share/cargo/registry/regex-syntax-0.6.27
