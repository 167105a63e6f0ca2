package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/lsp/answerdoc"
	"github.com/askls/askls/workspace"
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
	case cmdClearCitations:
		return s.commandClearCitations(ctx, p.Arguments)
	case cmdLocate:
		return s.commandLocate(ctx, p.Arguments, release)
	case cmdReindex:
		s.startWorkspace()
		return map[string]any{"started": true, "roots": s.ws.Roots()}, nil
	case cmdStatus:
		release()
		return s.commandStatus(ctx, p.Arguments), nil
	case cmdThreads:
		release()
		return s.commandThreads(ctx, p.Arguments)
	case cmdOpenThread:
		return s.commandOpenThread(ctx, p.Arguments, release)
	case cmdDeleteThread:
		release()
		return s.commandDeleteThread(p.Arguments)
	default:
		return nil, invalidParams("workspace/executeCommand: unknown command %q (askls knows %s)",
			p.Command, strings.Join(commands, ", "))
	}
}

// cmdClearCitations hides the lenses and hint diagnostics of one answer
// (by id or label) or, without an argument, of every answer. The answers
// themselves stay available to askls.showAnswer.
const cmdClearCitations = "askls.clearCitations"

// commandClearCitations is askls.clearCitations [id?].
func (s *server) commandClearCitations(ctx context.Context, args []json.RawMessage) (any, error) {
	key, err := optionalString(args, 0)
	if err != nil {
		return nil, invalidParams("askls.clearCitations: arguments are [id?] (an answer id or label like \"q3\"): %v", err)
	}
	cleared, found := s.answers.clear(key, s.config().KeepCitations)
	if !found {
		return nil, invalidParams("askls.clearCitations: no answer %q is kept (only the last %d are)", key, maxAnswers)
	}
	s.citationsChanged(ctx, nil)
	if cleared == nil {
		cleared = []string{}
	}
	return map[string]any{"cleared": cleared}, nil
}

// optionalString is args[i] as a string; "" when it is missing or null.
func optionalString(args []json.RawMessage, i int) (string, error) {
	if len(args) <= i || string(args[i]) == "null" {
		return "", nil
	}
	var v string
	if err := json.Unmarshal(args[i], &v); err != nil {
		return "", fmt.Errorf("argument %d: want a string, got %s", i+1, args[i])
	}
	return v, nil
}

// commandShowAnswer is askls.showAnswer [id?, {"show": bool}?]: the kept
// answer (the newest when id is missing) with its citations where they are
// now. It also opens the answer as markdown where the client can show
// documents, unless show is false (a client that only wants the current
// Locations).
func (s *server) commandShowAnswer(ctx context.Context, args []json.RawMessage, release func()) (any, error) {
	key, err := optionalString(args, 0)
	if err != nil {
		return nil, invalidParams("askls.showAnswer: arguments are [id?, {\"show\": bool}?]: %v", err)
	}
	show := true
	if len(args) > 1 && string(args[1]) != "null" {
		var opt struct {
			Show *bool `json:"show"`
		}
		if err := json.Unmarshal(args[1], &opt); err != nil {
			return nil, invalidParams("askls.showAnswer: the second argument must be {\"show\": bool}: %v", err)
		}
		if opt.Show != nil {
			show = *opt.Show
		}
	}
	var a *answer
	var ok bool
	if key == "" {
		if a, ok = s.answers.last(); !ok {
			return nil, invalidParams("askls.showAnswer: no answer yet: ask a question first")
		}
	} else if a, ok = s.answers.find(key); !ok {
		return nil, invalidParams("askls.showAnswer: no answer %q is kept (only the last %d are)", key, maxAnswers)
	}
	res := s.refreshedResult(a)
	release()
	if show && s.capabilities().ShowDocument {
		s.openAnswer(ctx, res, true)
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
		cc := c.Now()
		wc := wireCitation{N: cc.N, Symbol: cc.Symbol, Excerpt: cc.Excerpt, Stale: cc.Stale, Hash: c.Hash}
		if i < len(a.result.Citations) {
			wc.Location = a.result.Citations[i].Location
		}
		wc.Location.URI = c.uri
		wc.Location.Range = citationLocation(cc, string(c.uri), c.Anchor.Content()).Range
		out.Citations = append(out.Citations, wc)
	}
	return &out
}

