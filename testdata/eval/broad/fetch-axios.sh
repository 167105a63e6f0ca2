#!/usr/bin/env bash
# Fetch the pinned tree of the axios set: the npm package axios@1.7.9 as its
# tarball ships it. Run by ../fetch.sh with $NAME and $DIR set; prints only the
# corpus root (the unpacked package/ folder) on stdout, progress on stderr.
set -euo pipefail

# shellcheck source=../fetchlib.sh
. "$(dirname "$0")/../fetchlib.sh"

: "${NAME:=axios}"
: "${DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/$NAME}"
fetch_npm axios 1.7.9 \
  'sha512-LhLcE7Hbiryz8oMDdDptSrWowmB4Bl6RCt6sIJKpRB4XtVf0iEgewX3au/pJqm+Py1kCASkb/FFKjxQaLtxJvw==' \
  634e3ed585d7c8857f00cb7556f79422614e8defd008f8bb34b6018c1faefa0f
