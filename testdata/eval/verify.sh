#!/usr/bin/env bash
# Verify a question set (JSON Lines) against its source tree.
# Usage: verify.sh SET.jsonl [ROOT]
#   SET.jsonl  a set in this folder, e.g. django.jsonl; its corpus name is the
#              file name without .jsonl, and every line's "corpus" must match it
#   ROOT       the corpus root the paths are relative to. Default: for goroot,
#              $GOROOT_SRC or $(go env GOROOT)/src; for any other set, the
#              root printed by `fetch.sh NAME` (which fetches it if needed)
# Prints one line per failure, then "N passed, M failed" (counted per question
# line, plus one line for each set-wide check that fails). Exits 1 if anything
# failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: verify.sh SET.jsonl [ROOT]" >&2
  exit 2
fi
FILE=$1
if [ ! -f "$FILE" ]; then
  echo "FAIL: input file not found: $FILE"
  echo "0 passed, 1 failed"
  exit 1
fi
NAME=$(basename "$FILE" .jsonl)

if [ $# -eq 2 ]; then
  ROOT=$2
elif [ "$NAME" = goroot ]; then
  ROOT=${GOROOT_SRC:-$(go env GOROOT)/src}
else
  ROOT=$("$HERE/fetch.sh" "$NAME") || { echo "FAIL: could not fetch corpus $NAME"; echo "0 passed, 1 failed"; exit 1; }
fi
if [ ! -d "$ROOT" ]; then
  echo "FAIL: corpus root is not a directory: $ROOT"
  echo "0 passed, 1 failed"
  exit 1
fi

BROAD=0
[ "$(basename "$(dirname "$FILE")")" = broad ] && BROAD=1

python3 - "$FILE" "$ROOT" "$NAME" "$BROAD" <<'PY'
import json, os, sys

path, root, corpus, broad = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
VALID_CATS = {"locate", "how", "trace", "config", "overview", "absent"}
KEYS = ["id", "corpus", "category", "question", "expected", "keywords"]
EXP_KEYS = ["path", "start", "end", "symbol"]
MIN_ABSENT = 5
MIN_ANSWERABLE = 30
if broad:
    # A set of the broad benchmark (broad/NAME.jsonl): one project among
    # many, so fewer questions each; absent questions are optional.
    MIN_ABSENT = 0
    MIN_ANSWERABLE = 18

def excluded(corpus, p):
    """Areas a set must not point into: the goroot set leaves out commands,
    vendored code, test data and tests, as its README says."""
    parts = p.split("/")
    if corpus == "goroot":
        return parts[0] in ("cmd", "vendor") or "testdata" in parts or p.endswith("_test.go")
    return False

passed = failed = 0
seen_ids = {}
file_cache = {}
counts = {}

def read_lines(p):
    if p not in file_cache:
        with open(p, encoding="utf-8", errors="replace") as f:
            file_cache[p] = f.read().split("\n")
            if file_cache[p] and file_cache[p][-1] == "":
                file_cache[p].pop()  # trailing newline does not make an extra line
    return file_cache[p]

def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)

with open(path, encoding="utf-8") as fh:
    for lineno, raw in enumerate(fh, 1):
        if not raw.strip():
            continue
        errs = []
        try:
            o = json.loads(raw)
        except json.JSONDecodeError as e:
            print(f"line {lineno}: invalid JSON: {e}")
            failed += 1
            continue
        qid = o.get("id", f"<line {lineno}>") if isinstance(o, dict) else f"<line {lineno}>"
        if not isinstance(o, dict):
            errs.append("line is not a JSON object")
        else:
            if list(o.keys()) != KEYS:
                errs.append(f"keys must be exactly {KEYS}, got {list(o.keys())}")
            if not isinstance(o.get("id"), str) or not o.get("id"):
                errs.append("missing/empty id")
            elif o["id"] in seen_ids:
                errs.append(f"duplicate id (also on line {seen_ids[o['id']]})")
            else:
                seen_ids[o["id"]] = lineno
            if o.get("corpus") != corpus:
                errs.append(f"corpus must be {corpus!r} (the file's name), got {o.get('corpus')!r}")
            cat = o.get("category")
            if cat not in VALID_CATS:
                errs.append(f"invalid category {cat!r}")
            else:
                counts[cat] = counts.get(cat, 0) + 1
            if not isinstance(o.get("question"), str) or not o["question"].strip():
                errs.append("missing/empty question")
            exp = o.get("expected")
            kws = o.get("keywords")
            if not isinstance(exp, list):
                errs.append("expected must be a list"); exp = []
            if not isinstance(kws, list) or not all(isinstance(k, str) and k for k in kws):
                errs.append("keywords must be a list of non-empty strings"); kws = []
            if cat == "absent":
                if exp or kws:
                    errs.append("absent question must have empty expected and keywords")
            elif cat in VALID_CATS:
                if not 1 <= len(exp) <= 3:
                    errs.append(f"expected must have 1-3 locations, has {len(exp)}")
                if not 2 <= len(kws) <= 4:
                    errs.append(f"keywords must have 2-4 entries, has {len(kws)}")
            for i, e in enumerate(exp):
                tag = f"expected[{i}]"
                if not isinstance(e, dict) or sorted(e.keys()) != sorted(EXP_KEYS):
                    errs.append(f"{tag}: must have exactly keys {EXP_KEYS}")
                    continue
                p, s, en, sym = e["path"], e["start"], e["end"], e["symbol"]
                if not isinstance(p, str) or not p or p.startswith("/") or ".." in p.split("/"):
                    errs.append(f"{tag}: bad relative path {p!r}"); continue
                if excluded(corpus, p):
                    errs.append(f"{tag}: path {p} is in an area the {corpus} set leaves out")
                full = os.path.join(root, p)
                if not os.path.isfile(full):
                    errs.append(f"{tag}: path does not exist: {p}"); continue
                if not (is_int(s) and is_int(en)):
                    errs.append(f"{tag}: start/end must be integers"); continue
                lines = read_lines(full)
                n = len(lines)
                if not (1 <= s <= en <= n):
                    errs.append(f"{tag}: range {s}-{en} not within {p} (1-{n})"); continue
                if not isinstance(sym, str) or not sym:
                    errs.append(f"{tag}: empty symbol"); continue
                if not any(sym in l for l in lines[s - 1:en]):
                    errs.append(f"{tag}: symbol {sym!r} not found in {p}:{s}-{en}")
        if errs:
            failed += 1
            for m in errs:
                print(f"FAIL {qid}: {m}")
        else:
            passed += 1

absent = counts.get("absent", 0)
answerable = sum(counts.values()) - absent
if absent < MIN_ABSENT:
    print(f"FAIL set: {absent} absent questions, want at least {MIN_ABSENT}")
    failed += 1
if answerable < MIN_ANSWERABLE:
    print(f"FAIL set: {answerable} answerable questions, want at least {MIN_ANSWERABLE}")
    failed += 1
print("categories: " + ", ".join(f"{c} {counts[c]}" for c in sorted(counts)))
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
