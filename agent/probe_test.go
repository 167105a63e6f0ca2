package agent

import (
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askls/askls/agent/model"
)

func TestSilentHostFallsBackToRetrievalQuickly(t *testing.T) {
	// Something listens on the port, accepts connections and never
	// answers: without the probe, ask waited for the whole time limit and
	// returned a "model" answer that had searched nothing.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	old := model.ProbeTimeout
	model.ProbeTimeout = 200 * time.Millisecond
	defer func() { model.ProbeTimeout = old }()

	a := testAgent(nil, Config{Host: ln.Addr().String(), Timeout: 20 * time.Second})
	start := time.Now()
	got := ask(t, a, project, "how does sniff guess the content type")
	res := got.res
	if res.Mode != ModeRetrieval || res.Refused || !strings.Contains(res.Notice, "did not answer within 200ms") {
		t.Errorf("mode %q refused %v notice %q", res.Mode, res.Refused, res.Notice)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s: the silent host was waited on", d)
	}
}
