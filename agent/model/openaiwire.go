package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The OpenAI chat completions wire, as much of it as askls sends and
// reads. Fields a server adds are ignored.

type oaRequest struct {
	Model         string      `json:"model"`
	Messages      []oaMessage `json:"messages"`
	Tools         []oaTool    `json:"tools,omitempty"`
	Stream        bool        `json:"stream"`
	StreamOptions *oaStream   `json:"stream_options,omitempty"`
	Temperature   float64     `json:"temperature"`
}

type oaStream struct {
	IncludeUsage bool `json:"include_usage"`
}

type oaMessage struct {
	Role       string       `json:"role"`
	Content    *string      `json:"content,omitempty"` // absent on an assistant turn of only tool calls
	ToolCalls  []oaToolCall `json:"tool_calls,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
}

type oaToolCall struct {
	Index    int    `json:"index"` // in stream deltas only
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type oaTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
	} `json:"function"`
}

// oaChunk is one streamed chunk, or a whole unstreamed answer (Message
// instead of Delta).
type oaChunk struct {
	Choices []struct {
		Index        int      `json:"index"`
		Delta        oaDelta  `json:"delta"`
		Message      *oaDelta `json:"message"`
		FinishReason string   `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

type oaDelta struct {
	Content   string       `json:"content"`
	ToolCalls []oaToolCall `json:"tool_calls"`
}

// chatBody is the request of one streamed turn.
func chatBody(model string, req ChatRequest) oaRequest {
	body := oaRequest{Model: model, Stream: true, StreamOptions: &oaStream{IncludeUsage: true}}
	for _, m := range req.Messages {
		om := oaMessage{Role: m.Role}
		if m.Role == "tool" {
			om.ToolCallID = m.ToolCallID
		}
		if m.Content != "" || len(m.ToolCalls) == 0 {
			c := m.Content
			om.Content = &c
		}
		for _, tc := range m.ToolCalls {
			call := oaToolCall{ID: tc.ID, Type: "function"}
			call.Function.Name = tc.Name
			b, _ := json.Marshal(tc.Args)
			if tc.Args == nil {
				b = []byte("{}")
			}
			call.Function.Arguments = string(b)
			om.ToolCalls = append(om.ToolCalls, call)
		}
		body.Messages = append(body.Messages, om)
	}
	for _, t := range req.Tools {
		var ot oaTool
		ot.Type = "function"
		ot.Function.Name, ot.Function.Description, ot.Function.Parameters = t.Name, t.Description, t.Schema()
		body.Tools = append(body.Tools, ot)
	}
	return body
}

// streamError is an error the server sent inside the stream.
type streamError struct{ msg string }

func (e *streamError) Error() string { return "error in the stream: " + e.msg }

// errorMessage reads {"message": …} or a plain string.
func errorMessage(raw json.RawMessage) string {
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s
	}
	return string(raw)
}

// maxEvent caps one server-sent event (and an unstreamed answer).
const maxEvent = 8 << 20

// errStreamDone ends readEvents at "data: [DONE]".
var errStreamDone = errors.New("[DONE]")

// readEvents reads server-sent events from r and passes each event's data
// to fn, until "[DONE]", the end of the body, or an error. Comment lines
// and other fields are skipped; data lines of one event are joined by
// newlines, as the format says.
func readEvents(r io.Reader, fn func(data []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEvent)
	var data []byte
	flush := func() error {
		if len(data) == 0 {
			return nil
		}
		d := bytes.TrimSpace(data)
		data = data[:0]
		if bytes.Equal(d, []byte("[DONE]")) {
			return errStreamDone
		}
		return fn(d)
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if err := flush(); err != nil {
				return ignoreDone(err)
			}
			continue
		}
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading the stream: %w", err)
	}
	return ignoreDone(flush())
}

func ignoreDone(err error) error {
	if errors.Is(err, errStreamDone) {
		return nil
	}
	return err
}
