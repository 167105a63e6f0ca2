package agent

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/citations"
)

// run is the state of one Ask.
type run struct {
	a     *Agent
	cfg   Config
	src   tools.Source
	q     Question
	ev    Events
	reg   *citations.Registry
	tb    *tools.Box
	rw    *citations.Rewriter
	res   *Result
	start time.Time

	answer     strings.Builder // rewritten answer text so far
	rawText    bool            // some answer text was written
	tail       string          // the last two bytes of the raw answer text
	mute       bool            // answer text that was streamed already
	lastPrompt int             // prompt_eval_count of the last turn
	cache      map[string]int  // call key -> step number (1-based)
	chars      int             // characters of the conversation
	searched   []string        // the calls made, for a refusal
	prior      *Thread         // the thread this ask follows up, or nil
	seeded     int             // registry numbers 1..seeded are the thread's evidence
}

func newRun(a *Agent, src tools.Source, q Question, ev Events) *run {
	reg := citations.NewRegistry()
	tb := tools.NewBox(src, reg)
	r := &run{
		a: a, cfg: a.cfg, src: src, q: q, ev: ev,
		reg:   reg,
		tb:    tb,
		rw:    citations.NewRewriter(reg, tb.Content),
		start: time.Now(),
		cache: map[string]int{},
	}
	r.res = &Result{ID: newID(), Question: q.Text, Steps: []tools.Step{}, Citations: []citations.Citation{}}
	return r
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// emit sends rewritten answer text to the answer and the Delta event.
func (r *run) emit(text string) {
	if text == "" {
		return
	}
	r.tail = (r.tail + text)[max(0, len(r.tail)+len(text)-2):]
	out := r.rw.Write(text)
	r.deliver(out)
}

func (r *run) deliver(out string) {
	if out == "" {
		return
	}
	r.answer.WriteString(out)
	if r.ev.Delta != nil && !r.mute {
		r.ev.Delta(out)
	}
}

// startText begins a turn's text in the answer, separated from an earlier
// turn's text by a blank line.
func (r *run) startText(text string) {
	if r.rawText {
		sep := "\n\n"
		switch {
		case strings.HasSuffix(r.tail, "\n\n"):
			sep = ""
		case strings.HasSuffix(r.tail, "\n"):
			sep = "\n"
		}
		text = sep + strings.TrimLeft(text, " \t\r\n")
	} else {
		text = strings.TrimLeft(text, " \t\r\n")
	}
	if text == "" {
		return
	}
	r.rawText = true
	r.emit(text)
}

// finish checks the answer and builds the result. An answer that cites
// nothing valid becomes a refusal saying what was searched.
func (r *run) finish(notice string) *Result {
	r.deliver(r.rw.Flush())
	res := r.res
	res.Notice = notice
	res.Citations = r.rw.Citations()
	if res.Citations == nil {
		res.Citations = []citations.Citation{}
	}
	text := strings.TrimSpace(r.answer.String())
	switch {
	case strings.HasPrefix(text, notFoundPrefix):
		res.Refused = true
		text += "\n\n" + r.searchedLine()
	case len(res.Citations) == 0:
		res.Refused = true
		if dropped := r.rw.Dropped(); len(dropped) > 0 {
			r.cfg.Logger.Info("answer refused: every citation was invalid", "dropped", dropped)
		}
		text = "I could not find an answer in the code that I can back with a citation.\n\n" + r.searchedLine()
	}
	res.Answer = text
	if p := checkLabels(text, res.Citations, res.Mode == ModeRetrieval, r.tb.Content); len(p) > 0 {
		// Never expected: the rewriter and the retrieval answer's layout
		// make every label true. Logged so that a case it misses is seen.
		r.cfg.Logger.Warn("answer labels do not match their citations", "problems", p)
	}
	res.Stats.MS = float64(time.Since(r.start).Microseconds()) / 1000
	return res
}

// searchedLine says what was searched, for a refusal. It quotes the
// model's queries, so what markdown would make active in them is escaped
// (a query "![](http://…)" is no image).
func (r *run) searchedLine() string {
	if len(r.searched) == 0 {
		return "Nothing was searched."
	}
	return "Searched: " + citations.Plain(strings.Join(dedupe(r.searched), ", ")) + "."
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
