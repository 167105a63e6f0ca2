package rank

// Params holds the parameters of the ranking (index.Ranking is this
// type). The zero value is not useful: start from DefaultParams and
// change fields. index.Options.Ranking passes one to index.Open;
// docs/ranking.md explains each stage and how the defaults were chosen
// (askls-bench eval on the sets in testdata/eval).
type Params struct {
	// SymbolBoost and PathBoost weigh a query term found in a chunk's
	// symbol name or its file's path, against 1 in its text, for words
	// written as code and for short queries.
	SymbolBoost, PathBoost float64
	// SymbolBoostProse and PathBoostProse are the same for the plain
	// words of a longer question: a symbol name is a short field, so one
	// common word there ("Writer") would outscore chunks that hold most
	// of the question.
	SymbolBoostProse, PathBoostProse float64
	// ExactBoost weighs an identifier written as code in the query
	// (maxTokenSize, max_len) matched whole, against its parts (max,
	// token, size), which count PartWeight each.
	ExactBoost, PartWeight float64
	// ExactMissFactor scales the score of a chunk that holds none of the
	// identifiers the query writes as code (maxTokenSize, `Visitor`,
	// max_len), neither in its text nor its path: files that only hold
	// the identifier's parts rank below those that hold it.
	// DefinitionBoost multiplies the score of the chunk that defines
	// one: the definition comes before the uses.
	ExactMissFactor, DefinitionBoost float64
	// PhraseBoost weighs the terms of a quoted phrase.
	PhraseBoost float64
	// QuoteBoost multiplies, in a reranked question, the score of a
	// chunk that holds the phrases the question quotes (in double or
	// single quotes), by the share it holds (quoteFactor).
	QuoteBoost float64
	// QualifiedBoost weighs the definition of a qualified name
	// (errors.Is: the symbol Is in a folder named errors).
	QualifiedBoost float64
	// Priors scale the score of a file's chunks by the file's class
	// (corpus.Classify, and what index knows of the file's root) unless
	// the question asks for that class: tests, prose, generated files,
	// vendored code, packaging, examples, web assets of a project in
	// another language, a library's command-line tools (Priors;
	// TestFactor, ProseFactor, … in --tune).
	Priors
	// DeclFactor scales, in a question (not a lookup), the score of a
	// unit that declares rather than does: a type, struct, interface,
	// constant, variable or a package's doc comment. Their prose matches
	// a question's words; the code that answers "how" or "where" is
	// usually a function.
	// DeclFileFactor is the same for the score a declaration adds to its
	// file's: the file often holds the answer beside the declaration.
	DeclFactor, DeclFileFactor float64
	// DocBoost multiplies, in a question about documentation or one that
	// asks for an overview, the score of a package's doc comment and of
	// prose: the chunks of a long explanation are long, and tf-idf ranks
	// them below short code that happens to hold the same words.
	DocBoost float64
	// NameBoost adds to a file's score, as a share of it, when its file
	// or folder name holds a word of the question (session/store.go for
	// "how are sessions stored").
	NameBoost float64
	// DirectionFactor weighs a candidate named for the other direction
	// of an operation than the one the question names (an encoder for a
	// question about decoding; rank.Direction; 1: off).
	DirectionFactor float64
	// FileSecondWeight is how much a file's other matching chunks add to
	// its best chunk's score when files are ranked.
	FileSecondWeight float64
	// FileDecay weighs each further chunk of one file when chunks are
	// ordered (rank.FileParams.Decay): a file's k-th best chunk is ordered
	// by its file's score times its share of the file's best chunk times
	// FileDecay^k. Below 1 the first page covers more files; the default
	// is 1, no decay (docs/ranking.md, "Files and diversity").
	FileDecay float64
	// NarrowKeep: a hit on a merged chunk is narrowed to its best unit
	// and the adjacent units scoring at least NarrowKeep of it (0: the
	// best only).
	NarrowKeep float64
	// CoveragePower: reranked candidates score bleve × coverage^power,
	// coverage being the share of the question's terms a chunk holds.
	CoveragePower float64
	// ProximityBoost: a reranked candidate's score is multiplied by
	// 1 + ProximityBoost × the share of the question's adjacent word
	// pairs it holds side by side (proximity.go; 0: off).
	ProximityBoost float64
	// VocabWeight is the weight in the query of the words code writes
	// for a plain word of the question (vocab.go: conn for connection),
	// against the word's own (0: off).
	VocabWeight float64
	// AbbrevWeight is the weight in the query of the workspace's
	// identifier parts that abbreviate a plain word of the question
	// (param for parameters; index/abbrev.go), at least AbbrevMinLen
	// bytes long, against the word's own (0: off). The rerank counts
	// such a part as the word (the larger of the two counts).
	AbbrevWeight float64
	AbbrevMinLen int
	// LookupPartPostings: in a lookup, a part of an identifier written
	// as code that more than this many chunks hold in their content is
	// asked for in names and paths only (0: in content too).
	LookupPartPostings int
	// DelegationShare: each of the first hits that is a thin wrapper is
	// followed by the units of its file it calls, scored this share of
	// it (delegate.go; 0: off).
	DelegationShare float64
	// CalleeShare: each other of the first hits is followed by the units
	// of its file it calls, scored this share of it times the square
	// root of the share of the question's terms each holds, and placed
	// among the other hits by that score (delegate.go; 0: off).
	CalleeShare float64
	// RerankPool is the least number of candidates reranked; queries of
	// fewer than RerankMinTerms terms are ranked by bleve alone.
	RerankPool, RerankMinTerms int
	// PoolIDF weighs each term in coverage by its rarity among the
	// reranked candidates (poolIDF); else each term counts 1.
	PoolIDF bool
	// FeedbackWeight is the pseudo-relevance feedback query's share (0:
	// off); FeedbackDocs chunks are taken as relevant and give
	// FeedbackTerms terms (feedback.go).
	FeedbackWeight              float64
	FeedbackDocs, FeedbackTerms int
	// TextWeight is the share of a reranked candidate's base score that
	// comes from BM25 over its text (bm25.go) with k1 BM25K1 and b BM25B,
	// a term in a unit's name counting BM25Symbol times, against bleve's
	// tf-idf (0: bleve's alone).
	TextWeight, BM25K1, BM25B, BM25Symbol float64
	// CommentWeight: in the text score and in the narrowing of a hit to
	// its unit, a term on a comment line counts this much of one on a
	// line of code (comments.go; 1: alike).
	CommentWeight float64
}

