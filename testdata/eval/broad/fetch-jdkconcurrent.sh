#!/usr/bin/env bash
# Fetch the jdkconcurrent set's tree: java.util.concurrent (with its atomic/
# and locks/ packages) from the JDK 17 sources Debian bookworm ships in
# openjdk-17-source. Run by ../fetch.sh with $NAME and $DIR set; prints only
# the corpus root on stdout: $DIR/src/java.base/java/util/concurrent, so the
# set's paths read ThreadPoolExecutor.java, locks/ReentrantLock.java.
set -euo pipefail

VERSION=17.0.19+10-1~deb12u2
SHA256=2591b37131025f872f057be99467b45f7fa2aed928c8d779208db9c3239e1190
SUB=java.base/java/util/concurrent

DIR=${DIR:?DIR must be set (run through testdata/eval/fetch.sh jdkconcurrent)}
# shellcheck source=../fetchlib.sh
. "$(dirname "$0")/../fetchlib.sh"

zipdir=$(fetch_deb openjdk-17-source "$VERSION" "$SHA256" usr/lib/jvm/openjdk-17/lib)
DIR=$(cd "$DIR" && pwd)
stamp="$DIR/.unzipped" want="openjdk-17-source=$VERSION $SUB"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$DIR/src/$SUB" ]; then
  echo "$DIR/src/$SUB"
  exit 0
fi
command -v unzip >/dev/null || { echo "fetch-jdkconcurrent.sh: unzip not found (apt-get install unzip)" >&2; exit 1; }
[ -f "$zipdir/src.zip" ] || { echo "fetch-jdkconcurrent.sh: $zipdir/src.zip not found in the package" >&2; exit 1; }
echo "fetch-jdkconcurrent.sh: unzipping $SUB from src.zip" >&2
rm -rf "$DIR/src" "$stamp"
unzip -q "$zipdir/src.zip" "$SUB/*" -d "$DIR/src"
echo "$want" >"$stamp"
echo "$DIR/src/$SUB"
