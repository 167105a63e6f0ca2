package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/lsp/answerdoc"
	"github.com/askls/askls/thread"
	"github.com/askls/askls/workspace"
)

// Thread commands (workspace/executeCommand).
const (
	cmdThreads      = "askls.threads"
	cmdOpenThread   = "askls.openThread"
	cmdDeleteThread = "askls.deleteThread"
)

// threadError is the error of method for a thread ref that FindThread
// could not resolve: a thread id this workspace does not hold is the
// client's error.
func threadError(method, ref string, err error) error {
	if errors.Is(err, thread.ErrNotFound) && ref != workspace.ThreadNew && ref != workspace.ThreadLast {
		return invalidParams("%s: thread %q: no such thread in this workspace (askls.threads lists them; \"new\" starts one)", method, ref)
	}
	return fmt.Errorf("%s: %w", method, err)
}

// wireThread is a thread as askls.openThread returns it: each turn with
// its citations as Locations in the files as they are now.
type wireThread struct {
	ID      string     `json:"id"`
	Title   string     `json:"title"`
	Created time.Time  `json:"created"`
	Updated time.Time  `json:"updated"`
	Turns   []wireTurn `json:"turns"`
}

type wireTurn struct {
	Question  string         `json:"question"`
	Answer    string         `json:"answer"`
	Mode      string         `json:"mode"`
	Refused   bool           `json:"refused"`
	Citations []wireCitation `json:"citations"`
	At        time.Time      `json:"at"`
}

// commandThreads is askls.threads [{"show": bool}?]: the workspace's
// threads, the most recent first. With show (what Helix's binding sends:
// it shows nothing of a command's result) the list is also opened as a
// markdown document, one thread a line with its id first.
func (s *server) commandThreads(ctx context.Context, args []json.RawMessage) (any, error) {
	show, err := showOption(args, 0)
	if err != nil {
		return nil, invalidParams("%s: arguments are [{\"show\": bool}?]: %v", cmdThreads, err)
	}
	store, err := s.ws.Threads()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmdThreads, err)
	}
	list, err := store.List()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmdThreads, err)
	}
	if show {
		s.showMarkdown(ctx, "threads", answerdoc.ThreadsMarkdown(list))
	}
	return list, nil
}

// showOption reads {"show": bool} at args[i]; false when it is missing.
func showOption(args []json.RawMessage, i int) (bool, error) {
	if len(args) <= i || string(args[i]) == "null" {
		return false, nil
	}
	var opt struct {
		Show bool `json:"show"`
	}
	if err := json.Unmarshal(args[i], &opt); err != nil {
		return false, fmt.Errorf("argument %d: want {\"show\": bool}, got %s", i+1, args[i])
	}
	return opt.Show, nil
}

// showMarkdown writes md as a document of the server's folder and asks the
// client to open it, with focus (the person asked for it).
func (s *server) showMarkdown(ctx context.Context, name, md string) {
	if !s.capabilities().ShowDocument {
		return
	}
	path, err := s.answerFiles.Write(name, md)
	if err != nil {
		s.log.Warn("could not write the document", "name", name, "err", err)
		return
	}
	params := map[string]any{"uri": workspace.FileURI(path), "takeFocus": true}
	if err := s.call(context.WithoutCancel(ctx), "window/showDocument", params, nil); err != nil {
		s.log.Info("window/showDocument failed", "path", path, "err", err)
	}
}

// commandDeleteThread is askls.deleteThread [id].
func (s *server) commandDeleteThread(args []json.RawMessage) (any, error) {
	id, err := optionalString(args, 0)
	if err != nil || id == "" {
		return nil, invalidParams("%s: arguments are [id] (a thread id from askls.threads)", cmdDeleteThread)
	}
	store, err := s.ws.Threads()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmdDeleteThread, err)
	}
	if err := store.Delete(id); err != nil {
		if errors.Is(err, thread.ErrNotFound) {
			return nil, invalidParams("%s: %v", cmdDeleteThread, err)
		}
		return nil, fmt.Errorf("%s: %w", cmdDeleteThread, err)
	}
	return map[string]any{"deleted": id}, nil
}

