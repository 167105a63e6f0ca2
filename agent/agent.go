package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/askls/askls/index"
)

// Agent answers questions. Create it with New; it is safe for concurrent
// use.
type Agent struct {
	cfg     Config
	client  *api.Client // nil when the host is malformed
	hostErr error
}

// New returns an Agent with cfg's defaults filled in. It does not contact
// Ollama.
func New(cfg Config) *Agent {
	cfg = cfg.withDefaults()
	a := &Agent{cfg: cfg}
	u, err := hostURL(cfg.Host)
	if err != nil {
		a.hostErr = err
		return a
	}
	a.cfg.Host = u.String()
	a.client = api.NewClient(u, &http.Client{})
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

func (a *Agent) ask(ctx context.Context, src source, q Question, ev Events) (*Result, error) {
	r := newRun(a, src, q, ev)
	if strings.TrimSpace(q.Text) == "" {
		return nil, errors.New("agent: empty question")
	}
	if len(q.Text) > MaxQuestionBytes {
		return nil, fmt.Errorf("%w: the question is %d bytes long, the limit is %d", index.ErrBadQuery, len(q.Text), MaxQuestionBytes)
	}
	if a.cfg.NoModel {
		return r.retrieval(ctx, "")
	}
	if a.hostErr != nil {
		return r.retrieval(ctx, a.hostErr.Error())
	}
	if msg := a.probe(ctx); msg != "" {
		return r.retrieval(ctx, msg)
	}
	res, err := r.model(ctx)
	var unavailable *unavailableError
	if errors.As(err, &unavailable) {
		return r.retrieval(ctx, unavailable.Error())
	}
	return res, err
}

// probeTimeout bounds the /api/version probe before an answer. Ollama
// answers it at once even while it loads a model.
var probeTimeout = 5 * time.Second

// probe asks the server its version before the first model turn, so that
// a host that accepts connections and never answers (another program on
// the port, a hung server) is found in seconds, not after the whole time
// limit with a "model" answer that searched nothing. It returns why the
// model cannot be used, or "" to go on. Only silence counts: every other
// failure is left to the chat request, which names it precisely.
func (a *Agent) probe(ctx context.Context) string {
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	_, err := a.client.Version(pctx)
	if err == nil || ctx.Err() != nil || !errors.Is(pctx.Err(), context.DeadlineExceeded) {
		return ""
	}
	return fmt.Sprintf("Ollama at %s did not answer within %s: is it an Ollama server? (`askls doctor` checks)", a.cfg.Host, probeTimeout)
}

// unavailableError means the model could not be used at all: fall back to
// retrieval mode.
type unavailableError struct{ msg string }

func (e *unavailableError) Error() string { return e.msg }

// classify turns a model error into the message a user needs, and whether
// the model is unusable (rather than failing mid-answer).
func (r *run) classify(err error) (string, bool) {
	var se api.StatusError
	if errors.As(err, &se) {
		switch {
		case se.StatusCode == http.StatusNotFound:
			return fmt.Sprintf("model %s is not available on %s: run `ollama pull %s`", r.cfg.Model, r.cfg.Host, r.cfg.Model), true
		case se.StatusCode == http.StatusBadRequest && strings.Contains(se.ErrorMessage, "does not support tools"):
			return fmt.Sprintf("model %s cannot call tools: run `ollama pull %s` and use --model %s", r.cfg.Model, DefaultModel, DefaultModel), true
		default:
			return fmt.Sprintf("Ollama at %s answered %d: %s", r.cfg.Host, se.StatusCode, se.ErrorMessage), true
		}
	}
	if strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "no such host") ||
		strings.Contains(err.Error(), "dial tcp") {
		return fmt.Sprintf("no Ollama server at %s: run `ollama serve` (or set OLLAMA_HOST)", r.cfg.Host), true
	}
	return fmt.Sprintf("the model failed: %v", err), false
}
