package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Code lenses and the diagnostics fallback both show the kept citations
// where they are now (after edits).

func (s *server) codeLens(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		TextDocument docID `json:"textDocument"`
	}]("textDocument/codeLens", raw)
	if err != nil {
		return nil, err
	}
	lenses := []protocol.CodeLens{}
	if !s.config().CodeLens {
		return lenses, nil
	}
	for _, cr := range s.answers.in(canonURI(p.TextDocument.URI), s.config().KeepCitations) {
		lenses = append(lenses, protocol.CodeLens{
			Range: cr.rng,
			Command: &protocol.Command{
				Title:     lensTitle(cr),
				Command:   cmdShowAnswer,
				Arguments: []any{cr.answerID},
			},
		})
	}
	return lenses, nil
}

// lensTitle is "[2] How does the cache expire? — askls": short, because
// editors show it after the cited line's text.
func lensTitle(cr citedRange) string {
	t := fmt.Sprintf("[%d] %s — askls", cr.c.N, shorten(firstLine(cr.question), 60))
	if cr.c.Stale {
		t += " (stale: the cited code changed)"
	}
	return t
}

// firstLine is the first non-empty line of s (a question may hold code).
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// diagnosticsOn reports whether citations are published as Hint
// diagnostics: always, never, or (auto) when lenses are not shown.
func (s *server) diagnosticsOn() bool {
	cfg, caps := s.config(), s.capabilities()
	switch cfg.CitationsAsDiagnostics {
	case "always":
		return true
	case "never":
		return false
	}
	return !caps.CodeLens || !cfg.CodeLens
}

// citationsChanged tells the client that citations in uris (nil: all)
// moved, appeared or went stale.
func (s *server) citationsChanged(ctx context.Context, uris []protocol.DocumentURI) {
	if s.config().CodeLens && s.capabilities().CodeLensRefresh {
		s.refresher().poke()
	}
	if uris == nil {
		uris = s.answers.uris(s.config().KeepCitations)
		s.diagMu.Lock()
		for u := range s.published {
			uris = append(uris, u)
		}
		s.diagMu.Unlock()
	}
	seen := map[protocol.DocumentURI]bool{}
	for _, u := range uris {
		if !seen[u] {
			seen[u] = true
			s.publishDiagnostics(ctx, u)
		}
	}
}

// publishDiagnostics sends the Hint diagnostics for u (or clears them).
func (s *server) publishDiagnostics(ctx context.Context, u protocol.DocumentURI) {
	diags := []protocol.Diagnostic{}
	if s.diagnosticsOn() {
		for _, cr := range s.answers.in(u, s.config().KeepCitations) {
			// Pickers show the code in a narrow column: the answer's
			// label ("q3"), not its id; the id is in data.
			msg := fmt.Sprintf("[%d] %s", cr.c.N, shorten(firstLine(cr.question), 60))
			if cr.c.Stale {
				msg += " (stale: the cited code changed)"
			}
			diags = append(diags, protocol.Diagnostic{
				Range: cr.rng, Severity: protocol.DiagnosticSeverityHint, Source: "askls", Message: msg,
				Code: cr.label, Data: map[string]string{"answer": cr.answerID},
			})
		}
	}
	s.diagMu.Lock()
	had := s.published[u]
	if len(diags) > 0 {
		s.published[u] = true
	} else {
		delete(s.published, u)
	}
	s.diagMu.Unlock()
	if len(diags) == 0 && !had {
		return
	}
	uri := u
	if doc, ok := s.docs.get(u); ok {
		uri = doc.uri
	}
	s.notify(ctx, "textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: diags})
}

// lensRefresher sends workspace/codeLens/refresh (a request: protocol
// v0.12.0 has it only on the Server interface, so it goes through Call),
// coalescing bursts of edits into at most one refresh per interval.
type lensRefresher struct {
	s    *server
	kick chan struct{}
}

func (s *server) refresher() *lensRefresher {
	s.refreshOnce.Do(func() {
		s.lensRefresh = &lensRefresher{s: s, kick: make(chan struct{}, 1)}
		go s.lensRefresh.run()
	})
	return s.lensRefresh
}

func (r *lensRefresher) poke() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

func (r *lensRefresher) run() {
	for {
		select {
		case <-r.s.done:
			return
		case <-r.kick:
		}
		if err := r.s.call(context.Background(), "workspace/codeLens/refresh", nil, nil); err != nil {
			r.s.log.Debug("workspace/codeLens/refresh failed", "err", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