// DefaultParams returns the parameters index's Search uses unless
// index.Options.Ranking says otherwise.
func DefaultParams() Params {
	return Params{
		SymbolBoost: 1.5, PathBoost: 1.5,
		SymbolBoostProse: 1.5, PathBoostProse: 1.5,
		ExactBoost: 3, PartWeight: 0.3,
		ExactMissFactor: 0.3, DefinitionBoost: 2,
		PhraseBoost: 2, QuoteBoost: 2,
		QualifiedBoost: 3,
		Priors:         DefaultPriors(),
		DeclFactor:     0.3, DeclFileFactor: 1,
		DocBoost:         8,
		NameBoost:        0,
		DirectionFactor:  0.5,
		FileSecondWeight: 0.15,
		FileDecay:        1,
		NarrowKeep:       0.5,
		CoveragePower:    0.5, ProximityBoost: 2,
		VocabWeight: 0.5, DelegationShare: 0.9, CalleeShare: 0.5,
		AbbrevWeight: 0.5, AbbrevMinLen: 4, LookupPartPostings: 7000,
		RerankPool: 200, RerankMinTerms: 5, PoolIDF: true,
		FeedbackWeight: 0.2, FeedbackDocs: 10, FeedbackTerms: 5,
		TextWeight: 0.5, BM25K1: 3, BM25B: 0.75, BM25Symbol: 5, CommentWeight: 0.5,
	}
}
