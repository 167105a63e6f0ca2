package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/internal/modeltest"
)

func TestDoctor(t *testing.T) {
	f := modeltest.NewOllama(t)
	var out, errb bytes.Buffer
	if err := doctorMain(context.Background(), []string{"--ollama-host", f.URL}, &out, &errb); err != nil {
		t.Fatalf("healthy doctor: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "reachable, version 0.17.4") || !strings.Contains(out.String(), "40960 tokens") || !strings.Contains(out.String(), "all good") {
		t.Errorf("output:\n%s", out.String())
	}

	out.Reset()
	err := doctorMain(context.Background(), []string{"--ollama-host", f.URL, "--model", "llama3.2:1b"}, &out, &errb)
	if err == nil || !strings.Contains(out.String(), "run `ollama pull llama3.2:1b`") {
		t.Errorf("missing model: %v\n%s", err, out.String())
	}

	out.Reset()
	err = doctorMain(context.Background(), []string{"--ollama-host", "127.0.0.1:1", "--json"}, &out, &errb)
	var h map[string]any
	if err == nil || json.Unmarshal(out.Bytes(), &h) != nil || h["reachable"] != false || !strings.Contains(out.String(), "ollama serve") {
		t.Errorf("unreachable: %v\n%s", err, out.String())
	}
}

func TestDoctorOpenAI(t *testing.T) {
	f := modeltest.NewOpenAI(t)
	f.Key = "sk-test-secret-9876"
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("ASKLS_API_KEY", "sk-test-secret-9876")
	var out, errb bytes.Buffer
	if err := doctorMain(context.Background(), []string{"--provider", "openai", "--base-url", f.URL, "--model", "qwen3:4b"}, &out, &errb); err != nil {
		t.Fatalf("healthy doctor: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "openai      "+f.URL+": reachable") || !strings.Contains(out.String(), "model       qwen3:4b: served") || !strings.Contains(out.String(), "all good") {
		t.Errorf("output:\n%s", out.String())
	}

	out.Reset()
	t.Setenv("ASKLS_API_KEY", "sk-wrong-key-5555")
	err := doctorMain(context.Background(), []string{"--provider", "openai", "--base-url", f.URL, "--model", "qwen3:4b", "--json"}, &out, &errb)
	if err == nil || !strings.Contains(out.String(), "refused the API key (HTTP 401)") {
		t.Errorf("bad key: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String()+errb.String(), "sk-wrong-key-5555") || strings.Contains(out.String()+errb.String(), "sk-test-secret") {
		t.Errorf("the key was printed:\n%s%s", out.String(), errb.String())
	}
}

// TestDoctorNamesWhatAnswered: a web server that is not a model server is
// named in one line, whichever provider is configured.
func TestDoctorNamesWhatAnswered(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(404)
		fmt.Fprint(w, modeltest.HTMLPage)
	}))
	defer srv.Close()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--ollama-host", srv.URL}, "the server at " + srv.URL + " is not Ollama: it answered HTTP 404 with an HTML page"},
		{[]string{"--provider", "openai", "--base-url", srv.URL + "/v1", "--model", "m"}, "the server at " + srv.URL + "/v1 is not an OpenAI-compatible API: it answered HTTP 404 with an HTML page"},
	} {
		var out, errb bytes.Buffer
		err := doctorMain(context.Background(), tt.args, &out, &errb)
		if err == nil || !strings.Contains(out.String(), tt.want) || strings.Contains(out.String(), "<") {
			t.Errorf("%v: %v\n%s", tt.args, err, out.String())
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.Contains(line, "is not") && len(line) > 300 {
				t.Errorf("long line: %s", line)
			}
		}
	}
}

// TestDoctorOnASilentServer: a server that accepts connections and never
// answers is reported within the probe timeout (3 s), not the 10 s of a
// whole health check. The bound below is generous; the point is that the
// doctor does not wait for the server.
func TestDoctorOnASilentServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	for _, args := range [][]string{
		{"--ollama-host", ln.Addr().String()},
		{"--provider", "openai", "--base-url", "http://" + ln.Addr().String() + "/v1", "--model", "m"},
	} {
		var out, errb bytes.Buffer
		start := time.Now()
		err := doctorMain(context.Background(), args, &out, &errb)
		took := time.Since(start)
		if err == nil || !strings.Contains(out.String(), "accepted the connection but did not answer within 3s") {
			t.Errorf("%v: %v\n%s", args, err, out.String())
		}
		if took > 8*time.Second {
			t.Errorf("%v: took %s", args, took)
		}
	}
}
