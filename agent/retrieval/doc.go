// Package retrieval writes the answer given without a model (retrieval
// mode): the units of code that best match a question, each cited on the
// lines that match it, under a header saying that no model wrote it.
// It picks the definitions of the identifiers the question writes as
// code and the symbol at the cursor first (definitions.go), then the
// ranked search hits weighed unit by unit (choose.go, package unit), then
// where the named functions are called (calls.go), every caller or use
// when the question asks for them (uses.go), or the types that implement
// a type (implementations_answer.go).
// A follow-up that names nothing itself builds on the symbol the previous
// turn cited (followup.go). Evidence goes into the question's
// citations.Registry through its tools.Box, so the agent checks the
// answer as it checks a model's.
//
// Concurrency: Write runs on the caller's goroutine and keeps no state
// between calls; the Box and Registry it is given belong to one question.
package retrieval
