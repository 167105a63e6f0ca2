package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/askls/askls/lsp/settings"
	"github.com/askls/askls/workspace"
	"go.lsp.dev/protocol"
)

// Commands the server executes (workspace/executeCommand).
const (
	cmdAsk        = "askls.ask"
	cmdShowAnswer = "askls.showAnswer"
	cmdReindex    = "askls.reindex"
	cmdStatus     = "askls.status"
)

// commands are the commands initialize advertises, in order.
var commands = []string{cmdAsk, cmdShowAnswer, cmdClearCitations, cmdLocate, cmdReindex, cmdStatus, cmdThreads, cmdOpenThread, cmdDeleteThread}

// clientCaps is the part of the client's capabilities the server acts on.
// It is decoded from raw JSON with only these fields, so that an unusual
// value elsewhere in a client's capabilities cannot fail initialize.
type clientCaps struct {
	WorkDoneProgress bool // window.workDoneProgress
	ShowDocument     bool // window.showDocument.support
	CodeLens         bool // textDocument.codeLens present
	CodeLensRefresh  bool // workspace.codeLens.refreshSupport
	WatchDynamic     bool // workspace.didChangeWatchedFiles.dynamicRegistration
	Configuration    bool // workspace.configuration
	Name             string
}

type rawCaps struct {
	Window *struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
		ShowDocument     *struct {
			Support bool `json:"support"`
		} `json:"showDocument"`
	} `json:"window"`
	TextDocument *struct {
		CodeLens *json.RawMessage `json:"codeLens"`
	} `json:"textDocument"`
	Workspace *struct {
		CodeLens *struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"codeLens"`
		DidChangeWatchedFiles *struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
		Configuration bool `json:"configuration"`
	} `json:"workspace"`
}

func parseCaps(raw json.RawMessage) clientCaps {
	var r rawCaps
	_ = json.Unmarshal(raw, &r) // fields that do not decode stay false
	var c clientCaps
	if w := r.Window; w != nil {
		c.WorkDoneProgress = w.WorkDoneProgress
		c.ShowDocument = w.ShowDocument != nil && w.ShowDocument.Support
	}
	if t := r.TextDocument; t != nil {
		c.CodeLens = t.CodeLens != nil && string(*t.CodeLens) != "null"
	}
	if w := r.Workspace; w != nil {
		c.CodeLensRefresh = w.CodeLens != nil && w.CodeLens.RefreshSupport
		c.WatchDynamic = w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration
		c.Configuration = w.Configuration
	}
	return c
}

type initializeParams struct {
	ProcessID             *int32            `json:"processId"`
	RootURI               string            `json:"rootUri"`
	RootPath              string            `json:"rootPath"`
	InitializationOptions json.RawMessage   `json:"initializationOptions"`
	Capabilities          json.RawMessage   `json:"capabilities"`
	WorkspaceFolders      []workspaceFolder `json:"workspaceFolders"`
	ClientInfo            *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// folder is one workspace root.
type folder struct {
	uri  string
	path string
}

func (s *server) initialize(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[initializeParams]("initialize", raw)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateNew {
		return nil, invalidRequest("askls: initialize was already received")
	}
	s.caps = parseCaps(p.Capabilities)
	if p.ClientInfo != nil {
		s.caps.Name = strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)
	}
	cfg, err := s.cfg.Merge(p.InitializationOptions)
	if err != nil {
		s.log.Warn("initializationOptions", "err", err)
	}
	s.cfg = cfg
	if l, err := settings.ParseLevel(cfg.LogLevel); err == nil {
		s.level.Set(l)
	}
	if cfg.TimeoutSeconds == 0 {
		s.log.Warn("timeoutSeconds is 0: answers are given in retrieval mode, without asking the model")
	}

	var folders []folder
	for _, wf := range p.WorkspaceFolders {
		f, err := folderOf(wf.URI)
		if err != nil {
			s.skipped.skip(wf.URI, err.Error())
			continue
		}
		folders = append(folders, f)
	}
	if len(folders) == 0 && p.RootURI != "" {
		if f, err := folderOf(p.RootURI); err == nil {
			folders = append(folders, f)
		}
	}
	if len(folders) == 0 && p.RootPath != "" {
		folders = append(folders, folder{uri: string(protocol.DocumentURI(workspace.FileURI(p.RootPath))), path: p.RootPath})
	}
	if len(folders) == 0 {
		for _, r := range s.opts.Roots {
			abs, err := filepath.Abs(r)
			if err == nil {
				folders = append(folders, folder{uri: workspace.FileURI(abs), path: abs})
			}
		}
	}
	s.folders = folders
	s.state = stateInitialized
	if p.ProcessID != nil && *p.ProcessID > 0 && int(*p.ProcessID) != os.Getpid() {
		go s.watchParent(int(*p.ProcessID))
	}
	s.log.Info("initialize", "client", s.caps.Name, "roots", len(folders), "codeLens", s.caps.CodeLens,
		"workDoneProgress", s.caps.WorkDoneProgress, "showDocument", s.caps.ShowDocument)

	version := s.opts.Version
	if version == "" {
		version = "dev"
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{IncludeText: false},
			},
			CodeLensProvider:        &protocol.CodeLensOptions{},
			ExecuteCommandProvider:  &protocol.ExecuteCommandOptions{Commands: commands},
			WorkspaceSymbolProvider: true,
			ReferencesProvider:      true,
			ImplementationProvider:  true,
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{Supported: true, ChangeNotifications: true},
			},
			Experimental: map[string]any{"asklsAsk": true},
		},
		ServerInfo: &protocol.ServerInfo{Name: "askls", Version: version},
	}, nil
}

func (s *server) initialized(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	caps := s.capabilities()
	if caps.WatchDynamic {
		go s.registerWatchers(context.WithoutCancel(ctx))
	}
	s.startWorkspace()
	return nil, nil
}

func (s *server) registerWatchers(ctx context.Context) {
	params := map[string]any{"registrations": []protocol.Registration{{
		ID:     "askls-watched-files",
		Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{
			Watchers: []protocol.FileSystemWatcher{{GlobPattern: "**/*"}},
		},
	}}}
	if err := s.call(ctx, "client/registerCapability", params, nil); err != nil {
		s.log.Warn("could not register the file watcher; files changed outside the editor are seen on the next save or reindex", "err", err)
	}
}

func (s *server) shutdown(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.shutdownCalled = true
	s.mu.Unlock()
	_ = s.answerFiles.RemoveAll() // first: editors kill a server soon after exit
	s.ws.StopSync()
	s.log.Info("shutdown")
	return nil, nil
}

func (s *server) exit(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	s.mu.Lock()
	s.exitCalled = true
	s.mu.Unlock()
	s.exitOnce.Do(func() { close(s.exited) })
	return nil, nil
}

func (s *server) didChangeConfiguration(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		Settings json.RawMessage `json:"settings"`
	}]("workspace/didChangeConfiguration", raw)
	if err != nil {
		return nil, err
	}
	if len(p.Settings) == 0 || string(p.Settings) == "null" {
		if s.capabilities().Configuration {
			go s.pullConfiguration(context.WithoutCancel(ctx))
		}
		return nil, nil
	}
	s.applyConfig(ctx, p.Settings)
	return nil, nil
}

// pullConfiguration asks the client for the "askls" section (clients that
// send didChangeConfiguration with null settings expect this).
func (s *server) pullConfiguration(ctx context.Context) {
	var res []json.RawMessage
	params := map[string]any{"items": []map[string]string{{"section": "askls"}}}
	if err := s.call(ctx, "workspace/configuration", params, &res); err != nil {
		s.log.Warn("workspace/configuration failed", "err", err)
		return
	}
	if len(res) > 0 {
		s.applyConfig(ctx, res[0])
	}
}

func (s *server) applyConfig(ctx context.Context, raw json.RawMessage) {
	s.mu.Lock()
	old := s.cfg
	cfg, err := old.Merge(raw)
	s.cfg = cfg
	s.agent = nil // rebuilt from the new settings on next use
	initialized := s.state == stateInitialized
	s.mu.Unlock()
	if err != nil {
		s.log.Warn("didChangeConfiguration", "err", err)
	}
	if l, err := settings.ParseLevel(cfg.LogLevel); err == nil {
		s.level.Set(l)
	}
	s.log.Info("configuration changed", "model", cfg.Model, "ollamaHost", cfg.OllamaHost, "codeLens", cfg.CodeLens,
		"citationsAsDiagnostics", cfg.CitationsAsDiagnostics)
	if cfg.TimeoutSeconds == 0 && old.TimeoutSeconds != 0 {
		s.log.Warn("timeoutSeconds is 0: answers are given in retrieval mode, without asking the model")
	}
	if initialized && old.IndexChanged(cfg) && s.ws.Started() {
		s.startWorkspace()
	}
	if old.CodeLens != cfg.CodeLens || old.CitationsAsDiagnostics != cfg.CitationsAsDiagnostics || old.KeepCitations != cfg.KeepCitations {
		s.citationsChanged(ctx, nil)
	}
}

func (s *server) didChangeWorkspaceFolders(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		Event struct {
			Added   []workspaceFolder `json:"added"`
			Removed []workspaceFolder `json:"removed"`
		} `json:"event"`
	}]("workspace/didChangeWorkspaceFolders", raw)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	removed := map[string]bool{}
	for _, wf := range p.Event.Removed {
		if f, err := folderOf(wf.URI); err == nil {
			removed[f.path] = true
		}
	}
	var folders []folder
	have := map[string]bool{}
	for _, f := range s.folders {
		if !removed[f.path] {
			folders = append(folders, f)
			have[f.path] = true
		}
	}
	for _, wf := range p.Event.Added {
		f, err := folderOf(wf.URI)
		if err != nil {
			s.skipped.skip(wf.URI, err.Error())
			continue
		}
		if !have[f.path] {
			folders = append(folders, f)
			have[f.path] = true
		}
	}
	s.folders = folders
	roots := rootsOf(folders)
	s.mu.Unlock()
	s.log.Info("workspace folders changed", "roots", roots)
	s.startWorkspace()
	return nil, nil
}

func (s *server) workDoneProgressCancel(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		Token json.RawMessage `json:"token"`
	}]("window/workDoneProgress/cancel", raw)
	if err != nil {
		return nil, err
	}
	s.cancelProgress(string(p.Token))
	return nil, nil
}

func rootsOf(fs []folder) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.path
	}
	return out
}

func folderOf(u string) (folder, error) {
	p, err := workspace.URIPath(u)
	if err != nil {
		return folder{}, err
	}
	return folder{uri: u, path: p}, nil
}
