package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	bindex "github.com/blevesearch/bleve_index_api"
)

// TestCodeFieldCountsWhatTheAnalyzerEmits checks that the terms a
// codeField indexes are exactly those of the code analyzer that queries
// go through (bleve's own counting of its token stream), on real source:
// this package's files, and words whose stems meet.
func TestCodeFieldCountsWhatTheAnalyzerEmits(t *testing.T) {
	texts := [][]byte{
		[]byte("compares compared compar Compare ConstantTimeCompare comparing"),
		[]byte("ServeHTTP http.ResponseWriter max_file_bytes HTTPServer x1 é_ça"),
		[]byte(""),
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, data)
	}
	for i, text := range texts {
		want := analysis.TokenFrequency(AnalyzeCode(text, nil), nil, bindex.IndexField)
		f := newCodeField(FieldContent, text)
		f.Analyze()
		got := f.AnalyzedTokenFrequencies()
		if len(got) != len(want) {
			t.Fatalf("text %d: %d distinct terms, analyzer %d", i, len(got), len(want))
		}
		total := 0
		for k, w := range want {
			g := got[k]
			if g == nil || g.Frequency() != w.Frequency() || string(g.Term) != k {
				t.Fatalf("text %d: term %q: got %+v, analyzer %d", i, k, g, w.Frequency())
			}
			total += w.Frequency()
		}
		if f.AnalyzedLength() != total {
			t.Fatalf("text %d: length %d, want %d", i, f.AnalyzedLength(), total)
		}
	}
	kw := newKeywordField(FieldPathKW, []byte("net/http/server.go"))
	kw.Analyze()
	if tf := kw.AnalyzedTokenFrequencies()["net/http/server.go"]; tf == nil || tf.Frequency() != 1 || kw.AnalyzedLength() != 1 {
		t.Fatalf("keyword field: %v", kw.AnalyzedTokenFrequencies())
	}
}

// BenchmarkFieldAnalyze counts the terms of net/http's sources, the work
// the sync workers do per chunk before the segment builder:
//
//	go test -run '^$' -bench FieldAnalyze ./index/store/
func BenchmarkFieldAnalyze(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command:", err)
	}
	files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "src", "net", "http", "*.go"))
	var texts [][]byte
	size := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, data)
		size += len(data)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, text := range texts {
			f := newCodeField(FieldContent, text)
			f.Analyze()
		}
	}
}
