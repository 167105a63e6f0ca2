package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/index"
)

// Agent answers questions. Create it with New; it is safe for concurrent
// use.
type Agent struct {
	cfg         Config
	provider    model.Provider // nil when the configuration is unusable
	providerErr error          // why, then
}

// New returns an Agent with cfg's defaults filled in. It does not contact
// the model server.
func New(cfg Config) *Agent {
	cfg = cfg.withDefaults()
	a := &Agent{cfg: cfg}
	p, err := model.New(cfg.modelConfig())
	if err != nil {
		a.providerErr = err
		a.cfg.Host, a.cfg.BaseURL = model.ShownURL(cfg.Host), model.ShownURL(cfg.BaseURL) // shown, never used
		return a
	}
	// The addresses as the provider uses them (normalized, credentials
	// masked), for messages.
	switch p.Name() {
	case model.ProviderOllama:
		a.cfg.Host = p.Endpoint()
	case model.ProviderOpenAI:
		a.cfg.BaseURL = p.Endpoint()
	}
	a.provider = p
	return a
}

// Config returns the configuration in use, defaults filled in.
func (a *Agent) Config() Config { return a.cfg }

// MaxQuestionBytes is the longest question Ask takes, in every mode: the
// index's query limit, so that a retrieval answer can search for it.
const MaxQuestionBytes = 4096

// Ask answers q from snap. It returns an error only when no answer can be
// given at all: ctx ended (ctx.Err()), or the question is empty or longer
// than MaxQuestionBytes (index.ErrBadQuery). Model failures fall back to
// retrieval mode, with Result.Notice saying why.
func (a *Agent) Ask(ctx context.Context, snap *index.Snapshot, q Question, ev Events) (*Result, error) {
	if snap == nil {
		return nil, errors.New("agent: no snapshot")
	}
	return a.ask(ctx, snap, q, ev)
}

func (a *Agent) ask(ctx context.Context, src tools.Source, q Question, ev Events) (*Result, error) {
	return a.askIn(ctx, src, nil, q, ev)
}

// askIn answers q, as the next turn of th when th is not nil; the turn is
// appended to th only when an answer is given.
func (a *Agent) askIn(ctx context.Context, src tools.Source, th *Thread, q Question, ev Events) (*Result, error) {
	r := newRun(a, src, q, ev)
	if th != nil {
		r.seed(th)
	}
	res, err := r.choose(ctx, q)
	a.scrubResult(res)
	if err == nil && th != nil {
		r.record(res)
		res.Thread = th.ID
	}
	return res, err
}

// choose runs the ask in the mode the configuration allows.
func (r *run) choose(ctx context.Context, q Question) (*Result, error) {
	a := r.a
	if strings.TrimSpace(q.Text) == "" {
		return nil, errors.New("agent: empty question")
	}
	if len(q.Text) > MaxQuestionBytes {
		return nil, fmt.Errorf("%w: the question is %d bytes long, the limit is %d", index.ErrBadQuery, len(q.Text), MaxQuestionBytes)
	}
	if a.cfg.NoModel {
		return r.retrieval(ctx, "")
	}
	if a.providerErr != nil {
		return r.retrieval(ctx, a.providerErr.Error())
	}
	if a.cfg.Model == "" {
		return r.retrieval(ctx, fmt.Sprintf("no model for the %s provider: pass --model (or set askls.model)", a.cfg.Provider))
	}
	if msg := a.provider.Probe(ctx); msg != "" {
		return r.retrieval(ctx, msg)
	}
	res, err := r.model(ctx)
	var unavailable *unavailableError
	if errors.As(err, &unavailable) {
		return r.retrieval(ctx, unavailable.Error())
	}
	return res, err
}

// unavailableError means the model could not be used at all: fall back to
// retrieval mode.
type unavailableError struct{ msg string }

func (e *unavailableError) Error() string { return e.msg }

// classify turns a model error into the message a user needs, and whether
// the model is unusable (rather than failing mid-answer).
func classify(err error) (string, bool) {
	var me *model.ModelError
	if errors.As(err, &me) {
		return me.Msg, me.Unusable
	}
	return fmt.Sprintf("the model failed: %v", err), false
}
