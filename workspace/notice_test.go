package workspace

import (
	"errors"
	"strings"
	"testing"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
)

func TestNoticeWhileIndexing(t *testing.T) {
	w := New(Options{})
	w.progress = index.Progress{Phase: "index", Done: 40, Total: 100}
	if n := w.Notice(); !strings.Contains(n, "40% of 100 files") || !strings.Contains(n, "still building") {
		t.Errorf("notice while indexing: %q", n)
	}
	w.syncErr = errors.New("disk full")
	if n := w.Notice(); !strings.Contains(n, "disk full") {
		t.Errorf("notice after a failed sync: %q", n)
	}
	w.ready, w.syncErr = true, nil
	if n := w.Notice(); n != "" {
		t.Errorf("notice when ready: %q", n)
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
