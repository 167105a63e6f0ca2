package chunk

// Symbol is one declaration of a file: what the outlines and the Go
// parser find, and the symbol table lists. It is index.Symbol's struct
// (the façade converts one to the other; the conversion compiles only
// while the two have the same fields).
type Symbol struct {
	Name      string `json:"name"`      // "ServeHTTP"
	Container string `json:"container"` // "Server" for a method, "" otherwise
	Kind      string `json:"kind"`      // func, method, type, interface, struct, class, var, const, field, module, ...
	Path      string `json:"path"`
	Line      int    `json:"line"`                // 1-based line of the name
	EndLine   int    `json:"end_line"`            // last line of the unit
	Signature string `json:"signature,omitempty"` // one line: "func (s *Server) ServeHTTP(w ResponseWriter, r *Request)"
	Language  string `json:"language"`
}

// QualifiedName is the name with its container: "Server.ServeHTTP" for a
// method, the plain name when there is no container.
func (s Symbol) QualifiedName() string {
	if s.Container != "" {
		return s.Container + "." + s.Name
	}
	return s.Name
}
