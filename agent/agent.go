package agent

import (
	"context"
	"errors"

	"github.com/askls/askls/index"
)

// DefaultModel is the model used when Config.Model is empty; see the README
// for why.
const DefaultModel = "qwen3:4b"

// Agent answers questions. Create it with New.
type Agent struct {
	cfg Config
}

// New returns an Agent with cfg's defaults filled in.
func New(cfg Config) *Agent {
	return &Agent{cfg: cfg}
}

// Ask answers q from snap. The error is non-nil only when the answer could
// not be produced at all (ctx ended: ctx.Err()).
func (a *Agent) Ask(ctx context.Context, snap *index.Snapshot, q Question, ev Events) (*Result, error) {
	return nil, errors.New("agent: not built yet")
}

// Health checks the Ollama server and the model.
func (a *Agent) Health(ctx context.Context) Health {
	return Health{Model: a.cfg.Model}
}
