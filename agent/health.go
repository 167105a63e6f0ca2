package agent

import (
	"context"

	"github.com/askls/askls/agent/model"
)

// Health checks the configured provider's server and model. Each problem
// says what to run or set.
func (a *Agent) Health(ctx context.Context) model.Health {
	if a.providerErr != nil {
		h := model.Health{Provider: a.cfg.Provider, Host: a.cfg.Host, Model: a.cfg.Model, NumCtx: a.cfg.NumCtx}
		if a.cfg.Provider == model.ProviderOpenAI {
			h.Host = a.cfg.BaseURL
		}
		h.Problems = append(h.Problems, a.providerErr.Error())
		return h
	}
	return a.provider.Health(ctx)
}
