package modeltest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Server is a fake model server. Change its exported fields before the
// requests that should see them.
type Server struct {
	URL string // the base: http://127.0.0.1:PORT (Ollama) or …/v1 (OpenAI)

	// Models maps a model name to its capabilities ("tools", …).
	Models map[string][]string
	// CtxLen is the context length /api/show reports.
	CtxLen int
	// Prompt and Eval are the token counts each turn reports.
	Prompt, Eval int
	// Version is what /api/version answers.
	Version string
	// Key, when set, is the bearer token the OpenAI fake demands.
	Key string

	// Started gets a value when a chat request arrives; Cancelled when a
	// held or blocked stream saw its client go away.
	Started   chan struct{}
	Cancelled chan struct{}

	t        testing.TB
	srv      *httptest.Server
	mu       sync.Mutex
	script   []Turn
	requests []*Request
	hold     chan struct{}
}

func newServer(t testing.TB, turns []Turn) *Server {
	return &Server{
		Models:    map[string][]string{"qwen3:4b": {"completion", "tools", "thinking"}, "tiny:latest": {"completion"}},
		CtxLen:    40960,
		Prompt:    900,
		Eval:      60,
		Version:   "0.17.4",
		Started:   make(chan struct{}, 64),
		Cancelled: make(chan struct{}, 64),
		t:         t,
		script:    turns,
		hold:      make(chan struct{}),
	}
}

func (s *Server) start(mux *http.ServeMux, path string) {
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + path
	s.t.Cleanup(func() {
		s.Release()
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Push appends turns to the script.
func (s *Server) Push(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, turns...)
}

// Requests returns the chat requests received so far.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

// Release lets every held stream go on (and the ones held later).
func (s *Server) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.hold:
	default:
		close(s.hold)
	}
}

// next records req and returns its turn; ok is false when the script is
// used up (the request is then answered 500 and the test fails).
func (s *Server) next(req *Request) (Turn, bool) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	if len(s.script) == 0 {
		n := len(s.requests)
		s.mu.Unlock()
		s.t.Errorf("fake model server: request %d has no script left", n)
		return nil, false
	}
	turn := s.script[0]
	s.script = s.script[1:]
	s.mu.Unlock()
	select {
	case s.Started <- struct{}{}:
	default:
	}
	return turn, true
}

// wait holds a stream until Release or the client leaves; false when the
// client left.
func (s *Server) wait(r *http.Request) bool {
	s.mu.Lock()
	hold := s.hold
	s.mu.Unlock()
	select {
	case <-hold:
		return true
	case <-r.Context().Done():
		s.Cancelled <- struct{}{}
		return false
	}
}

// cutShort ends a streamed reply that the script cuts short: the
// connection dropped (Die) or held until the client goes away (Block).
func (s *Server) cutShort(w http.ResponseWriter, r *http.Request, rep Reply) bool {
	switch {
	case rep.Die:
		s.die(w)
	case rep.Block:
		s.block(r)
	default:
		return false
	}
	return true
}

// block waits until the client goes away.
func (s *Server) block(r *http.Request) {
	select {
	case <-r.Context().Done():
		s.Cancelled <- struct{}{}
	case <-time.After(20 * time.Second):
		s.t.Error("fake model server: the client never closed the stream")
	}
}

// die drops the connection without ending the stream.
func (s *Server) die(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		s.t.Error("fake model server: cannot hijack")
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	_ = buf.Flush()
	_ = conn.Close()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// record keeps a request the script does not answer (a refused one).
func (s *Server) record(req *Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
}

// counts returns the token counts each turn reports.
func (s *Server) counts() (prompt, eval int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Prompt, s.Eval
}

// writeError answers a scripted error status: Body as is, else the
// server's own error shape (shape turns the message into it).
func writeError(w http.ResponseWriter, rep Reply, shape func(msg string) any) {
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	if rep.Body != "" {
		writeRaw(w, rep)
		return
	}
	writeJSON(w, rep.Status, shape(rep.Error))
}

// writeRaw answers a scripted error with a raw body (an HTML page, …).
func writeRaw(w http.ResponseWriter, rep Reply) {
	ct := rep.ContentType
	if ct == "" {
		ct = "text/html; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(rep.Status)
	_, _ = w.Write([]byte(rep.Body))
}

// HTMLPage is a web server's error page, for "is not Ollama" tests.
const HTMLPage = "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n"
