#!/usr/bin/env bash
# Fetches the pinned trees of the question sets (testdata/eval): Django
# from Debian's archive, express and its dependencies from npm. Cached in
# ${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval; a second run only checks them.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! testdata/eval/fetch.sh django >/dev/null 2>&1; then
  # apt-get download needs the package lists.
  if [ "$(id -u)" = 0 ]; then
    apt-get -o DPkg::Lock::Timeout=300 update -qq
  fi
  testdata/eval/fetch.sh django >/dev/null
fi
testdata/eval/fetch.sh express >/dev/null
echo "eval: django at $(testdata/eval/fetch.sh django)"
echo "eval: express at $(testdata/eval/fetch.sh express)"
