package index

// The outline of Python: classes (nested ones too) and functions, async or
// not; a def directly in a class is a method. Decorators go with the
// unit below them (commentStart).
func init() {
	register(&outliner{style: indentation, lineComment: "#", rules: []declRule{
		decl("func", `^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*[\[(]`, "def"),
		decl("class", `^\s*class\s+([A-Za-z_]\w*)`, "class"),
	}}, "python")
}
