package workspace

import (
	"context"
	"path/filepath"
	"time"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/thread"
)

// Question is a question and where it was asked from.
type Question struct {
	Text string
	// File is the file the question was asked from: an absolute path, or
	// an index path ("" none). An absolute path outside the roots is never
	// read: the question is answered without it, and the notice says so.
	File string
	// Line and Col are the cursor in File, 1-based, Col in bytes; 0: none.
	Line, Col int
	// ColOf, when set, gives Col from the content of File as the index
	// holds it (the language server's UTF-16 position).
	ColOf func(content []byte) int
}

// Ask is a question ready to be answered: the index it is asked of, its
// cursor, the generation of the last edit made before it and the
// workspace's notice.
type Ask struct {
	w      *Workspace
	ix     *index.Index
	q      agent.Question
	gen    uint64
	notice string
}

// Turn is the thread an answer is the next turn of (nil: the question
// stands alone) and the store that keeps it (nil: not kept).
type Turn struct {
	Store  *thread.Store
	Thread *thread.Thread
}

// Answer is an answer and the index and snapshot it was made from: its
// citations' paths are the index's (Index.Abs), their lines the
// snapshot's (Snapshot.Content).
type Answer struct {
	Result   *agent.Result
	Index    *index.Index
	Snapshot *index.Snapshot
	// SaveErr says why the turn was not saved in its thread; the answer
	// stands.
	SaveErr error
}

// EditWait bounds how long a question waits for the last edit to be
// searchable. Open buffers are read at once; only their search waits.
const EditWait = time.Second

// Prepare waits until the index is open (see Index), resolves the cursor
// and notes the last edit and the notice, so that a front end calls it in
// order with the edits sent before the question and may then let later
// edits run while Run answers.
func (w *Workspace) Prepare(ctx context.Context, q Question) (*Ask, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return nil, err
	}
	a := &Ask{w: w, ix: ix, q: agent.Question{Text: q.Text}, gen: w.LastEdit(), notice: w.Notice()}
	switch {
	case q.File == "":
	case filepath.IsAbs(q.File):
		path, ok := ix.Rel(q.File)
		if !ok {
			w.log.Info("asked from a file outside the workspace; answering without the cursor", "path", q.File)
			a.notice = JoinNotices(a.notice, q.File+" is outside the workspace roots: answered from the workspace, without the cursor")
			break
		}
		a.cursor(path, q)
	default:
		a.cursor(filepath.ToSlash(q.File), q)
	}
	return a, nil
}

// cursor sets the question's cursor in index path path.
func (a *Ask) cursor(path string, q Question) {
	a.q.Path, a.q.Line, a.q.Col = path, q.Line, q.Col
	if q.ColOf != nil {
		content, _ := a.ix.Snapshot().Content(path)
		a.q.Col = q.ColOf(content)
	}
}

// Run answers the question with ag, as the next turn of turn.Thread when
// there is one: it takes the thread's lock (waiting for a follow-up in
// flight elsewhere), waits at most EditWait for the last edit to be
// searchable, answers from a snapshot and saves the turn. The workspace's
// notice leads the answer. An error means no answer: ctx ended, the
// thread could not be locked, or the agent refused the question
// (index.ErrBadQuery).
func (a *Ask) Run(ctx context.Context, ag *agent.Agent, turn Turn, ev agent.Events) (*Answer, error) {
	th, keep := turn.Thread, turn.Store != nil && turn.Thread != nil
	if keep {
		unlock, err := turn.Store.BeginTurn(ctx, th)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	before := 0
	if th != nil {
		before = len(th.Turns)
	}
	wctx, cancel := context.WithTimeout(ctx, EditWait)
	if err := a.ix.WaitFor(wctx, a.gen); err != nil && ctx.Err() == nil {
		a.w.log.Debug("last edit not yet searchable; answering anyway", "gen", a.gen, "err", err)
	}
	cancel()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	snap := a.ix.Snapshot()
	res, err := ag.AskThread(ctx, snap, th, a.q, ev)
	if err != nil {
		return nil, err
	}
	addNotice(res, a.notice)
	out := &Answer{Result: res, Index: a.ix, Snapshot: snap}
	if keep && len(th.Turns) > before { // a cancelled ask leaves the thread as it was
		out.SaveErr = turn.Store.Save(th)
	}
	return out, nil
}

// JoinNotices joins two notices, either of which may be "".
func JoinNotices(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// addNotice records a workspace notice (the index is still building) on an
// agent result: in Notice beside the agent's own, and at the top of the
// answer text, because editors show the text, not the field.
func addNotice(res *agent.Result, notice string) {
	if notice == "" {
		return
	}
	res.Answer = "> askls: " + notice + ".\n\n" + res.Answer
	res.Notice = JoinNotices(res.Notice, notice)
}
