package model

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// maxListedModels caps Health.Models.
const maxListedModels = 20

// Health lists the server's models (/v1/models) within ProbeTimeout and
// checks that the configured model is among them. Whether the model calls
// tools cannot be asked of an OpenAI-compatible server: the first answer
// shows it (text tool calls are accepted too).
func (p *openaiProvider) Health(ctx context.Context) Health {
	h := Health{Provider: ProviderOpenAI, Host: p.base, Model: p.cfg.Model, NumCtx: p.cfg.NumCtx}
	if p.cfg.Model == "" {
		h.Problems = append(h.Problems, "no model for the openai provider: pass --model (or set askls.model) to one the server serves")
	}
	lctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	ids, err := p.models(lctx)
	if err != nil {
		var me *ModelError
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			h.Problems = append(h.Problems, silentMessage(p.base, "an OpenAI-compatible server")+": check --base-url")
		case errors.As(p.describe(err), &me) && me.Status != 0:
			h.Problems = append(h.Problems, me.Msg)
		case errors.Is(err, errNotJSON):
			h.Problems = append(h.Problems, fmt.Sprintf("the server at %s is not an OpenAI-compatible API: its /models answer is not the expected JSON (the base URL usually ends in /v1)", p.base))
		default:
			h.Problems = append(h.Problems, p.describe(err).Error())
		}
		return h
	}
	h.Reachable = true
	for _, id := range ids {
		if len(h.Models) < maxListedModels {
			h.Models = append(h.Models, id)
		}
		if id == p.cfg.Model || sameModel(id, p.cfg.Model) {
			h.ModelPresent = true
		}
	}
	if !h.ModelPresent && p.cfg.Model != "" {
		served := "no models"
		if len(h.Models) > 0 {
			served = strings.Join(h.Models, ", ")
		}
		h.Problems = append(h.Problems, fmt.Sprintf("model %s is not served by %s (it lists %s): pass --model with one of them", p.cfg.Model, p.base, served))
	}
	return h
}
