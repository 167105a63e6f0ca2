package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/lsp/answerdoc"
	"github.com/askls/askls/lsp/clientlog"
	"github.com/askls/askls/lsp/framing"
	"github.com/askls/askls/workspace"
)

// Options configure Serve.
type Options struct {
	// Logger receives the server's logs (askls serve: stderr). The same
	// records also go to the client's window/logMessage at the level the
	// client configured. Default: slog.Default().
	Logger *slog.Logger
	// Roots are used when the client names no workspace folder and no
	// root URI.
	Roots []string
	// CacheDir is where the index persists (see index.Options.CacheDir).
	CacheDir string
	// ConfigDir is the user's configuration folder, for git's global
	// ignore file (see index.Options.ConfigDir).
	ConfigDir string
	// AllowBroadRoots indexes a workspace folder that is / or the home
	// folder; without it such a folder is answered from open buffers only
	// (index.Options.AllowBroadRoots), and the client is told why.
	AllowBroadRoots bool
	// Config is the configuration before the client's
	// initializationOptions are applied. Zero: DefaultConfig().
	Config *Config
	// Agent is the base agent configuration; the client's settings
	// (model, ollamaHost, numCtx, maxHops, timeoutSeconds) override it.
	Agent agent.Config
	// AnswerDir is where askls.ask writes answers as markdown for
	// window/showDocument, in a folder of this server's that is removed
	// when Serve returns. Default: the user's cache folder (see
	// answerdoc.DefaultBase); askls serve passes the runtime folder when there is
	// one.
	AnswerDir string
	// Version is reported in serverInfo.
	Version string
	// Runtime is passed to the index (index.Options.Runtime): the
	// command's policy for the Go runtime during bulk indexing. Nil: none.
	Runtime index.RuntimeTuner
	// MaxThreads and MaxThreadAge bound the workspace's thread store
	// (thread.Options); zero: its defaults.
	MaxThreads   int
	MaxThreadAge time.Duration
}

// Serve runs the language server on rwc until the client sends exit, the
// stream ends or ctx is cancelled. It returns an error when the client
// exits without shutdown (the process should exit 1, as LSP says).
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	if opts.Config == nil {
		c := DefaultConfig()
		opts.Config = &c
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	s := newServer(opts)
	if testHook != nil {
		testHook(s)
	}
	st := framing.NewStream(rwc, s.opts.Logger)
	s.conn = jsonrpc2.NewConn(st)
	q := newQueue(s.log, s.handle)
	q.onPanic = s.ws.CheckStore // a panic from the store may mean a damaged segment
	s.conn.Go(ctx, q.serve)
	go s.clientLog.Run(ctx)

	select {
	case <-s.exited:
	case <-s.conn.Done():
	case <-ctx.Done():
	}
	// First, while the editor may still wait for the exit: an editor
	// kills a server that takes long to go.
	if err := s.answerFiles.RemoveAll(); err != nil {
		s.log.Warn("answer files left behind", "err", err)
	}
	cancel() // stops asks in flight and the background sync
	_ = s.conn.Close()
	select { // a read blocked on a terminal or pipe may not return on Close
	case <-s.conn.Done():
	case <-time.After(2 * time.Second):
	}
	waitTimeout(q.wait, 5*time.Second)
	s.ws.Close()
	close(s.done)

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exitCalled && !s.shutdownCalled {
		return errors.New("exit without shutdown")
	}
	if err := s.conn.Err(); err != nil && !s.exitCalled && !isClosed(err) {
		return fmt.Errorf("connection: %w", err)
	}
	return nil
}

func waitTimeout(f func(), d time.Duration) {
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// isClosed reports whether err only says the client's stream ended.
func isClosed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, os.ErrClosed)
}

// testHook, set only by tests, sees each server Serve creates.
var testHook func(*server)

type lifecycle int

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutdown
)

// server is one connection's state. Handlers run through queue (ordered,
// with early release), so fields written only by notifications are
// consistent with the requests that follow them; fields read by released
// requests are guarded by mu.
type server struct {
	opts      Options
	conn      jsonrpc2.Conn
	log       *slog.Logger
	level     *slog.LevelVar
	clientLog *clientlog.Log
	methods   map[string]method

	docs        *documents
	ws          *workspace.Workspace
	skipped     skippedFolders // workspace folders that cannot be served
	answers     *answers
	answerFiles *answerdoc.Folder

	// editMu orders edits to open documents with the index overlay and
	// the citation anchors: didOpen/didChange/didClose and registering an
	// answer hold it.
	editMu sync.Mutex

	mu             sync.Mutex
	state          lifecycle
	caps           clientCaps
	cfg            Config
	folders        []folder
	agent          *agent.Agent
	shutdownCalled bool
	exitCalled     bool
	parentGone     bool
	exited         chan struct{}
	exitOnce       sync.Once
	progressSeq    int
	askSeq         int

	done        chan struct{} // closed when Serve returns
	progCancels sync.Map      // progress token JSON -> context.CancelFunc

	diagMu    sync.Mutex
	published map[protocol.DocumentURI]bool // URIs with askls diagnostics

	refreshOnce sync.Once
	lensRefresh *lensRefresher
}

