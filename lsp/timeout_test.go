package lsp

import (
	"net"
	"sync"
	"testing"

	"github.com/askls/askls/agent"
)

// silentServer accepts connections and never answers; it counts them.
type silentServer struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startSilentServer(t *testing.T) *silentServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &silentServer{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.conns {
			c.Close()
		}
	})
	return s
}

func (s *silentServer) accepted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// TestTimeoutZeroAsksNoModel: timeoutSeconds 0 means no time for the
// model: the answer is in retrieval mode and the model server, one that
// never answers, is not contacted (it was waited on for two minutes).
func TestTimeoutZeroAsksNoModel(t *testing.T) {
	silent := startSilentServer(t)
	e := startEditor(t, editorSetup{opts: Options{Agent: agent.Config{KeepAlive: "1m"}}, initOpts: map[string]any{
		"ollamaHost": "http://" + silent.ln.Addr().String(), "timeoutSeconds": 0,
	}})
	e.waitIndexed()
	res, err := e.ask(map[string]any{"question": "A shop with a cache whose entries expire"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != "retrieval" {
		t.Errorf("mode %q, want retrieval", res.Mode)
	}
	if n := silent.accepted(); n != 0 {
		t.Errorf("the model server was contacted %d times", n)
	}
}
