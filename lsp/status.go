package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"time"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/workspace"
)

// commandStatus is askls.status [{"notify": bool}?]. Clients that run
// commands from a menu (Helix, VS Code) show nothing of the result, so it
// is also said in a message, unless the caller reads the result itself
// (notify false).
func (s *server) commandStatus(ctx context.Context, args []json.RawMessage) *statusResult {
	st := s.status(ctx)
	var opt struct {
		Notify *bool `json:"notify"`
	}
	if len(args) > 0 {
		_ = json.Unmarshal(args[0], &opt) // anything else: the default
	}
	if opt.Notify == nil || *opt.Notify {
		s.notify(ctx, "window/showMessage", map[string]any{"type": 3, "message": st.summary()})
	}
	return st
}

// statusResult is askls.status's reply (docs/protocol.md). Like every
// reply it is plain JSON that encoding/json reads back: a duration is a
// number with its unit in its name (durationMs), never a time.Duration.
type statusResult struct {
	Index         statusIndex      `json:"index"`
	Workspace     workspace.Status `json:"workspace"`
	Model         agent.Health     `json:"model"`
	Answers       int              `json:"answers"`
	OpenDocuments int              `json:"openDocuments"`
	Config        Config           `json:"config"`
	HeapBytes     uint64           `json:"heapBytes"`
	SysBytes      uint64           `json:"sysBytes"`
}

// statusIndex is index.Stats on the wire.
type statusIndex struct {
	Roots      []string `json:"roots"`
	Files      int      `json:"files"`
	Chunks     int      `json:"chunks"`
	Symbols    int      `json:"symbols"`
	Generation uint64   `json:"generation"`
	DiskBytes  int64    `json:"diskBytes"`
	Ready      bool     `json:"ready"` // the first sync has finished
}

func wireStatusIndex(st index.Stats) statusIndex {
	return statusIndex{Roots: st.Roots, Files: st.Files, Chunks: st.Chunks, Symbols: st.Symbols,
		Generation: st.Generation, DiskBytes: st.DiskBytes, Ready: st.Ready}
}

// summary is the status in one line, for clients that show a message
// rather than the result.
func (st *statusResult) summary() string {
	idx := fmt.Sprintf("%d files indexed", st.Index.Files)
	if !st.Workspace.Ready {
		idx += " (still indexing)"
	}
	model := "no model: answers in retrieval mode"
	if st.Model.Reachable {
		model = "model " + st.Model.Model + " at " + st.Model.Host
		if len(st.Model.Problems) > 0 {
			model += " (" + st.Model.Problems[0] + ")"
		}
	}
	return fmt.Sprintf("askls: %s · %s · %d answers kept, citations shown for the last %d", idx, model, st.Answers, st.Config.KeepCitations)
}

// status is askls.status: index size, generation, model health.
func (s *server) status(ctx context.Context) *statusResult {
	st := &statusResult{
		Workspace:     s.ws.Status(),
		Answers:       s.answers.len(),
		OpenDocuments: len(s.docs.all()),
		Config:        s.config(),
	}
	// The addresses as they are shown: no password, no key parameter.
	st.Config.OllamaHost, st.Config.BaseURL = agent.ShownURL(st.Config.OllamaHost), agent.ShownURL(st.Config.BaseURL)
	if ix := s.ws.Current(); ix != nil {
		st.Index = wireStatusIndex(ix.Stats())
	}
	hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st.Model = s.currentAgent().Health(hctx)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st.HeapBytes, st.SysBytes = ms.HeapAlloc, ms.Sys
	return st
}
