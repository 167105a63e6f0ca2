package index

// This file is the contract the rest of askls codes against. The agent,
// citations and lsp packages use only what is declared here; change a
// signature only together with its callers.

import (
	"context"
	"log/slog"
	"time"

	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
	"github.com/askls/askls/rank"
)

// Options configure an Index. Zero values mean the documented defaults.
type Options struct {
	// Roots are the workspace roots, absolute or relative to the working
	// directory. At least one is required. With one root, paths in the API
	// are slash-separated and relative to it ("net/http/server.go"). With
	// several, each path starts with its root's name ("app/main.go",
	// "lib/x.go"); RootName disambiguates equal base names.
	Roots []string
	// CacheDir holds one persisted index per root. Default:
	// os.UserCacheDir()/askls (see CacheDir).
	CacheDir string
	// ConfigDir is the user's configuration folder, where git's global
	// ignore file is looked for ($XDG_CONFIG_HOME as the command reads
	// it). Default: ~/.config, as git does.
	ConfigDir string
	// MaxFileBytes skips larger files (counted in Stats). Default 1 MiB.
	MaxFileBytes int64
	// Exclude adds gitignore-syntax patterns to the ignore rules.
	Exclude []string
	// IncludeVendor indexes vendored dependency folders (vendor/,
	// third_party/) that are skipped by default.
	IncludeVendor bool
	// Debounce is how long the writer waits to coalesce edits to the same
	// file before indexing them. Default 50ms.
	Debounce time.Duration
	// Logger receives structured logs. Default: slog.Default().
	Logger *slog.Logger
	// Progress, when set, is called from the indexing goroutine during Sync.
	Progress func(Progress)
	// Ranking sets the parameters of Search. Default: DefaultRanking().
	Ranking *Ranking
	// Runtime, when set, is told of the index's bulk work so that the
	// program owning the process can tune the Go runtime around it (the
	// askls commands pass internal/memtune's). The index itself never
	// changes process-wide settings. Nil: nothing is tuned.
	Runtime RuntimeTuner
	// MaxFiles and MaxTotalBytes are the walk's budget per root: a Sync
	// that finds more files to index (after the ignore, name and size
	// rules), or more bytes in them, stops with an error wrapping
	// ErrOverBudget that names the root and the budget. Defaults 500,000
	// files and 8 GiB; negative: no limit.
	MaxFiles      int
	MaxTotalBytes int64
	// AllowBroadRoots indexes a root that is the file system's root or the
	// user's home folder. Without it such a root is not walked: only its
	// open buffers are indexed and read (see BroadRoot and Notices).
	AllowBroadRoots bool
	// SymbolsOnDemand makes the symbol table ready (read from the cache
	// folder, else built and kept there) at the first Symbols call
	// instead of in the background after each Sync that publishes a new
	// table. For a process that may never look up a symbol (askls index,
	// askls search): on a kernel tree the table holds 2.9 million symbols.
	// A first build with it still builds and keeps the table at its end,
	// so that the next process reads it. A server leaves it false so that
	// its first symbol lookup is fast.
	SymbolsOnDemand bool
	// WalkAtOpen makes Open start the first Sync's walk of the roots at
	// once, beside reading the manifests and opening bleve: a warm start
	// then takes about the longer of the two instead of their sum. Set it
	// only when Sync follows Open at once (the workspace does): a file
	// changed between the walk and that Sync is seen by the next one.
	WalkAtOpen bool
	// OnDamaged, when set, is called (once per Index, from the goroutine
	// of the search) when a search panicked and the persisted index was
	// found damaged (ErrDamaged): the search returned an error instead, the
	// cache is marked, and the next Open rebuilds it. A server reopens the
	// index then.
	OnDamaged func(error)
}

// RuntimeTuner hears of an index's bulk work. Its methods may be called
// from several goroutines and several indexes at once.
type RuntimeTuner interface {
	// BulkLoad is called as a Sync starts; the index calls the function it
	// returns as the Sync ends, with the number of files it indexed.
	BulkLoad() (end func(indexed int))
	// Decode is called as a manifest starts to decode (one large burst of
	// allocation); the index calls the function it returns when done.
	Decode() (end func())
	// SymbolTableBuilt is called when a symbol table of n symbols is
	// built: its build allocates several times what the table keeps,
	// which a tuner may give back to the system.
	SymbolTableBuilt(n int)
}

// Progress reports a Sync in flight.
type Progress struct {
	Phase string // "walk", "hash", "index", "done"
	Done  int    // files processed in this phase
	Total int    // files in this phase, 0 when not yet known
}

// SyncStats summarises one Sync.
type SyncStats struct {
	Files     int            // files in the index after the sync
	Unchanged int            // trusted by size+mtime or equal hash
	Indexed   int            // (re)chunked and (re)indexed
	Removed   int            // deleted from the index
	Chunks    int            // chunks written in this sync
	Skipped   map[string]int // reason ("binary", "too large", "secret", "unreadable", "not utf-8", ...) -> count
	// IgnoreNotes explain a walk that ignore rules emptied or nearly
	// emptied, naming the file, line and pattern of the rule (see
	// walker.ignoreNotes); usually empty.
	IgnoreNotes []string
	Duration    time.Duration
}

// Stats describe the index as it is now.
type Stats struct {
	Roots      []string
	Files      int
	Chunks     int
	Symbols    int
	Generation uint64
	DiskBytes  int64
	Ready      bool // the first Sync has finished
}

