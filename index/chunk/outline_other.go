package chunk

// cSpecifiers matches what comes before a C or C++ function's name: its
// return type and any attribute macros, each optionally with arguments
// (`static __always_inline __alloc_size(1) void *kmalloc(`, `int __init
// __attribute__((cold)) setup(`). The name is the last identifier before
// the parameter list: the repetition is greedy.
const cSpecifiers = `(?:[A-Za-z_][\w:<>,]*(?:\s*\((?:[^()]|\([^()]*\))*\))?[\s\*&]+)+`

// The outlines of C and C++, Ruby, PHP, Lua and shell.
func init() {
	register(&outliner{style: braces, lineComment: "//", checkNames: true, rules: []declRule{
		// After the name only a base list or the body may follow: in
		// `struct page *alloc_pages(` the struct is a return type.
		decl("$1", `^\s*(?:typedef\s+)?(?:template\s*<[^>]*>\s*)?(struct|class|union|enum|namespace)(?:\s+class)?\s+([A-Za-z_]\w*)\s*(?:final\s*)?(?:[:{][^;]*|/[/*].*)?$`),
		decl("func", `^(?:(?:static|inline|extern|const|unsigned|signed|struct|enum|virtual|constexpr|explicit)\s+)*`+cSpecifiers+`\**([A-Za-z_][\w:~]*)\s*\([^;]*$`),
		// The name alone at the start of a line, its return type on the
		// line above (`static inline struct task_struct *` then
		// `__pick_next_task(struct rq *rq, ...)`): a definition when the
		// parameter list is followed by the body's brace.
		// A macro that defines a function, named by its first argument
		// (`SYSCALL_DEFINE3(read, unsigned int, fd, ...)` then the body).
		{re: lazyRegexp(`^[A-Z][A-Z0-9_]*\(\s*([A-Za-z_]\w*)`), kind: "func", follows: "{"},
		{re: lazyRegexp(`^([A-Za-z_]\w*)\s*\(`), kind: "func", follows: "{", typeAbove: true},
		decl("macro", `^\s*#\s*define\s+([A-Za-z_]\w*)`),
		member("method", `^\s+(?:(?:static|inline|virtual|const|explicit|constexpr)\s+)*[A-Za-z_][\w:<>,]*[\s\*&]+\**([A-Za-z_~]\w*)\s*\([^;]*\)\s*(?:const\s*)?(?:override\s*)?\{?\s*$`),
	}}, "c", "cpp")

	register(&outliner{style: endKeyword, lineComment: "#", rules: []declRule{
		decl("method", `^\s*def\s+(?:self\.)?([\w?!=\[\]<>+\-*/%]+)`),
		decl("class", `^\s*class\s+([A-Z][\w:]*)`),
		decl("module", `^\s*module\s+([A-Z][\w:]*)`),
	}}, "ruby")

	register(&outliner{style: braces, lineComment: "//", rules: []declRule{
		decl("$1", `^\s*(?:(?:abstract|final|readonly)\s+)*(class|interface|trait|enum)\s+([A-Za-z_]\w*)`),
		decl("func", `^\s*(?:(?:public|private|protected|static|abstract|final)\s+)*function\s+&?([A-Za-z_]\w*)`),
	}}, "php")

	register(&outliner{style: endKeyword, lineComment: "--", rules: []declRule{
		decl("func", `^\s*(?:local\s+)?function\s+([\w.:]+)`),
		decl("func", `^\s*(?:local\s+)?([\w.]+)\s*=\s*function\b`),
	}}, "lua")

	register(&outliner{style: braces, lineComment: "#", checkNames: true, rules: []declRule{
		decl("func", `^\s*function\s+([\w.:-]+)`),
		decl("func", `^\s*([A-Za-z_][\w.:-]*)\s*\(\)\s*\{?`),
	}}, "shell")
}
