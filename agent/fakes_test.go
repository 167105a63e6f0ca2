package agent

import (
	"testing"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/internal/memsource"
	"github.com/askls/askls/internal/modeltest"
)

// The loop tests script a fake model server (internal/modeltest). fakeKind
// picks which wire the fake and the agent speak: the same scripts run
// through Ollama's API and through the OpenAI-compatible one
// (TestLoopThroughOpenAI).
var fakeKind = model.ProviderOllama

type (
	reply = modeltest.Reply
	chunk = modeltest.Chunk
	turn  = modeltest.Turn
)

func newFakeOllama(t *testing.T, script ...turn) *modeltest.Server {
	if fakeKind == model.ProviderOpenAI {
		return modeltest.NewOpenAI(t, script...)
	}
	return modeltest.NewOllama(t, script...)
}

// text is a content chunk.
func text(s string) chunk { return modeltest.Text(s) }

// toolCall is a chunk with one tool call.
func toolCall(name, argsJSON string) chunk { return modeltest.CallChunk(name, argsJSON) }

// say replies with text split into small chunks, like a real stream.
func say(s string) turn { return modeltest.Say(s) }

// calls replies with tool calls: name, args, name, args…
func calls(pairs ...string) turn { return modeltest.Calls(pairs...) }

// lastTool returns the content of the last tool message of a request.
func lastTool(req *modeltest.Request) string { return req.LastTool() }

// firstEvidence returns the first evidence number printed in s, 0 if none.
func firstEvidence(s string) int { return modeltest.FirstEvidence(s) }

// memSource is the in-memory workspace of the tests that need no ranking.
type memSource = memsource.Source
