package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"go.lsp.dev/protocol"
)

// progress is one work-done progress ($/progress begin/report/end). A
// progress the client cannot show (no token given, no workDoneProgress
// capability, or create failed) is inactive: its methods do nothing.
type progress struct {
	s      *server
	token  *protocol.ProgressToken
	key    string
	mu     sync.Mutex
	ended  bool
	active bool
}

type progressParams struct {
	Token *protocol.ProgressToken `json:"token"`
	Value any                     `json:"value"`
}

type progressValue struct {
	Kind        string `json:"kind"`
	Title       string `json:"title,omitempty"`
	Message     string `json:"message,omitempty"`
	Percentage  *int   `json:"percentage,omitempty"`
	Cancellable *bool  `json:"cancellable,omitempty"`
}

// beginProgress starts work-done progress on the client's token, or on a
// token created with window/workDoneProgress/create when the client
// supports it. cancel, when not nil, is called if the user cancels it.
func (s *server) beginProgress(ctx context.Context, token *protocol.ProgressToken, title, msg string, cancel context.CancelFunc) *progress {
	p := &progress{s: s}
	if token == nil {
		if !s.capabilities().WorkDoneProgress {
			return p
		}
		s.mu.Lock()
		s.progressSeq++
		token = protocol.NewProgressToken(fmt.Sprintf("askls-%d", s.progressSeq))
		s.mu.Unlock()
		if err := s.call(ctx, "window/workDoneProgress/create", map[string]any{"token": token}, nil); err != nil {
			s.log.Debug("window/workDoneProgress/create failed; no progress shown", "err", err)
			return p
		}
	}
	p.token, p.active = token, true
	b, _ := json.Marshal(token)
	p.key = string(b)
	cancellable := cancel != nil
	if cancellable {
		s.progCancels.Store(p.key, cancel)
	}
	s.notify(ctx, "$/progress", &progressParams{Token: token, Value: progressValue{
		Kind: "begin", Title: title, Message: msg, Cancellable: &cancellable, Percentage: intp(0),
	}})
	return p
}

// report sends a report; pct < 0 leaves the percentage out.
func (p *progress) report(msg string, pct int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.active || p.ended {
		return
	}
	v := progressValue{Kind: "report", Message: msg}
	if pct >= 0 {
		v.Percentage = intp(min(pct, 100))
	}
	p.s.notify(context.Background(), "$/progress", &progressParams{Token: p.token, Value: v})
}

func (p *progress) end(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.active || p.ended {
		return
	}
	p.ended = true
	p.s.progCancels.Delete(p.key)
	p.s.notify(context.Background(), "$/progress", &progressParams{Token: p.token, Value: progressValue{Kind: "end", Message: msg}})
}

func (s *server) cancelProgress(tokenJSON string) {
	if c, ok := s.progCancels.Load(tokenJSON); ok {
		s.log.Info("work cancelled from its progress", "token", tokenJSON)
		c.(context.CancelFunc)()
	}
}

// partial sends a partial result ($/progress on the partialResultToken).
func (s *server) partial(token *protocol.ProgressToken, value any) {
	if token == nil {
		return
	}
	s.notify(context.Background(), "$/progress", &progressParams{Token: token, Value: value})
}

func intp(i int) *int { return &i }
