package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/workspace"
)

// Options configure a Server.
type Options struct {
	// Roots are the workspace folders. Empty: the client's roots (asked
	// for when it has initialized), else the current folder.
	Roots    []string
	CacheDir string
	// ConfigDir is the user's configuration folder, for git's global
	// ignore file (see index.Options.ConfigDir).
	ConfigDir    string
	MaxFileBytes int64
	// Watch keeps the index current by watching the files.
	Watch bool
	// Agent configures ask (provider, model…; NoModel for retrieval only).
	Agent   agent.Config
	Logger  *slog.Logger
	Version string

	// legacyProtocol restricts the server to the protocol versions with
	// the initialize handshake and roots (tests of client roots).
	legacyProtocol bool
}

// Server is askls's MCP server: one workspace index and the SDK server
// that exposes it.
type Server struct {
	opts  Options
	log   *slog.Logger
	ws    *workspace.Workspace
	agent *agent.Agent
	sdk   *sdk.Server
}

// New returns a server; the index opens in the background as soon as the
// roots are known (at once with Options.Roots).
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Agent.Logger == nil {
		opts.Agent.Logger = opts.Logger
	}
	s := &Server{opts: opts, log: opts.Logger, ws: newWorkspace(opts), agent: agent.New(opts.Agent)}
	sopts := &sdk.ServerOptions{
		Instructions: "askls indexes one workspace. Use search_code first (ranked, code-aware), then read_file for the lines you need; " +
			"every result names its file and line range. ask returns a whole answer in which every claim cites file:line.",
		InitializedHandler: s.initialized,
		Logger:             opts.Logger,
	}
	if opts.legacyProtocol {
		sopts.SupportedProtocolVersions = slices.DeleteFunc(sdk.SupportedProtocolVersions(), func(v string) bool { return v >= "2026-07-28" })
	}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "askls", Title: "askls: cited answers about a codebase", Version: opts.Version}, sopts)
	s.addTools()
	s.addResources()
	if len(opts.Roots) > 0 {
		s.ws.StartOnce(workspace.Scope{Roots: opts.Roots})
	}
	return s
}

// initialized starts indexing the client's roots as soon as a client of
// the initialize handshake (protocol versions before 2026-07-28) is
// ready, when no --root was given. They are asked for in the background:
// a client may answer roots/list only after this notification is handled.
func (s *Server) initialized(_ context.Context, req *sdk.InitializedRequest) {
	if len(s.opts.Roots) > 0 {
		return
	}
	go s.startFor(context.Background(), req.Session)
}

// startFor starts the workspace for a session's roots (when it has any and
// no --root was given), else the current folder. Only the first call
// counts.
func (s *Server) startFor(ctx context.Context, ss *sdk.ServerSession) {
	if s.ws.Started() {
		return
	}
	roots := s.opts.Roots
	if len(roots) == 0 && ss != nil {
		// Roots are deprecated from protocol 2026-07-28 on but still what
		// clients of earlier versions send; newer ones give --root.
		//lint:ignore SA1019 clients of protocol versions before 2026-07-28 name their workspace this way
		if p := ss.InitializeParams(); p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil {
			ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			//lint:ignore SA1019 see above
			res, err := ss.ListRoots(ctx, nil)
			cancel()
			if err != nil {
				s.log.Warn("askls mcp: asking the client for its roots", "err", err)
			} else {
				var uris []string
				for _, r := range res.Roots {
					uris = append(uris, r.URI)
				}
				roots = rootsFromURIs(uris)
			}
		}
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	s.ws.StartOnce(workspace.Scope{Roots: roots})
}

// index returns the synced index for a request, starting the workspace if
// no session has yet.
func (s *Server) index(ctx context.Context, ss *sdk.ServerSession) (*index.Index, error) {
	s.startFor(ctx, ss)
	return s.indexFor(ctx)
}

// Run serves one session on t (stdio: &sdk.StdioTransport{}) until the
// client leaves or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.sdk.Run(ctx, t)
}

// Connect serves a session on t in the background (tests use the SDK's
// in-memory transports).
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	return s.sdk.Connect(ctx, t, nil)
}

// HTTPHandler serves the streamable HTTP transport; every session shares
// the server's workspace.
func (s *Server) HTTPHandler() http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, nil)
}

// Close stops the watcher and closes the index.
func (s *Server) Close() { s.ws.Close() }
