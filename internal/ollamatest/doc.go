// Package ollamatest runs askls against a real Ollama server with a tiny,
// deterministic model that it writes itself.
//
// It owns three things:
//
//   - gguf.go: a small GGUF v3 writer (header, key/value metadata, tensor
//     infos, 32-byte aligned float32 tensor data), written from the format's
//     documentation; the Ollama v0.6.5 server is the judge of it.
//   - model.go, template.go, words.go: a generator that turns a Script (the
//     tool calls to make, turn by turn, and the final answer text with [n]
//     citations) into a llama-architecture model whose replies are exactly
//     the script, plus the chat template and Modelfile that go with it;
//     Random writes the same vocabulary with random weights.
//   - server.go: a harness that finds the Ollama binary (built by
//     .ci/install.d/ollama.sh), starts it on 127.0.0.1 with a temporary HOME
//     and OLLAMA_MODELS, creates models, and stops it by PID.
//   - fixture.go: the txtar fixture trees of the end-to-end tests
//     (testdata/*.txtar), written into temporary directories.
//
// The TestRealOllama… tests here check the server side (tool_calls,
// errors, the pinned Go client); cmd/askls/realollama_test.go runs askls
// itself against the server.
//
// How a scripted model works: every attention and feed-forward output weight
// is zero, so only the current token reaches the output layer. Each token's
// embedding is a one-hot vector naming the class of the token that must come
// next, and output.weight scores exactly that next token, so greedy decoding
// (and any sampling, the margin is large) follows the script. The template
// ends the prompt with a marker <|stepN|>, N the number of tool calls made so
// far, so one model first emits its tool calls and, after their results,
// the answer. The template renders .Tools and .ToolCalls, which is how the
// server learns to parse the reply into tool_calls.
//
// Nothing here is safe for concurrent use except Server, whose methods may be
// called from parallel tests.
package ollamatest
