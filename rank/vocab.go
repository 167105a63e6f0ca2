package rank

// Code's own words: a question says "connection", "context", "lock";
// code says conn, ctx, mutex. Each plain word of a question with an
// entry here also queries the words code writes for it, at
// Params.VocabWeight of the word's own weight. The index's terms are
// whole identifier parts, so "conn" meets Conns in
// DefaultMaxIdleConnsPerHost but never "connected", and "dir" never
// "direct".
//
// The table holds the forms no rule finds. A prefix of the word's term
// that the workspace's symbols hold (param, resp, desc, proc) is found
// per workspace (index/abbrev.go, Params.AbbrevWeight) and needs no
// entry here. Left out on measurement: request → req, response → res
// (with resp and param, they moved the broad benchmark's development
// half down, 0.398 → 0.395, docs/ranking.md).

// vocab maps a term (an analysed word: lower case, stemmed) to the
// terms code writes for it, analysed the same way. It is written as
// words; analysedVocab turns them into terms.
var vocab = analysedVocab(map[string][]string{
	"address":        {"addr"},
	"allocation":     {"alloc"},
	"argument":       {"arg"},
	"attribute":      {"attr"},
	"authentication": {"auth"},
	"buffer":         {"buf"},
	"certificate":    {"cert"},
	"command":        {"cmd"},
	"configuration":  {"config", "cfg", "conf"},
	"connection":     {"conn"},
	"context":        {"ctx"},
	"database":       {"db"},
	"destination":    {"dst"},
	"directory":      {"dir"},
	"environment":    {"env"},
	"error":          {"err"},
	"index":          {"idx"},
	"initialize":     {"init"},
	"length":         {"len"},
	"library":        {"lib"},
	"lock":           {"mutex"},
	"message":        {"msg"},
	"mutex":          {"lock"},
	"number":         {"num"},
	"package":        {"pkg"},
	"pointer":        {"ptr"},
	"previous":       {"prev"},
	"repository":     {"repo"},
	"source":         {"src"},
	"synchronize":    {"sync"},
	"temporary":      {"tmp", "temp"},
	"value":          {"val"},
})

// analysedVocab keys each word's list by the word's term.
func analysedVocab(words map[string][]string) map[string][]string {
	out := make(map[string][]string, len(words))
	for w, alts := range words {
		if toks := Terms(w); len(toks) == 1 {
			out[toks[0]] = alts
		}
	}
	return out
}

// CodeWords returns the terms code writes for the term of a plain word
// of a question (conn for connection), or nil.
func CodeWords(term string) []string { return vocab[term] }
