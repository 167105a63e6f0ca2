package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
	"github.com/askls/askls/workspace"
)

// runAsk is `askls ask [flags] QUESTION`: the answer streamed to stdout,
// then one `path:line:col` line per citation. Exit status 0 for an answer
// or a refusal.
func runAsk(ctx context.Context, args []string) error {
	// A reader that stops early (askls ask … | head) must not kill askls
	// before the turn is saved to its thread: writes to a closed pipe then
	// fail instead, and are ignored.
	signal.Ignore(syscall.SIGPIPE)
	return askMain(ctx, args, os.Stdout, os.Stderr)
}

// agentFlags are the model flags of ask and doctor.
type agentFlags struct {
	provider, baseURL      string
	model, host, keepAlive string
	numCtx, maxHops        int
	timeout                time.Duration
	noModel, think         bool
}

func (f *agentFlags) register(fs *flag.FlagSet) {
	fs.Func("provider", "model server API: `ollama` or openai (any OpenAI-compatible server; key from $ASKLS_API_KEY, else $OPENAI_API_KEY) (default $ASKLS_PROVIDER, else ollama)", func(s string) error {
		if s != agent.ProviderOllama && s != agent.ProviderOpenAI {
			return fmt.Errorf("want %s or %s", agent.ProviderOllama, agent.ProviderOpenAI)
		}
		f.provider = s
		return nil
	})
	fs.StringVar(&f.baseURL, "base-url", "", "OpenAI-compatible server `URL`, e.g. http://127.0.0.1:8080/v1 (default $OPENAI_BASE_URL)")
	fs.StringVar(&f.model, "model", "", "`MODEL` name (default "+agent.DefaultModel+" with Ollama; required with openai)")
	fs.StringVar(&f.host, "ollama-host", "", "Ollama server `URL` (default $OLLAMA_HOST, else "+agent.DefaultHost+")")
	fs.IntVar(&f.numCtx, "num-ctx", 0, fmt.Sprintf("model context window in tokens (default %d)", agent.DefaultNumCtx))
	fs.IntVar(&f.maxHops, "max-hops", 0, fmt.Sprintf("model turns that may call tools (default %d)", agent.DefaultMaxHops))
	fs.DurationVar(&f.timeout, "timeout", 0, fmt.Sprintf("time limit of one answer (default %s)", agent.DefaultTimeout))
	fs.StringVar(&f.keepAlive, "keep-alive", "", "how long Ollama keeps the model loaded (default "+agent.DefaultKeepAlive+")")
	fs.BoolVar(&f.think, "think", false, "let a thinking model reason before answering (slower)")
}

func (f agentFlags) config(logger *slog.Logger) agent.Config {
	provider := f.provider
	if provider == "" {
		provider = providerEnv()
	}
	return agent.Config{
		Provider: provider, BaseURL: f.baseURL,
		Host: f.host, Model: f.model, NumCtx: f.numCtx, MaxHops: f.maxHops, Timeout: f.timeout,
		KeepAlive: f.keepAlive, Think: f.think, NoModel: f.noModel, Logger: logger,
		Env: modelEnv(),
	}
}

func askMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ask", "usage: askls ask [flags] QUESTION\n\nAnswers with citations as path:line:col lines. Without a reachable model\n(or with --no-model) it answers in retrieval mode: ranked, cited code.\nEvery answer is a turn of a thread kept per workspace: --continue follows up\non the last one, --thread ID on another (askls threads lists them).", stderr)
	var f askFlags
	f.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object shaped like the askls/ask result")
	path := fs.String("path", "", "file the question is about (the cursor's file), relative to the root")
	line := fs.Int("line", 0, "the cursor's line in --path")
	words, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	question := strings.TrimSpace(strings.Join(words, " "))
	if question == "" {
		fs.Usage()
		return usageError("askls ask: no question")
	}
	if len(question) > agent.MaxQuestionBytes {
		return usageError(fmt.Sprintf("askls ask: %v: the question is %d bytes long, the limit is %d", index.ErrBadQuery, len(question), agent.MaxQuestionBytes))
	}
	ws, turn, a, err := f.session(ctx, "askls ask", !*asJSON, stderr)
	if err != nil {
		return err
	}
	defer ws.Close()
	cursor, err := cursorPath(ctx, ws, *path, *line)
	if err != nil {
		return err
	}
	res, err := askOne(ctx, a, ws, turn, workspace.Question{Text: question, File: cursor, Line: *line}, *asJSON, stdout, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	if turn.Store != nil {
		fmt.Fprintf(stderr, "askls: thread %s (follow up: askls ask --continue \"…\")\n", turn.Thread.ID)
	}
	return nil
}