// Filter narrows a Search.
type Filter struct {
	PathGlob  string   // e.g. "net/http/**" or "*.go"; empty = all
	Languages []string // e.g. "go", "python"; empty = all
	NoTests   bool     // leave out test files (_test.go, test_*.py, *.spec.ts, testdata/)
	Explain   bool     // fill each Hit's Explain: what each ranking stage did to its score
}

// Hit is one ranked search result: a chunk.
type Hit struct {
	Path     string  `json:"path"`
	Start    int     `json:"start"` // 1-based, inclusive
	End      int     `json:"end"`   // 1-based, inclusive
	Symbol   string  `json:"symbol,omitempty"`
	Kind     string  `json:"kind,omitempty"` // symbol kind, see Symbol.Kind
	Language string  `json:"language,omitempty"`
	Score    float64 `json:"score"`
	Excerpt  string  `json:"excerpt"` // a few lines, the best-matching ones
	// Explain is, with Filter.Explain, the factors of Score by stage
	// (rank.Breakdown): bm25, priors, exact identifiers, coverage,
	// feedback, and the file's score on a file's first hit.
	Explain rank.Breakdown `json:"explain,omitempty"`
}

// GrepMatch is one line that matched a Grep.
type GrepMatch struct {
	Path string `json:"path"`
	Line int    `json:"line"` // 1-based
	Text string `json:"text"` // the whole line, without its newline (capped)
}

// Text is a line range of a file as it is in the snapshot.
type Text struct {
	Path       string
	Start, End int    // 1-based inclusive, clamped to the file
	Lines      int    // lines in the whole file
	Content    string // the lines Start..End, each ending in "\n"
	Truncated  bool   // the range was cut by the size cap
}

// Symbol is one entry of the symbol table: name, container, kind, path,
// lines, signature and language (QualifiedName: "Server.ServeHTTP"). It is
// the type the rooms below this package produce, so the façade hands
// their symbols on as they are.
type Symbol = chunk.Symbol

// The defaults of Options.MaxFileBytes, MaxFiles and MaxTotalBytes, for
// the commands' help texts.
const (
	DefaultMaxFileBytes  = defaultMaxFileBytes
	DefaultMaxFiles      = defaultMaxFiles
	DefaultMaxTotalBytes = defaultMaxTotalBytes
)

// Compile-time list of what Index and Snapshot provide. The bodies live in
// the other files of this package.
var (
	_ interface {
		// Sync walks the roots and brings the index up to date: files whose
		// size and mtime match the manifest are trusted, the rest are hashed
		// and re-indexed if the hash changed, deleted files are removed.
		Sync(ctx context.Context) (SyncStats, error)
		// Update sets the current content of a file (an open editor buffer).
		// It is visible to Read/Grep/Outline of every later Snapshot at
		// once, and queued for the index writer; it never blocks on it.
		// It returns the generation at which the change will be searchable.
		Update(path string, content []byte) uint64
		// Release drops the content set by Update: the file falls back to
		// disk (didClose).
		Release(path string) uint64
		// Changed tells the index that a file changed on disk (didSave,
		// watched files); deleted files are removed.
		Changed(path string) uint64
		// WaitFor blocks until generation gen is published or ctx ends.
		WaitFor(ctx context.Context, gen uint64) error
		Snapshot() *Snapshot
		Stats() Stats
		// Rel maps an absolute filesystem path to its index path; ok is
		// false outside every root. Abs is the inverse.
		Rel(abs string) (path string, ok bool)
		Abs(path string) (abs string, err error)
		// Notices are what the user should know about the roots (a root
		// that is only read from open buffers, and why), once per Open.
		Notices() []string
		Close() error
	} = (*Index)(nil)

	_ interface {
		Generation() uint64
		Search(ctx context.Context, query string, limit int, f Filter) ([]Hit, error)
		// Grep matches a Go regexp against every line of the current
		// content of the files matching pathGlob (empty: all).
		Grep(ctx context.Context, pattern, pathGlob string, limit int) ([]GrepMatch, error)
		// Read returns lines start..end (1-based, inclusive, clamped).
		Read(path string, start, end int) (Text, error)
		// Content returns the whole current content of a file.
		Content(path string) ([]byte, error)
		// Files lists indexed paths matching glob ("**" crosses folders).
		Files(glob string) ([]string, error)
		// Symbols finds symbols by exact name, then prefix, then
		// case-insensitive substring, best first.
		Symbols(query string, limit int) []Symbol
		// Outline lists the symbols of one file in line order.
		Outline(path string) ([]Symbol, error)
	} = (*Snapshot)(nil)
)

// Errors callers can test with errors.Is.
var (
	ErrNotFound    = errorString("file not found in the workspace")
	ErrOutsideRoot = errorString("path is outside the workspace roots")
	ErrBadQuery    = rank.ErrBadQuery   // an empty or over-long query, one without searchable words, a bad glob
	ErrOverBudget  = walk.ErrOverBudget // the walk's error: the workspace is larger than its budget
	// ErrDamaged: a persisted index is damaged (a segment that does not
	// match its checksum); the next Open rebuilds it (see CheckStore).
	ErrDamaged = store.ErrDamaged
	// ErrWithheld comes with ErrNotFound for a file askls never reads:
	// a secret (.env, a key), or a link to one.
	ErrWithheld = errorString("withheld: a secret file is never read")
)

type errorString string

func (e errorString) Error() string { return string(e) }
