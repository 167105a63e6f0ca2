package main

// End-to-end tests of askls through a real Ollama server (v0.6.5) and
// scripted models (internal/ollamatest). They run the real askls main():
// this test binary re-executes itself as askls (see init below), so
// `askls ask --json`, `askls doctor` and `askls serve` are the real
// commands, with a real index of a fixture tree. Without the Ollama binary
// they skip; with ASKLS_REQUIRE_ALL=1 (CI) they fail instead.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/lspclient"
	"github.com/askls/askls/internal/ollamatest"
	"go.lsp.dev/jsonrpc2"
)

// The test binary becomes askls when this variable is set.
const asAsklsEnv = "ASKLS_TEST_RUN_MAIN"

func init() {
	if os.Getenv(asAsklsEnv) == "1" {
		main()
		os.Exit(0)
	}
}

// askls runs the askls command with args against the Ollama server s.
func askls(t *testing.T, s *ollamatest.Server, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = asklsEnv(t, s)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("askls %v: timed out\nstderr: %s", args, errb.String())
	}
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("askls %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

func asklsEnv(t *testing.T, s *ollamatest.Server) []string {
	env := append(os.Environ(), asAsklsEnv+"=1", "ASKLS_CACHE_DIR="+t.TempDir())
	if s != nil {
		env = append(env, "OLLAMA_HOST="+s.URL)
	}
	return env
}

// askResult is `askls ask --json`'s output.
type askResult struct {
	Answer    string `json:"answer"`
	Refused   bool   `json:"refused"`
	Mode      string `json:"mode"`
	Model     string `json:"model"`
	Notice    string `json:"notice"`
	Citations []struct {
		N          int    `json:"n"`
		Path       string `json:"path"`
		Start, End int
		Excerpt    string `json:"excerpt"`
		Stale      bool   `json:"stale"`
	} `json:"citations"`
	Steps []struct {
		Tool    string         `json:"tool"`
		Args    map[string]any `json:"args"`
		Summary string         `json:"summary"`
	} `json:"steps"`
	Stats struct {
		Hops, ToolCalls, PromptTokens, EvalTokens int
		MS                                        float64
	} `json:"stats"`
}

func askJSON(t *testing.T, s *ollamatest.Server, root, model string, extra ...string) askResult {
	t.Helper()
	args := append([]string{"ask", "--json", "--root", root, "--model", model}, extra...)
	args = append(args, "How does Retry back off between attempts?")
	out, errOut, code := askls(t, s, root, args...)
	if code != 0 {
		t.Fatalf("askls ask exited %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	var r askResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("askls ask --json printed no JSON (%v):\n%s\nstderr: %s", err, out, errOut)
	}
	t.Logf("askls ask: mode=%s refused=%v hops=%d toolCalls=%d promptTokens=%d evalTokens=%d ms=%.0f\nanswer: %s",
		r.Mode, r.Refused, r.Stats.Hops, r.Stats.ToolCalls, r.Stats.PromptTokens, r.Stats.EvalTokens, r.Stats.MS, r.Answer)
	return r
}

// checkCitations fails the test for any citation that is not the exact
// text of lines of a file of the fixture, or whose number is not in the
// answer; it returns the numbers the answer cites.
func checkCitations(t *testing.T, root string, r askResult) {
	t.Helper()
	for _, c := range r.Citations {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Path)))
		if err != nil {
			t.Errorf("citation [%d] names %q: %v", c.N, c.Path, err)
			continue
		}
		lines := strings.Split(string(b), "\n")
		if c.Start < 1 || c.End < c.Start || c.End > len(lines) {
			t.Errorf("citation [%d] %s:%d-%d is outside the file (%d lines)", c.N, c.Path, c.Start, c.End, len(lines))
			continue
		}
		want := strings.Join(lines[c.Start-1:c.End], "\n")
		if strings.TrimSpace(c.Excerpt) != "" && !strings.Contains(want, strings.TrimSpace(firstLine(c.Excerpt))) {
			t.Errorf("citation [%d] excerpt %q is not in %s:%d-%d", c.N, c.Excerpt, c.Path, c.Start, c.End)
		}
		if !strings.Contains(r.Answer, fmt.Sprintf("[%d]", c.N)) && !regexp.MustCompile(fmt.Sprintf(`\[[0-9, ]*\b%d\b[0-9, ]*\]`, c.N)).MatchString(r.Answer) {
			t.Errorf("citation [%d] is not cited in the answer %q", c.N, r.Answer)
		}
	}
	// Every [n] in the answer has its citation. A bracket right after a
	// word, a closing parenthesis or a quote is an index expression
	// (write[2], f()[0]), which the rewriter leaves as text, as it does
	// inside code spans; so is a bracket escaped with a backslash
	// (write\[2], Markdown for a literal bracket).
	have := map[int]bool{}
	for _, c := range r.Citations {
		have[c.N] = true
	}
	prose := regexp.MustCompile("`[^`]*`").ReplaceAllString(r.Answer, "")
	for _, m := range regexp.MustCompile(`(?:^|[^A-Za-z0-9_)"'\\])\[(\d+)\]`).FindAllStringSubmatch(prose, -1) {
		n, _ := strconv.Atoi(m[1])
		if !have[n] {
			t.Errorf("the answer cites [%d], which is not among its citations", n)
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// create builds a scripted model and creates it on s.
func create(t *testing.T, s *ollamatest.Server, name string, script ollamatest.Script) *ollamatest.Model {
	t.Helper()
	m, err := ollamatest.Build(script)
	if err != nil {
		t.Fatal(err)
	}
	s.MustCreate(t, name, m)
	return m
}

func call(name string, args map[string]any) ollamatest.ToolCall {
	return ollamatest.ToolCall{Name: name, Args: args}
}

// The good path: search (one hit: evidence [1]), read retry.go's Retry
// (evidence [2]), answer citing both.
var searchReadAnswer = ollamatest.Script{Turns: []ollamatest.Turn{
	{Calls: []ollamatest.ToolCall{call("search_code", map[string]any{"query": "Retry backoff delay", "limit": 1})}},
	{Calls: []ollamatest.ToolCall{call("read_file", map[string]any{"path": "retry/retry.go", "start_line": 9, "end_line": 25})}},
	{Text: "Retry waits after each failed attempt and doubles the delay every time [2]; the search found it first [1]."},
}}

func TestRealOllamaAskSearchesReadsAndCites(t *testing.T) {
	s := ollamatest.Start(t)
	create(t, s, "askls-good", searchReadAnswer)
	root := ollamatest.Fixture(t, "retry")

	r := askJSON(t, s, root, "askls-good")
	if r.Mode != "model" || r.Refused {
		t.Fatalf("mode %s refused %v notice %q; want a model answer", r.Mode, r.Refused, r.Notice)
	}
	if len(r.Steps) != 2 || r.Steps[0].Tool != "search_code" || r.Steps[1].Tool != "read_file" {
		t.Fatalf("steps = %+v, want search_code then read_file", r.Steps)
	}
	if r.Stats.Hops != 3 || r.Stats.ToolCalls != 2 || r.Stats.PromptTokens == 0 || r.Stats.EvalTokens == 0 {
		t.Errorf("stats = %+v", r.Stats)
	}
	checkCitations(t, root, r)
	if len(r.Citations) != 2 {
		t.Fatalf("citations = %+v, want 2", r.Citations)
	}
	read := r.Citations[0]
	if read.Path != "retry/retry.go" || read.Start != 9 || read.End != 25 {
		t.Errorf("citation [1] = %s:%d-%d, want the lines read: retry/retry.go:9-25", read.Path, read.Start, read.End)
	}
	if !strings.Contains(r.Answer, "doubles the delay") {
		t.Errorf("answer %q is not the scripted one", r.Answer)
	}

	// The terminal form: the answer, then path:line:col citation lines.
	out, errOut, code := askls(t, s, root, "ask", "--root", root, "--model", "askls-good", "How does Retry back off?")
	if code != 0 || !regexp.MustCompile(`(?m)^\[1\] retry/retry\.go:9:1`).MatchString(out) {
		t.Errorf("askls ask (text) exited %d:\n%s\nstderr: %s", code, out, errOut)
	}
}

func TestRealOllamaAskDropsCitationsOfEvidenceNeverRead(t *testing.T) {
	s := ollamatest.Start(t)
	create(t, s, "askls-liar", ollamatest.Script{Turns: []ollamatest.Turn{
		{Calls: []ollamatest.ToolCall{call("read_file", map[string]any{"path": "retry/retry.go", "start_line": 9, "end_line": 12})}},
		{Text: "Retry doubles its delay [1]. Ping also retries [7], see [server/server.go:6] and [retry/retry.go:20]."},
	}})
	root := ollamatest.Fixture(t, "retry")
	r := askJSON(t, s, root, "askls-liar")
	checkCitations(t, root, r)
	if r.Refused || len(r.Citations) != 1 || r.Citations[0].Path != "retry/retry.go" || r.Citations[0].Start != 9 {
		t.Fatalf("citations %+v refused %v; want only the lines read", r.Citations, r.Refused)
	}
	for _, bad := range []string{"[7]", "server/server.go:6", "retry/retry.go:20"} {
		if strings.Contains(r.Answer, bad) {
			t.Errorf("the answer still cites %s, which was never read: %q", bad, r.Answer)
		}
	}
}

func TestRealOllamaAskStopsALoopingModelWithItsBudget(t *testing.T) {
	s := ollamatest.Start(t)
	create(t, s, "askls-loop", ollamatest.Script{Repeat: true, Turns: []ollamatest.Turn{
		{Calls: []ollamatest.ToolCall{call("grep", map[string]any{"pattern": "delay"})}},
	}})
	root := ollamatest.Fixture(t, "retry")
	start := time.Now()
	r := askJSON(t, s, root, "askls-loop", "--max-hops", "4")
	t.Logf("a looping model stopped after %s", time.Since(start).Round(time.Millisecond))
	if r.Stats.Hops != 5 { // 4 turns with tools, then one told to answer
		t.Errorf("hops = %d, want 4 with tools + 1 final", r.Stats.Hops)
	}
	if len(r.Steps) != 4 || !strings.Contains(r.Steps[1].Summary, "repeat") {
		t.Errorf("steps = %+v, want 4 grep calls, the later ones not run again", r.Steps)
	}
	if !r.Refused {
		t.Errorf("a model that never answered gave %q, want a refusal", r.Answer)
	}
	checkCitations(t, root, r)
}

// endless searches once, then writes an answer that never ends.
var endless = ollamatest.Script{Endless: true, Turns: []ollamatest.Turn{
	{Calls: []ollamatest.ToolCall{call("search_code", map[string]any{"query": "Retry", "limit": 1})}},
	{Text: "Retry backs off [1] and "},
}}

func TestRealOllamaAskTimeLimitEndsAnEndlessAnswer(t *testing.T) {
	s := ollamatest.Start(t)
	create(t, s, "askls-endless", endless)
	root := ollamatest.Fixture(t, "retry")
	start := time.Now()
	r := askJSON(t, s, root, "askls-endless", "--timeout", "4s")
	took := time.Since(start)
	t.Logf("an endless answer was ended after %s", took.Round(time.Millisecond))
	if took > 30*time.Second {
		t.Errorf("askls ask --timeout 4s took %s", took)
	}
	if !strings.Contains(r.Notice, "time limit") {
		t.Errorf("notice %q, want the time limit named", r.Notice)
	}
	checkCitations(t, root, r)
}

func TestRealOllamaNoToolsModelDoctorAndAskSayWhatToDo(t *testing.T) {
	s := ollamatest.Start(t)
	m, err := ollamatest.Build(searchReadAnswer)
	if err != nil {
		t.Fatal(err)
	}
	s.MustCreate(t, "askls-notools", m.NoTools())
	root := ollamatest.Fixture(t, "retry")

	out, errOut, code := askls(t, s, root, "doctor", "--model", "askls-notools")
	t.Logf("askls doctor:\n%s", out)
	if code != 1 || !strings.Contains(out, "not supported") || !strings.Contains(out, "ollama pull") {
		t.Errorf("doctor exited %d, want 1 and advice with `ollama pull`:\n%s\n%s", code, out, errOut)
	}
	r := askJSON(t, s, root, "askls-notools")
	if r.Mode != "retrieval" || !strings.Contains(r.Notice, "cannot call tools") || !strings.Contains(r.Notice, "ollama pull") {
		t.Errorf("mode %s notice %q: want retrieval mode saying the model cannot call tools and what to pull", r.Mode, r.Notice)
	}
	checkCitations(t, root, r)

	// The editor sees the same through askls.status.
	c := startLSP(t, s, root)
	c.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": "file://" + root, "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"model": "askls-notools", "ollamaHost": s.URL},
	}, nil)
	c.notify("initialized", map[string]any{})
	var status struct {
		Model struct {
			Reachable, ModelPresent, Tools bool
			Problems                       []string
		} `json:"model"`
	}
	c.call("workspace/executeCommand", map[string]any{"command": "askls.status", "arguments": []any{}}, &status)
	h := status.Model
	if !h.Reachable || !h.ModelPresent || h.Tools || len(h.Problems) == 0 || !strings.Contains(h.Problems[0], "ollama pull") {
		t.Errorf("askls.status model health = %+v, want reachable, present, no tools, and the pull to run", h)
	}
	if code := c.exit(); code != 0 {
		t.Errorf("askls serve exited %d after shutdown and exit", code)
	}
}