// askOne asks q of ws as the next turn of turn.Thread (saved in
// turn.Store when there is one) and, unless asJSON, streams the answer to
// stdout followed by its citation lines.
func askOne(ctx context.Context, a *agent.Agent, ws *workspace.Workspace, turn workspace.Turn, q workspace.Question, asJSON bool, stdout, stderr io.Writer) (*agent.Result, error) {
	var streamed strings.Builder
	ev := agent.Events{}
	if !asJSON {
		ev.Delta = func(s string) {
			streamed.WriteString(s)
			io.WriteString(stdout, s)
		}
		if isTerminal(stderr) {
			ev.Step = func(s agent.Step) {
				fmt.Fprintf(stderr, "  · %s %s: %s (%.0f ms)\n", s.Tool, compactArgs(s.Args), s.Summary, s.MS)
			}
		}
	}
	asked, err := ws.Prepare(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("askls ask: %w", err)
	}
	ans, err := asked.Run(ctx, a, turn, ev)
	if errors.Is(err, index.ErrBadQuery) {
		return nil, usageError("askls ask: " + err.Error()) // in every output form, --json too
	}
	if err != nil {
		return nil, fmt.Errorf("askls ask: %w", err)
	}
	if ans.SaveErr != nil {
		defer fmt.Fprintf(stderr, "askls: warning: the thread was not saved: %v\n", ans.SaveErr)
	}
	res := ans.Result
	if asJSON {
		return res, nil
	}
	printAnswer(ans, streamed.String(), stdout, stderr)
	return res, nil
}

// printAnswer prints what the stream did not: the answer when what
// streamed was not it (text before any evidence existed, a refusal), its
// citation lines, the notice and the model's figures.
func printAnswer(ans *workspace.Answer, streamed string, stdout, stderr io.Writer) {
	res := ans.Result
	if !strings.HasSuffix(strings.TrimSpace(streamed), res.Answer) {
		if len(streamed) > 0 {
			io.WriteString(stdout, "\n\n")
		}
		io.WriteString(stdout, res.Answer)
	}
	if !strings.HasSuffix(streamed, "\n") || !strings.HasSuffix(strings.TrimSpace(streamed), res.Answer) {
		io.WriteString(stdout, "\n")
	}
	if len(res.Citations) > 0 {
		io.WriteString(stdout, "\n")
	}
	for _, c := range res.Citations {
		fmt.Fprintln(stdout, citationLine(ans.Index, ans.Snapshot, c))
	}
	if res.Notice != "" {
		fmt.Fprintf(stderr, "askls: note: %s\n", res.Notice)
	}
	if res.Mode == agent.ModeModel {
		fmt.Fprintf(stderr, "askls: %s, %d turns, %d tool calls, %d prompt + %d answer tokens, %.1f s\n",
			res.Model, res.Stats.Hops, res.Stats.ToolCalls, res.Stats.PromptTokens, res.Stats.EvalTokens, res.Stats.MS/1000)
	}
}

// cursorPath checks --path and --line and returns the index path of the
// cursor's file. --path is relative to the root, or to the working folder,
// or absolute; a file the index does not hold is an error rather than a
// cursor silently ignored.
func cursorPath(ctx context.Context, ws *workspace.Workspace, p string, line int) (string, error) {
	if p == "" {
		if line != 0 {
			return "", usageError("askls ask: --line needs --path (the file the line is in)")
		}
		return "", nil
	}
	rel, content, err := ws.Locate(ctx, p)
	if err != nil {
		return "", usageError(fmt.Sprintf("askls ask: --path %s: no such file in the workspace (give it relative to the root or the working folder, or absolute)", p))
	}
	if n := citations.CountLines(content); line < 0 || line > max(n, 1) {
		return "", usageError(fmt.Sprintf("askls ask: --line %d: %s has %d lines", line, rel, n))
	}
	return rel, nil
}

// citationLine is "[n] path:line:col symbol" with the path relative to the
// working folder when it is inside it (so terminals and editors can open
// it), and col the first non-blank character of the line, 1-based in bytes.
func citationLine(ix *index.Index, snap *index.Snapshot, c citations.Citation) string {
	p := c.Path
	if abs, err := ix.Abs(c.Path); err == nil {
		p = abs
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
				p = rel
			}
		}
	}
	col := 1
	if content, err := snap.Content(c.Path); err == nil && c.StartByte <= len(content) {
		rest := content[c.StartByte:]
		for col-1 < len(rest) && (rest[col-1] == ' ' || rest[col-1] == '\t') {
			col++
		}
		if col-1 < len(rest) && rest[col-1] == '\n' {
			col = 1
		}
	}
	return fmt.Sprintf("[%d] %s:%d:%d", c.N, p, c.Start, col) + citationTail(c)
}

// citationTail is what a citation line says after its place: the last
// line of a range, the symbol, and whether the lines changed since.
func citationTail(c citations.Citation) string {
	s := ""
	if c.End > c.Start {
		s += fmt.Sprintf(" (to line %d)", c.End)
	}
	if c.Symbol != "" {
		s += " " + c.Symbol
	}
	if c.Stale {
		s += " (stale: the file changed)"
	}
	return s
}

func compactArgs(m map[string]any) string {
	b, _ := json.Marshal(m)
	return string(b)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