// commandOpenThread is askls.openThread [id?]: the thread (the most recent
// without an id) turn by turn, each citation a Location in the file as it
// is now (an open document as the editor has it): moved lines are followed
// by their hash, and a citation is stale only when no lines of the file
// hash as the cited ones did.
func (s *server) commandOpenThread(ctx context.Context, args []json.RawMessage, release func()) (any, error) {
	id, err := optionalString(args, 0)
	if err != nil {
		return nil, invalidParams("%s: arguments are [id?, {\"show\": bool}?]: %v", cmdOpenThread, err)
	}
	show, err := showOption(args, 1)
	if err != nil {
		return nil, invalidParams("%s: arguments are [id?, {\"show\": bool}?]: %v", cmdOpenThread, err)
	}
	store, err := s.ws.Threads()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmdOpenThread, err)
	}
	var th *thread.Thread
	if id == "" {
		th, err = store.Last()
	} else {
		th, err = store.Load(id)
	}
	if errors.Is(err, thread.ErrNotFound) {
		return nil, invalidParams("%s: %v", cmdOpenThread, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmdOpenThread, err)
	}
	ix, err := s.index(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmdOpenThread, err)
	}
	release()
	out := wireThread{ID: th.ID, Title: th.Title(), Created: th.Created, Updated: th.Updated, Turns: s.wireTurns(ix, th)}
	if show {
		s.showMarkdown(ctx, "thread-"+th.ID, answerdoc.ThreadMarkdown(out.ID, out.Title, s.docTurns(out.Turns)))
	}
	return out, nil
}

// docTurns are turns as a document shows them.
func (s *server) docTurns(turns []wireTurn) []answerdoc.Turn {
	out := make([]answerdoc.Turn, len(turns))
	for i, t := range turns {
		out[i] = answerdoc.Turn{Question: t.Question, Answer: t.Answer, Citations: s.docCitations(t.Citations)}
	}
	return out
}

// wireTurns is th's turns with their citations as Locations in the files
// as they are now (an open document as the editor has it), each stale when
// its lines no longer hash as they did when cited.
func (s *server) wireTurns(ix *index.Index, th *thread.Thread) []wireTurn {
	open := func(abs string) ([]byte, bool) {
		doc, ok := s.docs.get(canonURI(workspace.FileURI(abs)))
		if !ok {
			return nil, false
		}
		return doc.text.Bytes(), true
	}
	out := []wireTurn{}
	for i, cs := range workspace.CitationsNow(ix, th, open) {
		t := th.Turns[i]
		wt := wireTurn{Question: t.Question, Answer: t.Answer, Mode: t.Mode, Refused: t.Refused, At: t.At, Citations: []wireCitation{}}
		for _, c := range cs {
			wt.Citations = append(wt.Citations, wireCitation{
				N: c.N, Location: citationLocation(c.Citation, string(canonURI(workspace.FileURI(c.Abs))), c.Content),
				Symbol: c.Symbol, Excerpt: c.Excerpt, Stale: c.Stale, Hash: c.Hash,
			})
		}
		out = append(out, wt)
	}
	return out
}

// earlierTurnsMarkdown is the turns of thread id before its newest, newest
// first, as the answer document shows them below the answer (Helix shows
// the whole thread that way): question, answer and path:line:col citation
// lines where the code is now. "" when the thread has one turn.
func (s *server) earlierTurnsMarkdown(ctx context.Context, id string) string {
	store, err := s.ws.Threads()
	if err != nil {
		return ""
	}
	th, err := store.Load(id)
	if err != nil || len(th.Turns) < 2 {
		return ""
	}
	ix, err := s.index(ctx)
	if err != nil {
		return ""
	}
	return answerdoc.EarlierTurnsMarkdown(th.ID, s.docTurns(s.wireTurns(ix, th)))
}
