package mcp

import (
	"context"
	"mime"
	"path"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askls/askls/workspace"
)

// addResources serves the workspace's files as file:// resources: only
// files the index holds (inside the roots, not ignored, not secret), as
// the index has them.
func (s *Server) addResources() {
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{
		Name:        "workspace file",
		Title:       "A file of the askls workspace",
		Description: "A file of the workspace by its absolute file:// URI, as ask's citationUris give them.",
		URITemplate: "file:///{+path}",
	}, s.readResource)
}

func (s *Server) readResource(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	abs, err := workspace.URIPath(uri)
	if err != nil {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	ix, err := s.index(ctx, req.Session)
	if err != nil {
		return nil, err
	}
	rel, ok := ix.Rel(abs)
	if !ok {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	content, err := ix.Snapshot().Content(rel)
	if err != nil {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	mt := mime.TypeByExtension(path.Ext(rel))
	if mt == "" {
		mt = "text/plain"
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: mt, Text: string(content)}}}, nil
}
