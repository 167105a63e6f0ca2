package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
	"github.com/askls/askls/lsp/buffer"
	"github.com/askls/askls/workspace"
)

// askResult is the askls/ask result, exactly as docs/protocol.md defines it
// (protocol_test.go keeps the two in step).
type askResult struct {
	ID        string         `json:"id"`
	Question  string         `json:"question"`
	Answer    string         `json:"answer"`
	Citations []wireCitation `json:"citations"`
	Refused   bool           `json:"refused"`
	Weak      bool           `json:"weak"`
	Mode      string         `json:"mode"`
	Model     string         `json:"model,omitempty"`
	Steps     []agent.Step   `json:"steps"`
	Stats     agent.Stats    `json:"stats"`
	Notice    string         `json:"notice,omitempty"`
	// Thread is the thread the answer is a turn of, when the question
	// named one.
	Thread string `json:"thread,omitempty"`
}

type wireCitation struct {
	N        int               `json:"n"`
	Location protocol.Location `json:"location"`
	Symbol   string            `json:"symbol,omitempty"`
	Excerpt  string            `json:"excerpt"`
	Stale    bool              `json:"stale"`
	// Hash is the blake3 hash (hex) of the cited lines as they were cited
	// (each line ending in "\n"): askls.locate finds them by it after
	// edits. Omitted when the lines had already changed.
	Hash string `json:"hash,omitempty"`
}

// partialText is the value of a $/progress notification on an askls/ask
// partialResultToken: the next piece of checked answer text.
type partialText struct {
	Delta string `json:"delta"`
}

type askParams struct {
	Question           string                  `json:"question"`
	TextDocument       *docID                  `json:"textDocument"`
	Position           *protocol.Position      `json:"position"`
	WorkDoneToken      *protocol.ProgressToken `json:"workDoneToken"`
	PartialResultToken *protocol.ProgressToken `json:"partialResultToken"`
	// Thread asks in a thread: "new", "last" or a thread id; absent, the
	// question stands alone (and is kept in no thread).
	Thread string `json:"thread,omitempty"`
}

// askInput is a question with the cursor resolved to an absolute path and
// an LSP position (or none).
type askInput struct {
	question      string
	abs           string             // "" when no file is given
	pos           *protocol.Position // LSP position in abs
	line, col     int                // 1-based, when pos is nil (executeCommand)
	workDone      *protocol.ProgressToken
	partialResult *protocol.ProgressToken
	thread        string // "", "new", "last" or a thread id
}

