package lsp

import (
	"errors"
	"strings"
	"testing"

	"github.com/askls/askls/agent"
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

func TestAddNoticeReachesTheAnswerText(t *testing.T) {
	res := &agent.Result{Answer: "Retrieval mode: …", Notice: "no model answered"}
	addNotice(res, "index still building (index: 40% of 100 files); answers come from what is indexed so far")
	if !strings.HasPrefix(res.Answer, "> askls: index still building (index: 40% of 100 files)") || !strings.HasSuffix(res.Answer, "Retrieval mode: …") {
		t.Errorf("answer = %q, want the notice first, then the answer", res.Answer)
	}
	if res.Notice != "no model answered; index still building (index: 40% of 100 files); answers come from what is indexed so far" {
		t.Errorf("notice = %q, want the agent's notice, then the server's", res.Notice)
	}

	ready := &agent.Result{Answer: "A [1].", Notice: "x"}
	addNotice(ready, "")
	if ready.Answer != "A [1]." || ready.Notice != "x" {
		t.Errorf("no notice changed the result: %+v", ready)
	}
}
