package lsp

import "github.com/askls/askls/internal/modeltest"

// replyWith is a model turn that streams chunks (text, or a Hold that
// keeps the answer in flight until Release).
func replyWith(chunks ...modeltest.Chunk) modeltest.Turn {
	return func(*modeltest.Request) modeltest.Reply { return modeltest.Reply{Chunks: chunks} }
}