func (s *server) ask(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[askParams]("askls/ask", raw)
	if err != nil {
		return nil, err
	}
	in := askInput{question: p.Question, pos: p.Position, workDone: p.WorkDoneToken, partialResult: p.PartialResultToken, thread: p.Thread}
	if p.TextDocument != nil && p.TextDocument.URI != "" {
		abs, err := workspace.URIPath(p.TextDocument.URI)
		if err != nil {
			return nil, invalidParams("askls/ask: textDocument: %v", err)
		}
		in.abs = abs
	}
	res, err := s.runAsk(ctx, release, in)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// runAsk answers one question. The workspace notes the cursor and the last
// edit in order with the edits sent before the request; then the queue is
// released: later messages (edits included) run while the agent works.
func (s *server) runAsk(ctx context.Context, release func(), in askInput) (*askResult, error) {
	in.question = strings.TrimSpace(in.question)
	if in.question == "" {
		return nil, invalidParams("askls/ask: question is empty")
	}
	if _, err := s.index(ctx); err != nil {
		return nil, fmt.Errorf("askls/ask: %w", err)
	}
	q := workspace.Question{Text: in.question, File: in.abs, Line: in.line, Col: in.col}
	if pos := in.pos; pos != nil {
		q.Line = int(pos.Line) + 1
		q.ColOf = func(content []byte) int {
			off, _ := buffer.OffsetOf(content, *pos)
			start, _ := buffer.LineStart(content, int(pos.Line))
			return off - start + 1
		}
	}
	a, err := s.ws.Prepare(ctx, q) // in order: every edit sent before is applied
	if err != nil {
		return nil, fmt.Errorf("askls/ask: %w", err)
	}
	release()

	var turn workspace.Turn
	if in.thread != "" {
		store, th, err := s.ws.FindThread(in.thread)
		if err != nil {
			return nil, threadError("askls/ask", in.thread, err)
		}
		turn = workspace.Turn{Store: store, Thread: th}
	}
	ans, err := s.askAgent(ctx, in, a, turn)
	if err != nil {
		return nil, err
	}
	if ans.SaveErr != nil {
		s.log.Warn("thread not saved", "thread", turn.Thread.ID, "err", ans.SaveErr)
	}
	out := s.keepAnswer(ctx, ans)
	s.logAnswer(out)
	return out, nil
}

// askAgent answers a with work-done progress and streamed partial results
// when the client asked for them. A cancelled ask is context.Canceled; a
// question the index rejects is the client's error.
func (s *server) askAgent(ctx context.Context, in askInput, a *workspace.Ask, turn workspace.Turn) (*workspace.Answer, error) {
	ag := s.currentAgent()
	askCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	prog := s.beginProgress(askCtx, in.workDone, "answering", in.question, cancel) // clients prefix the server name
	start := time.Now()
	ev := agent.Events{
		Step: func(st agent.Step) {
			s.log.Debug("ask step", "tool", st.Tool, "args", st.Args, "summary", st.Summary, "ms", st.MS)
			prog.report(fmt.Sprintf("%s: %s", st.Tool, st.Summary), -1)
		},
	}
	if in.partialResult != nil {
		tok := in.partialResult
		ev.Delta = func(text string) { s.partial(tok, partialText{Delta: text}) }
	}
	ans, err := a.Run(askCtx, ag, turn, ev)
	if err != nil {
		prog.end("failed")
		if ctx.Err() != nil || errors.Is(askCtx.Err(), context.Canceled) {
			s.log.Info("ask cancelled", "question", in.question, "ms", time.Since(start).Milliseconds())
			return nil, context.Canceled
		}
		if errors.Is(err, index.ErrBadQuery) {
			// The question itself is wrong (too long, no words): the
			// client's error, not the server's.
			return nil, invalidParams("askls/ask: %v", err)
		}
		return nil, fmt.Errorf("askls/ask: %w", err)
	}
	prog.end(fmt.Sprintf("%d citations, %s", len(ans.Result.Citations), time.Since(start).Round(time.Millisecond)))
	return ans, nil
}

// logAnswer logs one line an answer: its steps, counts and time.
func (s *server) logAnswer(out *askResult) {
	steps := make([]string, len(out.Steps))
	for i, st := range out.Steps {
		steps[i] = fmt.Sprintf("%s(%.1fms)", st.Tool, st.MS)
	}
	s.log.Info("answer", "id", out.ID, "mode", out.Mode, "model", out.Model, "refused", out.Refused,
		"citations", len(out.Citations), "hops", out.Stats.Hops, "toolCalls", out.Stats.ToolCalls,
		"steps", strings.Join(steps, " "), "promptTokens", out.Stats.PromptTokens,
		"evalTokens", out.Stats.EvalTokens, "ms", out.Stats.MS, "notice", out.Notice)
}

// keepAnswer anchors the citations to the files as the editor has them now
// (edits made during the answer included), stores the answer and returns
// the wire result with Locations.
func (s *server) keepAnswer(ctx context.Context, ans *workspace.Answer) *askResult {
	ix, snap, res := ans.Index, ans.Snapshot, ans.Result
	out := &askResult{
		ID: res.ID, Question: res.Question, Answer: res.Answer, Refused: res.Refused, Weak: res.Weak, Mode: res.Mode,
		Model: res.Model, Steps: res.Steps, Stats: res.Stats, Notice: res.Notice, Thread: res.Thread,
		Citations: []wireCitation{},
	}
	if out.ID == "" {
		s.mu.Lock()
		s.askSeq++
		out.ID = fmt.Sprintf("a%d", s.askSeq)
		s.mu.Unlock()
	}
	if out.Steps == nil {
		out.Steps = []agent.Step{}
	}
	a := &answer{id: out.ID, question: out.Question, created: time.Now(), result: out}

	contents := map[string][]byte{} // one read per cited file
	s.editMu.Lock()
	for _, c := range res.Citations {
		abs, err := ix.Abs(c.Path)
		if err != nil {
			s.log.Warn("citation path has no file; dropped", "path", c.Path, "err", err)
			continue
		}
		u := canonURI(workspace.FileURI(abs))
		content, ok := contents[c.Path]
		if !ok {
			content, err = snap.Content(c.Path)
			if err != nil {
				s.log.Warn("citation file unreadable; dropped", "path", c.Path, "err", err)
				continue
			}
			contents[c.Path] = content
		}
		ct := &cite{n: c.N, uri: u, Tracked: citations.Track(c, content)}
		if doc, open := s.docs.get(u); open && !bytes.Equal(doc.text.Bytes(), content) {
			ct.Anchor = citations.Relocate(ct.Anchor, doc.text.Bytes()) // edited while the answer was written
		}
		a.cites = append(a.cites, ct)
		cc := ct.Now()
		out.Citations = append(out.Citations, wireCitation{
			N: cc.N, Location: citationLocation(cc, string(u), ct.Anchor.Content()),
			Symbol: cc.Symbol, Excerpt: cc.Excerpt, Stale: cc.Stale, Hash: ct.Hash,
		})
	}
	s.answers.add(a)
	s.editMu.Unlock()
	// Every file: the new answer's citations appear, and those of answers
	// beyond keepCitations disappear.
	s.citationsChanged(ctx, nil)
	return out
}

// commandAsk is workspace/executeCommand askls.ask [question, path?, line?, col?].
// Besides the result it says in a message that the answer arrived and
// how to open it (for clients that cannot render the result, like Helix),
// see answerArrived.
func (s *server) commandAsk(ctx context.Context, args []json.RawMessage, release func()) (any, error) {
	if len(args) == 0 {
		return nil, invalidParams("askls.ask: arguments are [question, path?, line?, col?]; question is missing")
	}
	var in askInput
	if err := json.Unmarshal(args[0], &in.question); err != nil {
		return nil, invalidParams("askls.ask: the first argument must be the question (a string): %v", err)
	}
	if len(args) > 1 {
		var p string
		if err := json.Unmarshal(args[1], &p); err != nil && string(args[1]) != "null" {
			return nil, invalidParams("askls.ask: the second argument must be a path (a string): %v", err)
		}
		if p != "" {
			abs, err := s.resolvePath(ctx, p)
			if err != nil {
				return nil, invalidParams("askls.ask: %v", err)
			}
			in.abs = abs
		}
	}
	var err error
	if len(args) > 2 {
		if in.line, err = intArg(args[2]); err != nil {
			return nil, invalidParams("askls.ask: line: %v", err)
		}
	}
	if len(args) > 3 {
		if in.col, err = intArg(args[3]); err != nil {
			return nil, invalidParams("askls.ask: col: %v", err)
		}
	}
	if in.thread, err = optionalString(args, 4); err != nil {
		return nil, invalidParams("askls.ask: thread: %v (\"new\", \"last\" or a thread id)", err)
	}
	res, err := s.runAsk(ctx, release, in)
	if err != nil {
		return nil, err
	}
	s.answerArrived(ctx, res)
	return res, nil
}

// resolvePath accepts a file URI, an absolute path, an index path or a path
// relative to the first root.
func (s *server) resolvePath(ctx context.Context, p string) (string, error) {
	if strings.HasPrefix(p, "file:") || filepath.IsAbs(p) {
		abs := filepath.Clean(p)
		if strings.HasPrefix(p, "file:") {
			var err error
			if abs, err = workspace.URIPath(p); err != nil {
				return "", err
			}
		}
		return abs, nil // outside the roots: runAsk answers without it
	}
	ix, err := s.index(ctx)
	if err != nil {
		return "", err
	}
	if abs, err := ix.Abs(filepath.ToSlash(p)); err == nil {
		return abs, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.folders) > 0 {
		return filepath.Join(s.folders[0].path, p), nil
	}
	return filepath.Abs(p)
}

func intArg(raw json.RawMessage) (int, error) {
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		return n, nil
	}
	var str string
	if err := json.Unmarshal(raw, &str); err != nil {
		return 0, fmt.Errorf("want a number, got %s", raw)
	}
	if str == "" {
		return 0, nil
	}
	if _, err := fmt.Sscan(str, &n); err != nil {
		return 0, fmt.Errorf("want a number, got %q", str)
	}
	return n, nil
}
