package lsp

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
)

// merge returns a new Config and leaves the one it was called on as it
// was: json.Unmarshal reuses a slice's backing array, so decoding
// "exclude" straight into a copy of c wrote into c.Exclude too (and the
// index was not reopened, the old exclude looking like the new one).
func TestMergeLeavesOldExclude(t *testing.T) {
	c := DefaultConfig()
	c.Exclude = []string{"a.md", "b.md"}
	n, err := c.Merge(json.RawMessage(`{"exclude": ["x.md", "y.md"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Exclude, []string{"a.md", "b.md"}) {
		t.Errorf("merge changed the old exclude to %q", c.Exclude)
	}
	if !slices.Equal(n.Exclude, []string{"x.md", "y.md"}) {
		t.Errorf("new exclude %q", n.Exclude)
	}
	if !c.IndexChanged(n) {
		t.Error("a changed exclude does not reopen the index")
	}
}

// didChangeConfiguration changing exclude while askls.status runs: under
// -race this caught the shared slice (the workspace and status read the
// old settings while merge wrote into them).
func TestConfigChangeDuringStatus(t *testing.T) {
	e, s := captureServer(t, editorSetup{initOpts: map[string]any{
		"ollamaHost": "http://127.0.0.1:1", "exclude": []string{"a.md", "b.md"},
	}})
	e.waitIndexed()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 20 {
			excl := []string{"a.md", "b.md"}
			if i%2 == 0 {
				excl = []string{"x.md", "y.md"}
			}
			// Not e.notify: t.Fatal is for the test's own goroutine.
			if err := e.client.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"askls": map[string]any{"exclude": excl}}}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 20 {
		var st statusResult
		if err := e.command("askls.status", []any{map[string]any{"notify": false}}, &st); err != nil {
			t.Fatal(err)
		}
		_ = s.config().Exclude[0]
	}
	wg.Wait()
	e.sync()
	if got := s.config().Exclude; !slices.Equal(got, []string{"a.md", "b.md"}) {
		t.Errorf("after the last change exclude is %q", got)
	}
}

func TestConfigMerge(t *testing.T) {
	c := DefaultConfig()
	got, err := c.Merge([]byte(`{"askls":{"citationsAsDiagnostics":true,"maxHops":-1,"logLevel":"loud","exclude":["*.md"]}}`))
	if err == nil || !strings.Contains(err.Error(), "negative") || !strings.Contains(err.Error(), "logLevel") {
		t.Errorf("merge error %v, want negative and logLevel named", err)
	}
	if got.CitationsAsDiagnostics != "always" || got.MaxHops != 0 || got.LogLevel != "info" || len(got.Exclude) != 1 {
		t.Errorf("merged %+v", got)
	}
	if _, err := c.Merge([]byte(`[1,2]`)); err == nil {
		t.Error("an array accepted as settings")
	}
	if got, err := c.Merge([]byte(`null`)); err != nil || got.CodeLens != c.CodeLens {
		t.Errorf("null settings: %+v %v", got, err)
	}
}
