#!/usr/bin/env bash
# Fetches the pinned trees of the question sets (testdata/eval): Django
# from Debian's archive, express and its dependencies from npm, and the
# broad benchmark's twelve projects. Cached in
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
# The broad benchmark's trees (testdata/eval/broad): Debian packages, npm
# packages and Go modules; the JDK's sources come as a zip.
if ! command -v unzip >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq unzip >/dev/null
fi
for set in testdata/eval/broad/*.jsonl; do
  name=$(basename "$set" .jsonl)
  echo "eval: broad/$name at $(testdata/eval/fetch.sh "$name")"
done
