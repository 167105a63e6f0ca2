package lsp

import (
	"errors"
	"strings"
	"testing"

	"github.com/askls/askls/index"
)

func TestNoticeWhileIndexing(t *testing.T) {
	w := newWorkspace(nil)
	w.progress = index.Progress{Phase: "index", Done: 40, Total: 100}
	if n := w.notice(); !strings.Contains(n, "40% of 100 files") || !strings.Contains(n, "still building") {
		t.Errorf("notice while indexing: %q", n)
	}
	w.syncErr = errors.New("disk full")
	if n := w.notice(); !strings.Contains(n, "disk full") {
		t.Errorf("notice after a failed sync: %q", n)
	}
	w.ready, w.syncErr = true, nil
	if n := w.notice(); n != "" {
		t.Errorf("notice when ready: %q", n)
	}
}

func TestConfigMerge(t *testing.T) {
	c := DefaultConfig()
	got, err := c.merge([]byte(`{"askls":{"citationsAsDiagnostics":true,"maxHops":-1,"logLevel":"loud","exclude":["*.md"]}}`))
	if err == nil || !strings.Contains(err.Error(), "negative") || !strings.Contains(err.Error(), "logLevel") {
		t.Errorf("merge error %v, want negative and logLevel named", err)
	}
	if got.CitationsAsDiagnostics != "always" || got.MaxHops != 0 || got.LogLevel != "info" || len(got.Exclude) != 1 {
		t.Errorf("merged %+v", got)
	}
	if _, err := c.merge([]byte(`[1,2]`)); err == nil {
		t.Error("an array accepted as settings")
	}
	if got, err := c.merge([]byte(`null`)); err != nil || got.CodeLens != c.CodeLens {
		t.Errorf("null settings: %+v %v", got, err)
	}
}
