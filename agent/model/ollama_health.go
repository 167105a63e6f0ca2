package model

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// Health checks the Ollama server and the model: reachable, version, model
// pulled, tools capability, context length.
func (o *ollama) Health(ctx context.Context) Health {
	h := Health{Provider: ProviderOllama, Host: o.cfg.Host, Model: o.cfg.Model, NumCtx: o.cfg.NumCtx}
	vctx, vcancel := context.WithTimeout(ctx, ProbeTimeout)
	v, err := o.client.Version(vctx)
	vcancel()
	if err != nil {
		var me *ModelError
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			h.Problems = append(h.Problems, silentMessage(o.cfg.Host, "Ollama")+": set OLLAMA_HOST (or --ollama-host) to where Ollama listens")
		case errors.As(o.describe(err), &me) && me.Status != 0:
			h.Problems = append(h.Problems, me.Msg)
		case isJSONError(err):
			h.Problems = append(h.Problems, fmt.Sprintf("the server at %s is not Ollama: it answered /api/version with something that is not JSON (check OLLAMA_HOST)", o.cfg.Host))
		default:
			h.Problems = append(h.Problems, fmt.Sprintf("Ollama is not reachable at %s (%v): install it (https://ollama.com/download) and run `ollama serve`, or set OLLAMA_HOST to where it listens", o.cfg.Host, shortErr(err)))
		}
		return h
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	h.Reachable, h.Version = true, v
	if old(v) {
		h.Problems = append(h.Problems, fmt.Sprintf("Ollama %s is older than 0.3, which brought tool calling: upgrade it (https://ollama.com/download)", v))
	}

	list, err := o.client.List(ctx)
	if err != nil {
		h.Problems = append(h.Problems, fmt.Sprintf("listing models failed (%v): check `ollama list`", shortErr(err)))
		return h
	}
	for _, m := range list.Models {
		if sameModel(m.Name, o.cfg.Model) || sameModel(m.Model, o.cfg.Model) {
			h.ModelPresent = true
		}
	}
	if !h.ModelPresent {
		h.Problems = append(h.Problems, fmt.Sprintf("model %s is not pulled: run `ollama pull %s`", o.cfg.Model, o.cfg.Model))
		return h
	}
	show, err := o.client.Show(ctx, &api.ShowRequest{Model: o.cfg.Model})
	if err != nil {
		var se api.StatusError
		if errors.As(err, &se) && se.StatusCode == http.StatusNotFound {
			h.ModelPresent = false
			h.Problems = append(h.Problems, fmt.Sprintf("model %s is not pulled: run `ollama pull %s`", o.cfg.Model, o.cfg.Model))
			return h
		}
		h.Problems = append(h.Problems, fmt.Sprintf("`ollama show %s` failed (%v)", o.cfg.Model, shortErr(err)))
		return h
	}
	for _, c := range show.Capabilities {
		if string(c) == "tools" {
			h.Tools = true
		}
	}
	if !h.Tools {
		h.Problems = append(h.Problems, fmt.Sprintf("model %s cannot call tools: run `ollama pull %s` and pass --model %s (or set \"model\" in the editor settings)", o.cfg.Model, DefaultModel, DefaultModel))
	}
	for k, v := range show.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			if f, ok := v.(float64); ok {
				h.ContextLength = int(f)
			}
		}
	}
	if h.ContextLength > 0 && h.ContextLength < o.cfg.NumCtx {
		h.Problems = append(h.Problems, fmt.Sprintf("model %s has a context of %d tokens, less than num_ctx %d: pass --num-ctx %d (or use a model with a longer context)", o.cfg.Model, h.ContextLength, o.cfg.NumCtx, h.ContextLength))
	}
	return h
}

// old reports whether an Ollama version ("0.2.8") predates tool calling
// (0.3.0). Versions it cannot read are not old.
func old(v string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimPrefix(v, "v"), "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major == 0 && minor < 3
}
