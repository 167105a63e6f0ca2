// The property test reads whole trees: too slow under the race detector
// (CI runs ./agent/ with -race too).

//go:build !race

package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askls/askls/index"
)

// evalRoot is the tree a question set of testdata/eval is about: GOROOT's
// src for goroot, else the root given in $ASKLS_EVAL_ROOTS
// ("express=/path,django=/path"); "" when it is not here.
func evalRoot(t *testing.T, corpus string) string {
	if corpus == "goroot" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return ""
		}
		return filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	for _, kv := range strings.Split(os.Getenv("ASKLS_EVAL_ROOTS"), ",") {
		if name, root, ok := strings.Cut(kv, "="); ok && name == corpus {
			return root
		}
	}
	return ""
}

// Every label of every retrieval answer to every question of every set in
// testdata/eval whose tree is here is true (checkResult: each [n] names
// one citation, each entry's place and code are its citation's), and so
// are the follow-ups "who calls that?", "where is it used?" and "which
// types implement it?" asked after each question, with numbers unique in their thread. The index of
// a tree is the askls cache's (built once, cold the first time).
func TestEveryAnswerOfTheEvalSetsHasTrueLabels(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the eval sets' trees")
	}
	sets, _ := filepath.Glob("../testdata/eval/*.jsonl")
	broad, _ := filepath.Glob("../testdata/eval/broad/*.jsonl")
	for _, set := range append(sets, broad...) {
		qs := readEvalQuestions(t, set)
		if len(qs) == 0 {
			continue
		}
		t.Run(filepath.Base(set), func(t *testing.T) {
			root := evalRoot(t, qs[0].Corpus)
			if root == "" {
				t.Skipf("no tree for %s here (give it in ASKLS_EVAL_ROOTS)", qs[0].Corpus)
			}
			ctx := context.Background()
			ix, err := index.Open(ctx, index.Options{Roots: []string{root}, CacheDir: os.Getenv("ASKLS_CACHE_DIR")}) // the commands read it; the index does not
			if err != nil {
				t.Skipf("index of %s: %v", root, err)
			}
			defer ix.Close()
			if _, err := ix.Sync(ctx); err != nil {
				t.Skipf("index of %s: %v", root, err)
			}
			snap := ix.Snapshot()
			for _, q := range qs {
				askThreadChecked(t, snap, q.Question, "who calls that?", "where is it used?", "which types implement it?")
			}
		})
	}
}

type evalQuestion struct {
	ID       string `json:"id"`
	Corpus   string `json:"corpus"`
	Question string `json:"question"`
}

func readEvalQuestions(t *testing.T, p string) []evalQuestion {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []evalQuestion
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var q evalQuestion
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, q)
	}
	return out
}
