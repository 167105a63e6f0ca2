package lsp

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

func TestInitializeAdvertisesWhatIsImplemented(t *testing.T) {
	e := startEditor(t, editorSetup{})
	// initialize again is refused, the server keeps serving.
	var res json.RawMessage
	err := e.call("initialize", map[string]any{"capabilities": map[string]any{}}, &res)
	if rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: %v, want InvalidRequest", err)
	}
	e.shutdown()
}

func TestCapabilities(t *testing.T) {
	s := newServer(Options{Config: ptr(DefaultConfig()), Logger: testLogger(t)})
	s.log = testLogger(t)
	raw, _ := json.Marshal(map[string]any{"capabilities": vscodeCaps(), "rootUri": "file:///tmp"})
	res, err := s.initialize(t.Context(), raw, func() {})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	var got struct {
		Capabilities struct {
			TextDocumentSync struct {
				OpenClose bool `json:"openClose"`
				Change    int  `json:"change"`
				Save      any  `json:"save"`
			} `json:"textDocumentSync"`
			CodeLensProvider        any  `json:"codeLensProvider"`
			WorkspaceSymbolProvider bool `json:"workspaceSymbolProvider"`
			ExecuteCommandProvider  struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
			Workspace struct {
				WorkspaceFolders struct {
					Supported           bool `json:"supported"`
					ChangeNotifications bool `json:"changeNotifications"`
				} `json:"workspaceFolders"`
			} `json:"workspace"`
			HoverProvider any `json:"hoverProvider"`
		} `json:"capabilities"`
		ServerInfo struct{ Name string } `json:"serverInfo"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	c := got.Capabilities
	if !c.TextDocumentSync.OpenClose || c.TextDocumentSync.Change != int(protocol.TextDocumentSyncKindIncremental) || c.TextDocumentSync.Save == nil {
		t.Errorf("textDocumentSync = %+v", c.TextDocumentSync)
	}
	if c.CodeLensProvider == nil || !c.WorkspaceSymbolProvider {
		t.Errorf("codeLens %v, workspaceSymbol %v", c.CodeLensProvider, c.WorkspaceSymbolProvider)
	}
	want := map[string]bool{"askls.ask": true, "askls.showAnswer": true, "askls.clearCitations": true, "askls.locate": true, "askls.reindex": true, "askls.status": true, "askls.threads": true, "askls.openThread": true, "askls.deleteThread": true}
	for _, cmd := range c.ExecuteCommandProvider.Commands {
		delete(want, cmd)
	}
	if len(want) > 0 || len(c.ExecuteCommandProvider.Commands) != 9 {
		t.Errorf("commands = %v", c.ExecuteCommandProvider.Commands)
	}
	if !c.Workspace.WorkspaceFolders.Supported || !c.Workspace.WorkspaceFolders.ChangeNotifications {
		t.Errorf("workspaceFolders = %+v", c.Workspace.WorkspaceFolders)
	}
	if c.HoverProvider != nil {
		t.Errorf("hover advertised but not implemented")
	}
	if got.ServerInfo.Name != "askls" {
		t.Errorf("serverInfo = %+v", got.ServerInfo)
	}
}

func ptr[T any](v T) *T { return &v }

func TestRequestsBeforeInitializeAndAfterShutdown(t *testing.T) {
	e := startEditor(t, editorSetup{})
	if err := e.call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	var out any
	err := e.call("workspace/symbol", map[string]any{"query": "Cache"}, &out)
	if rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: %v, want InvalidRequest", err)
	}
	e.notify("exit", nil)
	if err := e.served(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestExitWithoutShutdownIsAnError(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.notify("exit", nil)
	if err := e.served(); err == nil {
		t.Error("Serve returned nil after exit without shutdown")
	}
}

func TestAliveParent(t *testing.T) {
	if !alive(os.Getpid()) {
		t.Error("this process reported dead")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	if alive(cmd.Process.Pid) {
		t.Error("a reaped process reported alive")
	}
}
