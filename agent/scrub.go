package agent

import (
	"github.com/askls/askls/agent/model"
)

// scrub masks the credentials in text with the agent's own key.
func (a *Agent) scrub(text string) string { return model.Scrub(text, a.cfg.APIKey) }

// scrubResult masks the credentials in what a Result and its thread turn
// keep as text: the answer, the notice, the question.
func (a *Agent) scrubResult(res *Result) {
	if res == nil {
		return
	}
	res.Answer = a.scrub(res.Answer)
	res.Notice = a.scrub(res.Notice)
	res.Question = a.scrub(res.Question)
}
