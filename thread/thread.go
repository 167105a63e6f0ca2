package thread

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/askls/askls/citations"
)

// Thread is a conversation about one workspace: its turns in order and the
// evidence their answers cited, numbered 1..n across the whole thread (a
// follow-up's model sees earlier evidence under these numbers and new tool
// results after them, so a number never names two spans in one thread).
// It is plain data: the agent fills it (agent.Agent.AskThread), the store
// keeps it. A Thread is not safe for concurrent use; the store serialises
// turns (Store.BeginTurn).
type Thread struct {
	ID        string     `json:"id"`
	Workspace string     `json:"workspace"`
	Created   time.Time  `json:"created"`
	Updated   time.Time  `json:"updated"`
	Turns     []Turn     `json:"turns"`
	Evidence  []Evidence `json:"evidence"`
}

// Turn is one question of a thread and its answer. Citations are the
// answer's own, numbered 1..k as in Answer; Evidence[i] is the thread
// evidence number of Citations[i].
type Turn struct {
	Question  string               `json:"question"`
	Path      string               `json:"path,omitempty"`
	Line      int                  `json:"line,omitempty"`
	Col       int                  `json:"col,omitempty"`
	Answer    string               `json:"answer"`
	Mode      string               `json:"mode"`
	Refused   bool                 `json:"refused,omitempty"`
	Citations []citations.Citation `json:"citations"`
	Evidence  []int                `json:"evidence"`
	At        time.Time            `json:"at"`
}

// Evidence is a span a thread's answers cited: lines Start..End of Path as
// they were when cited (Text) and the blake3 hash of that text (hex). A
// later turn that cites it again is checked against the current content
// and marked stale when the lines changed.
type Evidence struct {
	N      int    `json:"n"`
	Path   string `json:"path"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Symbol string `json:"symbol,omitempty"`
	Text   string `json:"text"`
	Hash   string `json:"blake3"`
}

// New returns an empty thread of workspace with a fresh id (16 hex
// digits).
func New(workspace string) *Thread {
	var b [8]byte
	_, _ = rand.Read(b[:])
	now := time.Now().UTC()
	return &Thread{ID: hex.EncodeToString(b[:]), Workspace: workspace, Created: now, Updated: now, Turns: []Turn{}, Evidence: []Evidence{}}
}

// Title is the thread's first question, cut to one line of 80 bytes.
func (th *Thread) Title() string {
	if len(th.Turns) == 0 {
		return ""
	}
	q := strings.Join(strings.Fields(th.Turns[0].Question), " ")
	if len(q) > 80 {
		k := 79
		for k > 0 && q[k]&0xC0 == 0x80 {
			k--
		}
		q = q[:k] + "…"
	}
	return q
}
