package modeltest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Request is a chat request as either fake received it.
type Request struct {
	Model    string
	Messages []Message
	Tools    []string // the tools offered, by name
	Header   map[string]string
	Raw      []byte // the request body
}

// Message is one message of a Request.
type Message struct {
	Role       string
	Content    string
	ToolName   string
	ToolCallID string
	ToolCalls  []Call
}

// Call is one whole tool call: Args is a JSON object's text.
type Call struct {
	ID, Name, Args string
}

// Delta is a piece of a streamed OpenAI tool call: the first piece of a
// call carries Index, ID and Name, the next ones more of Args.
type Delta struct {
	Index          int
	ID, Name, Args string
}

// Chunk is one streamed message: text, whole calls, or (OpenAI only) raw
// call deltas. Hold stops the stream there until Release is called or the
// client goes away (Server.Cancelled then gets a value).
type Chunk struct {
	Text   string
	Calls  []Call
	Deltas []Delta
	Hold   bool
}

// Reply is the answer to one chat request.
type Reply struct {
	// Status non-zero: answer with this status and the server's error
	// shape holding Error, or Body as is (ContentType default text/html).
	Status      int
	Error       string
	Body        string
	ContentType string
	RetryAfter  string // Retry-After header with Status

	Chunks   []Chunk
	MidError string // after the chunks: an error in the stream's own shape
	Die      bool   // after the chunks: drop the connection without an end
	Block    bool   // after the chunks: wait until the client goes away

	Finish string // finish reason / done_reason; default "stop" or "tool_calls"
}

// Turn answers one chat request.
type Turn func(req *Request) Reply

// Text is a chunk of assistant text.
func Text(s string) Chunk { return Chunk{Text: s} }

// CallChunk is a chunk with whole tool calls: name, args, name, args…
func CallChunk(pairs ...string) Chunk {
	var c Chunk
	for i := 0; i+1 < len(pairs); i += 2 {
		c.Calls = append(c.Calls, Call{ID: fmt.Sprintf("call_%d", i/2), Name: pairs[i], Args: pairs[i+1]})
	}
	return c
}

// Say replies with text split into small chunks, like a real stream.
func Say(s string) Turn {
	return func(*Request) Reply { return Reply{Chunks: Split(s, 7)} }
}

// Split cuts s into text chunks of n bytes.
func Split(s string, n int) []Chunk {
	var out []Chunk
	for len(s) > n {
		out = append(out, Text(s[:n]))
		s = s[n:]
	}
	return append(out, Text(s))
}

// Calls replies with tool calls: name, args, name, args…
func Calls(pairs ...string) Turn {
	return func(*Request) Reply { return Reply{Chunks: []Chunk{CallChunk(pairs...)}} }
}

// LastTool returns the content of the request's last tool message.
func (r *Request) LastTool() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "tool" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// FirstEvidence returns the first evidence number ("[n] " at a line
// start) printed in s, 0 if none.
func FirstEvidence(s string) int {
	for _, line := range strings.Split(s, "\n") {
		var id int
		if strings.HasPrefix(line, "[") {
			if _, err := fmt.Sscanf(line, "[%d] ", &id); err == nil {
				return id
			}
		}
	}
	return 0
}

func argsObject(s string) json.RawMessage {
	if strings.TrimSpace(s) == "" {
		return json.RawMessage("{}")
	}
	return json.RawMessage(s)
}
