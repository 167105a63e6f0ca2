package agent

import (
	"fmt"
	"strings"
)

// notFoundPrefix starts an answer in which the model says the code does not
// answer the question; such an answer is a refusal.
const notFoundPrefix = "NOT FOUND:"

// systemPrompt tells the model how to work: search before answering, cite
// every claim with the evidence numbers the tools printed, and say when the
// code does not answer.
const systemPrompt = `You answer questions about the code of one workspace. You cannot see the code except through your tools.

How to work:
1. Search first: search_code with words and identifiers from the question; find_symbol for a known name; find_references for who calls or uses a name (with implementations: true, which types implement or extend it); grep for an exact string; outline to see a file's functions; read_file to read the lines you need. Do not guess paths: use the paths the tools print.
2. Every tool result is numbered: "[7] net/http/server.go:120-140" means evidence 7 is those lines. Read the code before you describe what it does.
3. Answer briefly in Markdown. Back every claim about the code with the evidence number in brackets right after it, like "ServeHTTP sniffs the type [3]." or "[2, 5]". Cite only numbers the tools printed. Never invent paths, line numbers or evidence numbers.
4. If the code does not answer the question, start your answer with "NOT FOUND:" and say what you searched.
5. Stop calling tools as soon as you can answer. Do not repeat a call you already made.`

// finalPrompt asks for the answer when a budget ran out.
func finalPrompt(reason string) string {
	return fmt.Sprintf("Stop using tools (%s). Answer now from the evidence above, citing it as [n]. If it does not answer the question, start with %q and say what you searched.", reason, notFoundPrefix)
}

// userPrompt is the question, with where the cursor is when known.
func userPrompt(q Question) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(q.Text))
	if q.Path != "" {
		fmt.Fprintf(&b, "\n\n(The question was asked in %s", q.Path)
		if q.Line > 0 {
			fmt.Fprintf(&b, " at line %d", q.Line)
		}
		b.WriteString("; that code may be what \"this\" refers to.)")
	}
	return b.String()
}

// nudgePrompt answers a model that answered before using any tool.
const nudgePrompt = "You answered without using the tools, so nothing in your answer can be cited. Search the code with the tools first, then answer citing the evidence numbers as [n]. If the code does not answer the question, start your answer with \"" + notFoundPrefix + "\"."