func TestRealOllamaMissingModelDoctorAndAskSayWhatToDo(t *testing.T) {
	s := ollamatest.Start(t)
	root := ollamatest.Fixture(t, "retry")
	out, errOut, code := askls(t, s, root, "doctor", "--model", "askls-missing")
	t.Logf("askls doctor:\n%s", out)
	if code != 1 || !strings.Contains(out, "ollama pull askls-missing") {
		t.Errorf("doctor exited %d, want 1 and `ollama pull askls-missing`:\n%s\n%s", code, out, errOut)
	}
	r := askJSON(t, s, root, "askls-missing")
	if r.Mode != "retrieval" || !strings.Contains(r.Notice, "ollama pull askls-missing") {
		t.Errorf("mode %s notice %q: want retrieval mode and `ollama pull askls-missing`", r.Mode, r.Notice)
	}
	checkCitations(t, root, r)

	// And the doctor is content with a good model.
	create(t, s, "askls-good", searchReadAnswer)
	if out, _, code := askls(t, s, root, "doctor", "--model", "askls-good", "--num-ctx", "8192"); code != 0 {
		t.Errorf("doctor on a good model exited %d:\n%s", code, out)
	}
}

// Models with random weights (biased towards the script's pieces, so the
// noise holds tool calls and [n] markers) must never crash askls or leave
// an invalid citation.
func TestRealOllamaRandomModelNeverCrashesOrCitesBadly(t *testing.T) {
	s := ollamatest.Start(t)
	root := ollamatest.Fixture(t, "retry")
	for seed := int64(1); seed <= 3; seed++ {
		m, err := ollamatest.Random(searchReadAnswer, seed)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("askls-random-%d", seed)
		s.MustCreate(t, name, m)
		r := askJSON(t, s, root, name, "--max-hops", "3")
		checkCitations(t, root, r)
		if !r.Refused && r.Mode != "retrieval" {
			// Noise that happens to cite evidence it did read passes the
			// citation check; askls cannot tell it from prose. What must
			// hold is that every citation is real.
			if len(r.Citations) == 0 {
				t.Errorf("seed %d: an answer that is neither a refusal nor retrieval, without citations: %q", seed, r.Answer)
			}
			t.Logf("seed %d: the noise was kept as an answer with %d valid citation(s)", seed, len(r.Citations))
		}
	}
}

