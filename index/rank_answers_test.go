package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zeebo/blake3"
)

func firstFiles(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		if !slices.Contains(out, h.Path) {
			out = append(out, h.Path)
		}
	}
	return out
}

// An identifier written as code is what the user means: the file that
// holds maxTokenSize ranks above one that is full of its parts (max,
// token, size).
func TestSearchExactIdentifierBeatsItsParts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_answers.txtar")
	got := firstFiles(search(t, f.ix, "maxTokenSize"))
	if len(got) == 0 || got[0] != "bufio/scan.go" {
		t.Errorf("Search(maxTokenSize) files = %v, want bufio/scan.go first", got)
	}
	// The premise: without the exact-identifier stages, the parts win.
	f.ix.rank.ExactBoost, f.ix.rank.PartWeight, f.ix.rank.ExactMissFactor, f.ix.rank.DefinitionBoost = 1, 1, 1, 1
	if got := firstFiles(search(t, f.ix, "maxTokenSize")); len(got) == 0 || got[0] != "token/size.go" {
		t.Errorf("without the exact stages, files = %v, want token/size.go first (the fixture's premise)", got)
	}
}

// In a question, the function that does the work comes before the type
// declaration of its file, whose doc comment holds more of the words; and
// code comes before the document that explains it.
func TestSearchFunctionsBeforeDeclarationsAndCodeBeforeProse(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_answers.txtar")
	q := "how does the store save the values of a session when the response is written"
	hits := search(t, f.ix, q)
	if len(hits) < 2 || hits[0].Path != "sessions/store.go" || hits[0].Symbol != "Save" {
		t.Fatalf("Search(%q) = %v, want sessions/store.go Save first", q, hits)
	}
	if files := firstFiles(hits); files[0] != "sessions/store.go" || !slices.Contains(files, "docs/sessions.md") {
		t.Errorf("files = %v, want the code first and the document after", files)
	}
	// A question about the documentation does not lower the document.
	docScore := func(q string) float64 {
		for _, h := range search(t, f.ix, q) {
			if h.Path == "docs/sessions.md" {
				return h.Score
			}
		}
		t.Fatalf("Search(%q): docs/sessions.md not found", q)
		return 0
	}
	dq := "where is the documentation of how sessions are saved"
	lowered, plain := docScore(dq), 0.0
	f.ix.rank.ProseFactor = 1
	plain = docScore(dq)
	if lowered != plain {
		t.Errorf("a question about documentation: the document scores %v, %v without ProseFactor; want the same", lowered, plain)
	}
}

// A question asking for an explanation or a reference ranks a package's
// doc comment as it ranks code (Ranking.DeclFactor does not lower it);
// a question about how something works ranks it below the code.
func TestSearchPackageDocForAnExplanation(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_answers.txtar")
	docScore := func(q string) float64 {
		for _, h := range search(t, f.ix, q) {
			if h.Path == "tmpl/doc.go" {
				return h.Score
			}
		}
		t.Fatalf("Search(%q): tmpl/doc.go not found", q)
		return 0
	}
	explain := "is there a reference that explains the template action language: pipelines, range, variables"
	how := "how does the template action language run pipelines, range and variables"
	lowered := [2]float64{docScore(explain), docScore(how)}
	f.ix.rank.DeclFactor = 1
	plain := [2]float64{docScore(explain), docScore(how)}
	if lowered[0] != plain[0] {
		t.Errorf("%q: the package doc scores %v, %v without DeclFactor; want the same", explain, lowered[0], plain[0])
	}
	if lowered[1] >= plain[1] {
		t.Errorf("%q: the package doc scores %v, %v without DeclFactor; want it lowered", how, lowered[1], plain[1])
	}
}

// A question that asks for an overview ("is there…", "what is X for")
// or for documentation puts the package's doc comment first
// (Ranking.DocBoost); the same words asked as "how does…" keep the code
// first.
func TestSearchOverviewQuestionPrefersDocs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_answers.txtar")
	for _, q := range []string{
		"is there a usual way to execute the action language with pipelines, range and variables",
		"what is tmpl for, with its action language, pipelines, range and variables",
	} {
		if hits := search(t, f.ix, q); len(hits) == 0 || hits[0].Path != "tmpl/doc.go" {
			t.Errorf("Search(%q) = %v, want tmpl/doc.go first", q, hits)
		}
	}
	how := "how does the action language execute pipelines, range and variables"
	if hits := search(t, f.ix, how); len(hits) == 0 || hits[0].Path != "tmpl/exec.go" {
		t.Errorf("Search(%q) = %v, want tmpl/exec.go first", how, hits)
	}
}