// answerArrived delivers the answer of askls.ask, which clients without a
// view of their own (Helix) run. It never opens the answer: opening moves
// such a client's focus and leaves its insert mode, and the server cannot
// know what the person is doing (a key pressed, a picker open, a mode
// entered send it nothing), so keys meant for their file would land in
// the answer. A message says it arrived and how to open it (askls.showAnswer,
// which the person runs when they want it: Helix's space i a).
func (s *server) answerArrived(ctx context.Context, res *askResult) {
	what := fmt.Sprintf("askls: answer %s to %q: %d citations", s.labelOf(res.ID), shorten(firstLine(res.Question), 50), len(res.Citations))
	if s.capabilities().ShowDocument {
		what += "; space i a (askls.showAnswer) opens it"
	}
	kind := 3 // info
	if res.Mode == agent.ModeRetrieval && res.Notice != "" {
		// No model answered: say why and what to do where the person
		// looks (the notice names the fix, e.g. "run `ollama serve`").
		what += "; retrieval mode: " + shorten(res.Notice, 200)
		kind = 2 // warning
	}
	// What the index said about the roots (a refused root: "askls does
	// not index / …"): Helix's status line shows it for an instant when the
	// index opens, then the indexing progress replaces it.
	if ix := s.ws.Current(); ix != nil {
		for _, n := range ix.Notices() {
			if !strings.Contains(what, n) && !strings.Contains(res.Answer, n) {
				what += "; " + n
				kind = 2
			}
		}
	}
	s.notify(ctx, "window/showMessage", map[string]any{"type": kind, "message": what})
}

// labelOf is the label ("q3") of a kept answer, or its id.
func (s *server) labelOf(id string) string {
	if a, ok := s.answers.find(id); ok {
		return a.label
	}
	return id
}

// openAnswer writes the answer as markdown with path:line:col citation
// lines and asks the client to open it (window/showDocument; protocol
// v0.12.0 has no method for it, so it goes through the connection's Call).
// It reports whether the client showed it.
func (s *server) openAnswer(ctx context.Context, res *askResult, takeFocus bool) bool {
	md := s.answerMarkdown(res)
	if res.Thread != "" {
		md += s.earlierTurnsMarkdown(ctx, res.Thread)
	}
	path, err := s.answerFiles.Write(res.ID, md)
	if err != nil {
		s.log.Warn("could not write the answer file", "err", err)
		return false
	}
	var out struct {
		Success bool `json:"success"`
	}
	params := map[string]any{"uri": workspace.FileURI(path), "takeFocus": takeFocus}
	if err := s.call(context.WithoutCancel(ctx), "window/showDocument", params, &out); err != nil {
		s.log.Info("window/showDocument failed; the answer is in a file", "path", path, "err", err)
		return false
	}
	if !out.Success {
		s.log.Info("the client did not show the answer; it is in a file", "path", path)
	}
	return out.Success
}

// relPath is abs relative to the workspace folder holding it (what a
// client started in that folder opens), else abs.
func (s *server) relPath(abs string) string {
	s.mu.Lock()
	folders := s.folders
	s.mu.Unlock()
	for _, f := range folders {
		if rel, err := filepath.Rel(f.path, abs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return abs
}

// answerMarkdown is res as its document shows it.
func (s *server) answerMarkdown(res *askResult) string {
	return answerdoc.AnswerMarkdown(answerdoc.Answer{
		ID: res.ID, Label: s.labelOf(res.ID), Question: res.Question, Answer: res.Answer, Notice: res.Notice,
		Mode: res.Mode, Model: res.Model, Steps: len(res.Steps), ToolCalls: res.Stats.ToolCalls, MS: res.Stats.MS,
		Citations: s.docCitations(res.Citations),
	})
}

// docCitations are citations as a document shows them: "[n]
// path:line:col", the path relative to its workspace folder, in a form
// editors' go-to-file follows.
func (s *server) docCitations(cs []wireCitation) []answerdoc.Citation {
	out := make([]answerdoc.Citation, len(cs))
	for i, c := range cs {
		path, err := workspace.URIPath(string(c.Location.URI))
		if err != nil {
			path = string(c.Location.URI)
		} else {
			path = s.relPath(path)
		}
		start := c.Location.Range.Start
		out[i] = answerdoc.Citation{N: c.N, Path: path, Line: int(start.Line) + 1, Col: int(start.Character) + 1,
			Symbol: c.Symbol, Excerpt: c.Excerpt, Stale: c.Stale}
	}
	return out
}