// --- the language server ---

// startLSP starts `askls serve` (this test binary as askls) in root,
// against the Ollama server s.
func startLSP(t *testing.T, s *ollamatest.Server, root string) *serveProcess {
	cmd := exec.Command(os.Args[0], "serve", "--log-level", "debug")
	cmd.Dir = root
	cmd.Env = asklsEnv(t, s)
	return startServe(t, cmd)
}

// progressOf matches a $/progress whose params contain substr.
func progressOf(substr string) func(lspclient.Message) bool {
	return lspclient.IsMethod("$/progress", func(p json.RawMessage) bool { return strings.Contains(string(p), substr) })
}

func TestRealOllamaLanguageServerCancelsWhileTheModelAnswers(t *testing.T) {
	s := ollamatest.Start(t)
	create(t, s, "askls-endless", endless)
	root := ollamatest.Fixture(t, "retry")
	c := startLSP(t, s, root)
	host, answering := answerTap(t, s)
	c.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": "file://" + root,
		"capabilities":          map[string]any{"window": map[string]any{"workDoneProgress": true}},
		"initializationOptions": map[string]any{"model": "askls-endless", "ollamaHost": host, "numCtx": 8192},
	}, nil)
	c.notify("initialized", map[string]any{})
	c.waitIndexed()

	ask, err := c.client.Request("askls/ask", map[string]any{"question": "How does Retry back off?", "workDoneToken": "ask-2"})
	if err != nil {
		t.Fatal(err)
	}
	// The step report says the tool ran; then the model has the request
	// to write the answer, which never ends.
	c.waitFor("the search_code step", progressOf("search_code"))
	select {
	case <-answering:
	case <-time.After(lspclient.DefaultPatience):
		t.Fatal("the model was never asked to answer")
	}
	cancelled := time.Now()
	c.notify("$/cancelRequest", map[string]any{"id": ask})
	r := c.waitFor("the reply to the cancelled ask", lspclient.IsReply(ask))
	t.Logf("cancelled ask replied after %s: %v", time.Since(cancelled).Round(time.Millisecond), r.Err)
	if e, ok := r.Err.(*jsonrpc2.Error); !ok || e.Code != -32800 {
		t.Fatalf("cancelled ask replied %v, want error -32800", r)
	}

	// Ollama stopped generating: the model (one request at a time) answers
	// a new request at once instead of after the 100,000 tokens.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	t0 := time.Now()
	code, body, err := s.Post(ctx, "/api/chat", map[string]any{"model": "askls-endless", "stream": false,
		"messages": []map[string]any{{"role": "user", "content": "hi"}}, "options": map[string]any{"num_ctx": 8192}})
	if err != nil || code != http.StatusOK {
		t.Fatalf("the model is still busy after the cancel: %v %d %s", err, code, body)
	}
	t.Logf("a second request to that model served in %s", time.Since(t0).Round(time.Millisecond))
	if code := c.exit(); code != 0 {
		t.Errorf("askls serve exited %d after shutdown and exit", code)
	}
}