// method handles one LSP method. params is the raw JSON.
type method func(ctx context.Context, params json.RawMessage, release func()) (any, error)

func newServer(opts Options) *server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	s := &server{
		opts:    opts,
		level:   new(slog.LevelVar),
		docs:    newDocuments(),
		answers: newAnswers(maxAnswers),

		answerFiles: answerdoc.NewFolder(opts.AnswerDir),
		cfg:         *opts.Config,
		exited:      make(chan struct{}),
		done:        make(chan struct{}),

		published: map[protocol.DocumentURI]bool{},
	}
	s.clientLog = clientlog.New(s.level, func(m clientlog.Message) {
		_ = s.conn.Notify(context.Background(), "window/logMessage", m)
	})
	s.log = slog.New(index.RedactHandler(clientlog.Tee(opts.Logger.Handler(), s.clientLog.Handler()))) // no credential in any log line
	s.ws = newWorkspace(s)
	s.methods = map[string]method{
		"initialize":                          s.initialize,
		"initialized":                         s.initialized,
		"shutdown":                            s.shutdown,
		"exit":                                s.exit,
		"workspace/didChangeConfiguration":    s.didChangeConfiguration,
		"workspace/didChangeWorkspaceFolders": s.didChangeWorkspaceFolders,
		"workspace/didChangeWatchedFiles":     s.didChangeWatchedFiles,
		"workspace/executeCommand":            s.executeCommand,
		"workspace/symbol":                    s.workspaceSymbol,
		"textDocument/references":             s.references,
		"textDocument/implementation":         s.implementation,
		"textDocument/didOpen":                s.didOpen,
		"textDocument/didChange":              s.didChange,
		"textDocument/didSave":                s.didSave,
		"textDocument/didClose":               s.didClose,
		"textDocument/codeLens":               s.codeLens,
		"askls/ask":                           s.ask,
		"window/workDoneProgress/cancel":      s.workDoneProgressCancel,
	}
	return s
}

// handle routes one message: lifecycle checks, then the method table.
func (s *server) handle(ctx context.Context, req jsonrpc2.Request, release func()) (any, error) {
	name := req.Method()
	_, isCall := req.(*jsonrpc2.Call)
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()

	switch {
	case name == "exit":
	case state == stateNew && name != "initialize":
		if isCall {
			return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "askls: the server is not initialized yet; send initialize first")
		}
		s.log.Debug("dropping a notification before initialize", "method", name)
		return nil, nil
	case state == stateShutdown:
		if isCall {
			return nil, invalidRequest("askls: the server is shutting down; only exit is accepted")
		}
		return nil, nil
	}

	m, ok := s.methods[name]
	if !ok {
		if isCall {
			return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("askls: method %q is not supported", name))
		}
		if !strings.HasPrefix(name, "$/") {
			s.log.Debug("ignoring an unsupported notification", "method", name)
		}
		return nil, nil
	}
	start := time.Now()
	res, err := m(ctx, req.Params(), release)
	if err != nil && ctx.Err() == nil {
		kind := "request"
		if !isCall {
			kind = "notification"
		}
		s.log.Warn(kind+" failed", "method", name, "err", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		s.log.Debug("slow handler", "method", name, "ms", d.Milliseconds())
	}
	return res, err
}

// decode unmarshals params into a T, with an InvalidParams error that says
// what was wrong.
func decode[T any](method string, raw json.RawMessage) (*T, error) {
	v := new(T)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, invalidParams("%s: params are missing", method)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, invalidParams("%s: malformed params: %v", method, err)
	}
	return v, nil
}

// notify sends a notification, logging (not returning) failures: the
// connection may be closing.
func (s *server) notify(ctx context.Context, method string, params any) {
	if err := s.conn.Notify(context.WithoutCancel(ctx), method, params); err != nil {
		s.log.Debug("notification not sent", "method", method, "err", err)
	}
}

// call sends a request to the client with a time limit.
func (s *server) call(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := s.conn.Call(ctx, method, params, result)
	return err
}

func (s *server) config() Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

func (s *server) capabilities() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// currentAgent returns the agent for the current configuration.
func (s *server) currentAgent() *agent.Agent {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.agent == nil {
		s.agent = agent.New(s.agentConfig(s.cfg))
	}
	return s.agent
}

func (s *server) agentConfig(c Config) agent.Config { return c.Agent(s.opts.Agent, s.log) }
