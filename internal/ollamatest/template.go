package ollamatest

// templateMarkers are the template's role markers; each is one token.
var templateMarkers = []string{"<|system|>", "<|tools|>", "<|user|>", "<|assistant|>", "<|tool|>"}

// ToolTemplate is the chat template of scripted models. It renders .Tools
// and .ToolCalls, so Ollama reports the model as supporting tools and
// learns from the .ToolCalls range that a reply {"name": …, "arguments": …}
// is a tool call. It ends with <|stepN|>, N the number of tool calls in the
// conversation: the model's next token depends only on that marker.
//
// The counting loop comes after the rendering loop on purpose: Ollama takes
// the first range over .ToolCalls as the tool-call format.
const ToolTemplate = `{{- if .System }}<|system|>{{ .System }}
{{ end }}
{{- if .Tools }}<|tools|>{{ range .Tools }}{{ .Function.Name }} {{ end }}
{{ end }}
{{- range .Messages }}
{{- if eq .Role "user" }}<|user|>{{ .Content }}
{{ else if eq .Role "assistant" }}<|assistant|>{{ .Content }}{{ range .ToolCalls }}{"name": "{{ .Function.Name }}", "arguments": {{ json .Function.Arguments }}}{{ end }}
{{ else if eq .Role "tool" }}<|tool|>{{ .Content }}
{{ end }}
{{- end }}
{{- $calls := "" }}{{ range .Messages }}{{ range .ToolCalls }}{{ $calls = print $calls "x" }}{{ end }}{{ end -}}
<|assistant|><|step{{ len $calls }}|>`

// NoToolsTemplate renders the conversation without .Tools: Ollama answers
// a chat request that has tools with 400 "… does not support tools".
const NoToolsTemplate = `{{- range .Messages }}<|{{ .Role }}|>{{ .Content }}
{{ end }}<|assistant|><|step0|>`

// NoTools returns m with the template that does not render tools.
func (m *Model) NoTools() *Model {
	c := *m
	c.Template = NoToolsTemplate
	return &c
}
