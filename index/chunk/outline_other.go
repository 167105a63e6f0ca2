package chunk

import (
	"regexp"
	"strings"
)

// cSpecifiers matches what comes before a C or C++ function's name: its
// return type and any attribute macros, each optionally with arguments
// (`static __always_inline __alloc_size(1) void *kmalloc(`, `int __init
// __attribute__((cold)) setup(`). The name is the last identifier before
// the parameter list: the repetition is greedy.
const cSpecifiers = `(?:[A-Za-z_][\w:<>,]*(?:\s*\((?:[^()]|\([^()]*\))*\))?[\s\*&]+)+`

// cStatement matches a statement that the function rules could take for
// a definition, its keyword for a return type: `return std::move(x)`
// over two lines, `throw error::make(` (a qualified name is a C++
// function's).
var cStatement = regexp.MustCompile(`^\s*(?:return|throw|else|case|delete|new|goto|co_return|co_yield|co_await)\b`)

// oneLineBody matches a body that opens and closes at the end of the line
// (`Caller() : cb_(0) { }`): such a constructor stays with its
// neighbours, as a one-line method does. A member's braces (`: cb_{0}`)
// follow its name.
var oneLineBody = regexp.MustCompile(`(?:^|[)\s])\{[^{}]*\}\s*$`)

// The outlines of C and C++, Ruby, PHP, Lua and shell.
func init() {
	register(&outliner{style: braces, lineComment: "//", checkNames: true, initLists: true, header: cppTemplateLine, rules: []declRule{
		// After the name only a base list or the body may follow: in
		// `struct page *alloc_pages(` the struct is a return type.
		decl("$1", `^\s*(?:typedef\s+)?(?:template\s*<[^>]*>\s*)?(struct|class|union|enum|namespace)(?:\s+class)?\s+([A-Za-z_]\w*)\s*(?:final\s*)?(?:[:{][^;]*|/[/*].*)?$`),
		// A template specialization (`template <> struct formatter<std::tm> {`,
		// `struct formatter<T, enable_if_t<…>> : base {`) is named with
		// the head of its first argument: formatter<std::tm>.
		{re: lazyRegexp(`^\s*(?:template\s*<.*>\s*)?(struct|class|union)\s+([A-Za-z_]\w*\s*<[^;]*)$`), kind: "$1", rename: specializationName},
		// In C++ the name may be qualified with its class, and an
		// operator: an out-of-line member (`MYLIB_INLINE void
		// widget::render(const T &x)`, `bool widget::operator()(int x)
		// const`) is the method widget.render (cppName).
		{re: lazyRegexp(`^(?:(?:static|inline|extern|const|unsigned|signed|struct|enum|virtual|constexpr|explicit)\s+)*` + cSpecifiers + `\**(` + cName + `)\s*\([^;]*$`), kind: "func", cppName: true, reject: cStatement},
		// A macro that defines a function, named by its first argument
		// (`SYSCALL_DEFINE3(read, unsigned int, fd, ...)` then the body).
		{re: lazyRegexp(`^[A-Z][A-Z0-9_]*\(\s*([A-Za-z_]\w*)`), kind: "func", follows: "{"},
		// The name alone at the start of a line, its return type on the
		// line above (`static inline struct task_struct *` then
		// `__pick_next_task(struct rq *rq, ...)`): a definition when the
		// parameter list is followed by the body's brace. In C++ the
		// name may be qualified (GNU style: `void` then
		// `Parser::parse (const char *s)`), and a constructor's parameter
		// list may be followed by its initializer list
		// (`widget::widget(int n)` then `: n_(n)`): closedThen.
		{re: lazyRegexp(`^(` + cName + `)\s*\(`), kind: "func", follows: "{", typeAbove: true, cppName: true},
		// Not an include guard (`#ifndef FOO_H` then `#define FOO_H`):
		// it belongs to the file's head.
		{re: lazyRegexp(`^\s*#\s*define\s+([A-Za-z_]\w*)`), kind: "macro", notHere: includeGuard},
		// A method, after its template parameters, specifiers and
		// attribute macros (`template <typename It> FMT_CONSTEXPR auto
		// do_parse(It begin, It end) -> It {`), its body opening on the
		// line or below (not held on it: a one-line accessor stays
		// with its neighbours, docs/outlines.md).
		{re: member("", `^\s+(?:template\s*<[^;{}]*>\s*)?(?:(?:static|inline|virtual|const|explicit|constexpr|friend|[A-Z][A-Z0-9_]*)\s+)*[A-Za-z_][\w:<>,]*[\s\*&]+\**(`+cName+`)\s*\([^;{}]*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:&&?\s*)?(?:->\s*[^;{}]*)?\{?\s*$`).re, kind: "method", member: true, cppName: true, reject: cStatement},
		// A constructor in its class, named like it, its
		// member-initializer list on its line (`explicit sink(std::string
		// name) : name_{std::move(name)} {`).
		{re: member("", `^\s+(?:(?:explicit|constexpr|inline|[A-Z][A-Z0-9_]*)\s+)*([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:noexcept\s*)?(?::[^;]*)?\{?\s*$`).re, kind: "method", member: true, ctor: true, reject: oneLineBody},
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

// specializationName names a C++ class template specialization from the
// text after its keyword (`formatter<std::chrono::duration<Rep, Period>,
// Char> {`): the template's name and the head of its first argument, its
// own arguments left out (formatter<std::chrono::duration>). It is "" when
// what follows the closed argument list is not a base list, "final", a
// body or a comment (`struct foo<T> *make(`: a return type).
func specializationName(s string) string {
	lt := strings.IndexByte(s, '<')
	name := strings.TrimSpace(s[:lt])
	depth, end := 0, -1
	for i := lt; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '<', '(':
			depth++
		case '>', ')':
			if depth--; depth == 0 {
				end = i
			}
		}
	}
	if end >= 0 {
		rest := strings.TrimSpace(s[end+1:])
		ok := rest == "" || strings.HasPrefix(rest, "{") || strings.HasPrefix(rest, "final") ||
			strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, "/*") ||
			(strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, "::"))
		if !ok {
			return ""
		}
	}
	arg := strings.TrimSpace(s[lt+1:])
	if i := strings.IndexAny(arg, "<,>("); i >= 0 {
		arg = strings.TrimSpace(arg[:i])
	}
	if arg == "" {
		return name
	}
	return name + "<" + arg + ">"
}
