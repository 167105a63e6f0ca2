package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

func (s *server) executeCommand(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}]("workspace/executeCommand", raw)
	if err != nil {
		return nil, err
	}
	switch p.Command {
	case cmdAsk:
		return s.commandAsk(ctx, p.Arguments, release)
	case cmdShowAnswer:
		return s.commandShowAnswer(ctx, p.Arguments, release)
	case cmdReindex:
		s.mu.Lock()
		roots, cfg := rootsOf(s.folders), s.cfg
		s.mu.Unlock()
		s.ws.start(roots, cfg)
		return map[string]any{"started": true, "roots": roots}, nil
	case cmdStatus:
		release()
		return s.status(ctx), nil
	default:
		return nil, invalidParams("workspace/executeCommand: unknown command %q (askls knows %s, %s, %s, %s)",
			p.Command, cmdAsk, cmdShowAnswer, cmdReindex, cmdStatus)
	}
}

// commandShowAnswer is askls.showAnswer [id]: the kept result, also opened
// as markdown where the client can show documents.
func (s *server) commandShowAnswer(ctx context.Context, args []json.RawMessage, release func()) (any, error) {
	var id string
	if len(args) == 0 || json.Unmarshal(args[0], &id) != nil || id == "" {
		return nil, invalidParams("askls.showAnswer: arguments are [id] (a string)")
	}
	a, ok := s.answers.get(id)
	if !ok {
		return nil, invalidParams("askls.showAnswer: no answer %q is kept (only the last %d are)", id, maxAnswers)
	}
	res := s.refreshedResult(a)
	release()
	if ix := s.ws.current(); ix != nil && s.capabilities().ShowDocument {
		s.showAnswer(ctx, ix, res)
	}
	return res, nil
}

// refreshedResult is a kept answer with its citations where they are now.
func (s *server) refreshedResult(a *answer) *askResult {
	s.answers.mu.Lock()
	defer s.answers.mu.Unlock()
	out := *a.result
	out.Citations = make([]wireCitation, 0, len(a.cites))
	for i, c := range a.cites {
		cc := c.anchor.Citation()
		wc := wireCitation{N: cc.N, Symbol: cc.Symbol, Excerpt: cc.Excerpt, Stale: cc.Stale}
		if i < len(a.result.Citations) {
			wc.Location = a.result.Citations[i].Location
		}
		wc.Location.URI = c.uri
		wc.Location.Range = rangeOfCitation(c)
		out.Citations = append(out.Citations, wc)
	}
	return &out
}

// showAnswer writes the answer as markdown with path:line:col citation
// lines and asks the client to open it (window/showDocument; protocol
// v0.12.0 has no method for it, so it goes through the connection's Call).
func (s *server) showAnswer(ctx context.Context, ix *index.Index, res *askResult) {
	path, err := s.writeAnswer(res)
	if err != nil {
		s.log.Warn("could not write the answer file", "err", err)
		return
	}
	var out struct {
		Success bool `json:"success"`
	}
	params := map[string]any{"uri": fileURI(path), "takeFocus": true}
	if err := s.call(context.WithoutCancel(ctx), "window/showDocument", params, &out); err != nil {
		s.log.Info("window/showDocument failed; the answer is in a file", "path", path, "err", err)
		return
	}
	if !out.Success {
		s.log.Info("the client did not show the answer; it is in a file", "path", path)
	}
}

// answerDir is where answers are written as markdown.
func (s *server) answerDir() string {
	if s.opts.AnswerDir != "" {
		return s.opts.AnswerDir
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("askls-answers-%d", os.Getuid()))
}

func (s *server) writeAnswer(res *askResult) (string, error) {
	dir := s.answerDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	path := filepath.Join(dir, "answer-"+safeName(res.ID)+".md")
	if err := os.WriteFile(path, []byte(answerMarkdown(res)), 0o600); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return path, nil
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, s)
}

// answerMarkdown renders an answer for reading in any editor: the answer,
// then one path:line:col line per citation (what `:open` and most
// terminals understand).
func answerMarkdown(res *askResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", res.Question)
	if res.Notice != "" {
		fmt.Fprintf(&b, "> %s\n\n", res.Notice)
	}
	b.WriteString(strings.TrimSpace(res.Answer))
	b.WriteString("\n\n## Citations\n\n")
	if len(res.Citations) == 0 {
		b.WriteString("(none)\n")
	}
	for _, c := range res.Citations {
		path, err := uriPath(string(c.Location.URI))
		if err != nil {
			path = string(c.Location.URI)
		}
		fmt.Fprintf(&b, "[%d] %s:%d:%d", c.N, path, c.Location.Range.Start.Line+1, c.Location.Range.Start.Character+1)
		if c.Symbol != "" {
			fmt.Fprintf(&b, " %s", c.Symbol)
		}
		if c.Stale {
			b.WriteString(" (stale: the cited code changed)")
		}
		b.WriteString("\n")
		if ex := strings.TrimRight(c.Excerpt, "\n"); ex != "" {
			b.WriteString("\n```\n" + ex + "\n```\n\n")
		}
	}
	fmt.Fprintf(&b, "\n---\nmode: %s", res.Mode)
	if res.Model != "" {
		fmt.Fprintf(&b, " (%s)", res.Model)
	}
	fmt.Fprintf(&b, " · %d steps · %d tool calls · %.0f ms · answer %s\n", len(res.Steps), res.Stats.ToolCalls, res.Stats.MS, res.ID)
	return b.String()
}

type statusResult struct {
	Index         index.Stats  `json:"index"`
	Workspace     wsStatus     `json:"workspace"`
	Model         agent.Health `json:"model"`
	Answers       int          `json:"answers"`
	OpenDocuments int          `json:"openDocuments"`
	Config        Config       `json:"config"`
	HeapBytes     uint64       `json:"heapBytes"`
	SysBytes      uint64       `json:"sysBytes"`
}

// status is askls.status: index size, generation, model health.
func (s *server) status(ctx context.Context) *statusResult {
	st := &statusResult{
		Workspace:     s.ws.status(),
		Answers:       s.answers.len(),
		OpenDocuments: len(s.docs.all()),
		Config:        s.config(),
	}
	if ix := s.ws.current(); ix != nil {
		st.Index = ix.Stats()
	}
	hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st.Model = s.currentAgent().Health(hctx)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st.HeapBytes, st.SysBytes = ms.HeapAlloc, ms.Sys
	return st
}

// rangeOfCitation is a citation's current LSP range. Caller holds
// answers.mu.
func rangeOfCitation(c *cite) protocol.Range {
	return citations.Location(c.anchor.Citation(), string(c.uri), c.anchor.Content()).Range
}
