package mcp

import (
	"context"
	"os"

	"github.com/askls/askls/index"
	"github.com/askls/askls/workspace"
)

// newWorkspace is the server's workspace: opened once, for the first roots
// it is given, synced before it answers, and kept current by a file
// watcher (Options.Watch).
func newWorkspace(opts Options) *workspace.Workspace {
	return workspace.New(workspace.Options{
		Index:  index.Options{CacheDir: opts.CacheDir, ConfigDir: opts.ConfigDir, MaxFileBytes: opts.MaxFileBytes},
		Watch:  opts.Watch,
		Logger: opts.Logger,
	})
}

// index waits for the workspace's first sync (or ctx) and returns its
// index.
func (s *Server) indexFor(ctx context.Context) (*index.Index, error) {
	if err := s.ws.Synced(ctx); err != nil {
		return nil, err
	}
	return s.ws.Index(ctx)
}

// rootsFromURIs turns a client's file:// roots into folders that exist.
func rootsFromURIs(uris []string) []string {
	var out []string
	for _, u := range uris {
		dir, err := workspace.URIPath(u)
		if err != nil {
			continue
		}
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			out = append(out, dir)
		}
	}
	return out
}