// answerTap forwards to the Ollama server s and sends on answering each
// time a chat request that carries a tool's result (the model is asked to
// go on after a tool ran) has been written to s in full.
func answerTap(t *testing.T, s *ollamatest.Server) (host string, answering <-chan struct{}) {
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan struct{}, 64)
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1
	rp.Transport = tapTransport{answering: ch}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv.URL, ch
}

type tapTransport struct{ answering chan<- struct{} }

func (tt tapTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path != "/api/chat" || r.Body == nil {
		return http.DefaultTransport.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	r = r.Clone(r.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	if bytes.Contains(body, []byte(`"role":"tool"`)) {
		r = r.WithContext(httptrace.WithClientTrace(r.Context(), &httptrace.ClientTrace{
			WroteRequest: func(info httptrace.WroteRequestInfo) {
				if info.Err == nil {
					tt.answering <- struct{}{}
				}
			},
		}))
	}
	return http.DefaultTransport.RoundTrip(r)
}

// --- the real-server round trip, measured ---

// modelMetrics sums what Ollama reports in the last chunk of each /api/chat
// response that passes through a metering proxy.
type modelMetrics struct {
	mu                              sync.Mutex
	turns, promptTokens, evalTokens int
	total, load, promptEval, eval   time.Duration
}

func (m *modelMetrics) add(line []byte) {
	var r struct {
		Done               bool          `json:"done"`
		PromptEvalCount    int           `json:"prompt_eval_count"`
		EvalCount          int           `json:"eval_count"`
		TotalDuration      time.Duration `json:"total_duration"`
		LoadDuration       time.Duration `json:"load_duration"`
		PromptEvalDuration time.Duration `json:"prompt_eval_duration"`
		EvalDuration       time.Duration `json:"eval_duration"`
	}
	if json.Unmarshal(line, &r) != nil || !r.Done {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.turns++
	m.promptTokens += r.PromptEvalCount
	m.evalTokens += r.EvalCount
	m.total += r.TotalDuration
	m.load += r.LoadDuration
	m.promptEval += r.PromptEvalDuration
	m.eval += r.EvalDuration
}

// meteringProxy forwards to the Ollama server s and records the metrics of
// every chat response.
func meteringProxy(t testing.TB, s *ollamatest.Server, m *modelMetrics) string {
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1
	rp.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.URL.Path == "/api/chat" {
			resp.Body = &lineTap{rc: resp.Body, fn: m.add}
		}
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv.URL
}

// lineTap passes a body through and calls fn with each complete line.
type lineTap struct {
	rc  io.ReadCloser
	fn  func([]byte)
	buf []byte
}

func (l *lineTap) Read(p []byte) (int, error) {
	n, err := l.rc.Read(p)
	l.buf = append(l.buf, p[:n]...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.fn(l.buf[:i])
		l.buf = l.buf[i+1:]
	}
	if err == io.EOF && len(l.buf) > 0 {
		l.fn(l.buf)
		l.buf = nil
	}
	return n, err
}

func (l *lineTap) Close() error { return l.rc.Close() }

// BenchmarkRealOllamaAsk answers the search-read-answer script through the
// real server, in process, and splits the time of one question into what
// Ollama reports (model-ms/op: its total_duration summed over the turns)
// and askls's own cost (askls-ms/hop: the rest, per model turn: tools,
// citation checks, HTTP and JSON on loopback, the metering proxy included).
// The baseline, measured in the same run, is the same question answered in
// retrieval mode (retrieval-ms/op).
//
//	go test -run '^$' -bench RealOllama -benchtime 20x ./cmd/askls/
func BenchmarkRealOllamaAsk(b *testing.B) {
	s := ollamatest.Start(b)
	m, err := ollamatest.Build(searchReadAnswer)
	if err != nil {
		b.Fatal(err)
	}
	s.MustCreate(b, "askls-good", m)
	root := b.TempDir()
	if err := ollamatest.WriteFixture(root, "retry"); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	ix, err := index.Open(ctx, index.Options{Roots: []string{root}, CacheDir: b.TempDir(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(ctx); err != nil {
		b.Fatal(err)
	}
	var mm modelMetrics
	a := agent.New(agent.Config{Host: meteringProxy(b, s, &mm), Model: "askls-good", NumCtx: 8192,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	q := agent.Question{Text: "How does Retry back off between attempts?"}
	// One answer first: loads the model, which is not what is measured.
	if r, err := a.Ask(ctx, ix.Snapshot(), q, agent.Events{}); err != nil || r.Refused || len(r.Citations) != 2 {
		b.Fatalf("warm-up answer: %+v %v", r, err)
	}
	// Baseline in the same run: the same question in retrieval mode (the
	// index search and citations, no model).
	ret := agent.New(agent.Config{NoModel: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t0 := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := ret.Ask(ctx, ix.Snapshot(), q, agent.Events{}); err != nil {
			b.Fatal(err)
		}
	}
	retrieval := time.Since(t0)
	mm = modelMetrics{}
	hops := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := a.Ask(ctx, ix.Snapshot(), q, agent.Events{})
		if err != nil || r.Refused || len(r.Citations) != 2 {
			b.Fatalf("answer %d: %+v %v", i, r, err)
		}
		hops += r.Stats.Hops
	}
	wall := b.Elapsed()
	b.StopTimer()
	if mm.turns != hops {
		b.Fatalf("the proxy saw %d model turns, askls reports %d hops", mm.turns, hops)
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	b.ReportMetric(ms(mm.total)/n, "model-ms/op")
	b.ReportMetric(ms(retrieval)/n, "retrieval-ms/op")
	b.ReportMetric(ms(wall-mm.total)/float64(hops), "askls-ms/hop")
	b.ReportMetric(float64(hops)/n, "hops/op")
	b.ReportMetric(float64(mm.promptTokens)/n, "prompt-tokens/op")
	b.ReportMetric(ms(mm.promptEval)/n, "prompt-eval-ms/op")
	b.ReportMetric(float64(mm.evalTokens)/n, "eval-tokens/op")
	b.ReportMetric(ms(mm.eval)/n, "eval-ms/op")
	b.ReportMetric(ms(mm.load)/n, "load-ms/op")
}

func TestRealOllamaLanguageServerAnswersWithLocationsAndLenses(t *testing.T) {
	s := ollamatest.Start(t)
	create(t, s, "askls-good", searchReadAnswer)
	root := ollamatest.Fixture(t, "retry")
	c := startLSP(t, s, root)
	c.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": "file://" + root,
		"capabilities": map[string]any{
			"textDocument": map[string]any{"codeLens": map[string]any{}},
			"window":       map[string]any{"workDoneProgress": true},
		},
		"initializationOptions": map[string]any{"model": "askls-good", "ollamaHost": s.URL, "numCtx": 8192},
	}, nil)
	c.notify("initialized", map[string]any{})
	c.waitIndexed()

	var res struct {
		Answer    string `json:"answer"`
		Mode      string `json:"mode"`
		Refused   bool   `json:"refused"`
		Citations []struct {
			N        int `json:"n"`
			Location struct {
				URI   string `json:"uri"`
				Range struct {
					Start struct{ Line, Character int } `json:"start"`
					End   struct{ Line, Character int } `json:"end"`
				} `json:"range"`
			} `json:"location"`
		} `json:"citations"`
	}
	c.call("askls/ask", map[string]any{"question": "How does Retry back off?", "workDoneToken": "ask-2"}, &res)
	if res.Mode != "model" || res.Refused || len(res.Citations) != 2 {
		t.Fatalf("askls/ask result %+v", res)
	}
	loc := res.Citations[0].Location
	wantURI := "file://" + filepath.Join(root, "retry", "retry.go")
	if loc.URI != wantURI || loc.Range.Start.Line != 8 || loc.Range.End.Line != 24 {
		t.Errorf("citation [1] at %s %+v, want %s lines 8-24 (0-based): the lines read", loc.URI, loc.Range, wantURI)
	}

	var lenses json.RawMessage
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": wantURI}}, &lenses)
	if !strings.Contains(string(lenses), `"line":8`) || !strings.Contains(string(lenses), "[1] How does Retry back off?") {
		t.Errorf("code lenses on retry.go: %s", lenses)
	}
	if code := c.exit(); code != 0 {
		t.Errorf("askls serve exited %d after shutdown and exit", code)
	}
}

// With tools offered, Ollama v0.6.5 holds answer text until the turn ends;
// the last turn, after the hop budget, offers none, so its text streams
// token by token: through askls serve it must arrive as partial results
// ({delta}) that add up to the answer.
func TestRealOllamaLanguageServerStreamsTheAnswer(t *testing.T) {
	s := ollamatest.Start(t)
	create(t, s, "askls-stream", ollamatest.Script{Turns: []ollamatest.Turn{
		{Calls: []ollamatest.ToolCall{call("read_file", map[string]any{"path": "retry/retry.go", "start_line": 9, "end_line": 25})}},
		{Text: "Retry sleeps between attempts and doubles the delay each time, up to the number of attempts given [1]."},
	}})
	root := ollamatest.Fixture(t, "retry")
	c := startLSP(t, s, root)
	c.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": "file://" + root,
		"capabilities":          map[string]any{"window": map[string]any{"workDoneProgress": true}},
		"initializationOptions": map[string]any{"model": "askls-stream", "ollamaHost": s.URL, "numCtx": 8192, "maxHops": 1},
	}, nil)
	c.notify("initialized", map[string]any{})
	c.waitIndexed()

	var res struct {
		Answer  string `json:"answer"`
		Refused bool   `json:"refused"`
	}
	c.call("askls/ask", map[string]any{"question": "How does Retry back off?", "partialResultToken": "p-2"}, &res)
	// The partial results came before the reply, in order.
	var deltas []string
	for _, m := range c.client.Messages() {
		var p struct {
			Token string
			Value struct{ Delta *string }
		}
		if m.Method == "$/progress" && json.Unmarshal(m.Params, &p) == nil && p.Token == "p-2" && p.Value.Delta != nil {
			deltas = append(deltas, *p.Value.Delta)
		}
	}
	t.Logf("%d deltas: %q", len(deltas), deltas)
	if res.Refused || res.Answer == "" {
		t.Fatalf("askls/ask: %+v", res)
	}
	if got := strings.Join(deltas, ""); strings.TrimSpace(got) != res.Answer {
		t.Errorf("deltas add up to %q, the answer is %q", got, res.Answer)
	}
	if len(deltas) < 3 {
		t.Errorf("the answer came in %d deltas, want it streamed", len(deltas))
	}
	if code := c.exit(); code != 0 {
		t.Errorf("askls serve exited %d after shutdown and exit", code)
	}
}