// An open buffer whose content the generation does not hold (the writer
// has not caught up, or is busy with a first build) is searched as it is.
func TestSearchFindsUnindexedOpenBuffer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_answers.txtar")
	edited := []byte("package bufio\n\n// quokkaRetry retries the quokka handshake.\nfunc quokkaRetry() {}\n")
	s := &Snapshot{ix: f.ix, st: f.ix.Snapshot().st, overlay: map[string][]byte{"bufio/scan.go": edited}}
	hits, err := s.Search(context.Background(), "quokkaRetry", 10, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Path != "bufio/scan.go" || hits[0].Symbol != "quokkaRetry" || hits[0].Start != 3 {
		t.Fatalf("Search(quokkaRetry) over an unindexed buffer = %v, want bufio/scan.go:3 quokkaRetry", hits)
	}
	// The indexed chunks of the old content are gone from the results.
	hits, _ = s.Search(context.Background(), "maxTokenSize", 10, Filter{})
	for _, h := range hits {
		if h.Path == "bufio/scan.go" {
			t.Errorf("a hit on the buffer's old content: %v", h)
		}
	}
	// A buffer the generation holds as it is is searched through bleve
	// only (no second copy).
	orig, _ := f.ix.Snapshot().Content("bufio/scan.go")
	if e := s.st.files["bufio/scan.go"]; e == nil || e.Hash != blake3.Sum256(orig) {
		t.Fatal("fixture: scan.go not indexed as on disk")
	}
	s.overlay = map[string][]byte{"bufio/scan.go": orig}
	hits, _ = s.Search(context.Background(), "maxTokenSize", 10, Filter{})
	n := 0
	for _, h := range hits {
		if h.Path == "bufio/scan.go" && h.Symbol == "grow" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("grow found %d times in %v, want once", n, hits)
	}
}

// Every factor of the default ranking is set: a zero factor would drop
// whole classes of files from every result.
func TestDefaultRankingFactorsAreSet(t *testing.T) {
	t.Parallel()
	rk := DefaultRanking()
	for name, v := range map[string]float64{"SymbolBoost": rk.SymbolBoost, "PathBoost": rk.PathBoost,
		"SymbolBoostProse": rk.SymbolBoostProse, "PathBoostProse": rk.PathBoostProse, "ExactBoost": rk.ExactBoost,
		"PartWeight": rk.PartWeight, "ExactMissFactor": rk.ExactMissFactor, "DefinitionBoost": rk.DefinitionBoost,
		"PhraseBoost": rk.PhraseBoost, "QualifiedBoost": rk.QualifiedBoost, "TestFactor": rk.TestFactor,
		"ProseFactor": rk.ProseFactor, "GeneratedFactor": rk.GeneratedFactor, "DeclFactor": rk.DeclFactor,
		"DeclFileFactor": rk.DeclFileFactor, "CoveragePower": rk.CoveragePower} {
		if v <= 0 {
			t.Errorf("DefaultRanking().%s = %v, want > 0", name, v)
		}
	}
}

// A question about documentation finds the explanation even where code
// that names the topic more often than the explanation does would fill
// every candidate place (a large tree): the prose is asked for on its own.
func TestSearchDocQuestionFindsProseAmongMuchCode(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := range 60 {
		src := fmt.Sprintf("package rcu\n\n// rcuSync%d waits for rcu readers (see the rcu explanation for beginners).\nfunc rcuSync%d() { rcuWait(); rcuWait() }\n", i, i)
		writeTestFile(t, filepath.Join(root, "kernel", "rcu", fmt.Sprintf("sync%d.go", i)), src)
	}
	doc := "What is RCU?\n\n" + strings.Repeat("For the beginner, an explanation: RCU readers and RCU updaters share data without locks.\n", 20) +
		"RCU lets readers run without locks while an updater waits for them.\n"
	writeTestFile(t, filepath.Join(root, "Documentation", "whatis.rst"), doc)
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	q := "Is there an introduction to RCU for a beginner?"
	if files := firstFiles(search(t, f.ix, q)); len(files) == 0 || files[0] != "Documentation/whatis.rst" {
		t.Errorf("Search(%q) files = %v, want Documentation/whatis.rst first", q, files)
	}
}

func writeTestFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
