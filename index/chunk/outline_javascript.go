package chunk

import "regexp"

// The outline of JavaScript and TypeScript: functions (declared, or
// arrow and function expressions bound to a name or to exports), methods
// assigned to an object or a prototype (res.send = function), classes
// (declared, or class expressions bound to a name or to exports) with
// their methods (static, async, get/set, #private, generators, arrow
// fields), object literals bound to a name with their methods, and TS
// interfaces, type aliases, enums and namespaces.
func init() {
	const id = `[A-Za-z_$][\w$]*`
	// A function value: function ..., async (a) =>, a =>, <T>(a): R =>.
	const params = `\((?:[^()]|\([^()]*\))*\)` // one level of nested parentheses
	const fnValue = `(?:async\s+)?(?:function\b|(?:<[^>]*>\s*)?` + params + `\s*(?::[^=]+)?=>|` + id + `\s*=>)`
	// A function value, possibly wrapped in a call: withMeta((a) => {,
	// React.forwardRef<R, P>((props, ref) => {.
	const wrappedFn = `(?:[\w$.]+\s*(?:<[^()]*>)?\s*\(\s*)?` + fnValue
	// Calls whose callback is not the value bound: items.map((i) => {,
	// useMemo(() => {.
	notWrapper := regexp.MustCompile(`\.\s*(?:map|filter|reduce|reduceRight|forEach|find|findIndex|findLast|some|every|sort|flatMap|then|catch|finally|replace|replaceAll|on|push|all|race|allSettled|from)\s*\(|\b(?:useMemo|useEffect|useLayoutEffect|setTimeout|setInterval|setImmediate|computed|watch)\s*\(`)
	wrapped := func(r declRule) declRule {
		r.reject = notWrapper
		return r
	}
	const generics = `<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>` // two levels of nesting
	const mods = `(?:(?:public|private|protected|static|async|readonly|override|abstract|declare|accessor|get|set)\s+)*`
	register(&outliner{style: braces, lineComment: "//", regexps: true, rules: []declRule{
		decl("func", `^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*(`+id+`)`, "function"),
		decl("class", `^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+(`+id+`)`, "class"),
		decl("class", `^\s*(?:export\s+)?(?:const|let|var)\s+(`+id+`)\s*=\s*class\b`, "class"),
		decl("class", `^\s*(?:module\.)?exports(?:\.`+id+`)?\s*=\s*class\s+(`+id+`)`, "class"),
		decl("interface", `^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?interface\s+(`+id+`)`, "interface"),
		decl("type", `^\s*(?:export\s+)?(?:declare\s+)?type\s+(`+id+`)\s*(?:<[^=]*>)?\s*=`, "type"),
		decl("enum", `^\s*(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+(`+id+`)`, "enum"),
		decl("namespace", `^\s*(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+(`+id+`(?:\.`+id+`)*)\s*\{`, "namespace", "module"),
		wrapped(decl("func", `^\s*(?:export\s+)?(?:const|let|var)\s+(`+id+`)\s*(?::[^=]+)?=\s*`+wrappedFn, "=>", "function")),
		{re: decl("", `^\s*(?:export\s+)?(?:const|let|var)\s+(`+id+`)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:<[^>]*>\s*)?\(\s*[{\[]?$`).re, kind: "func", follows: "=>", need: []string{"("}},
		decl("object", `^\s*(?:export\s+)?(?:const|let|var)\s+(`+id+`)\s*(?::[^=]+)?=\s*\{\s*$`, "{"),
		decl("func", `^\s*module\.exports\s*=\s*(?:async\s+)?function\s*\*?\s*(`+id+`)`, "exports"),
		decl("func", `^\s*(?:module\.)?exports\.(`+id+`)\s*=\s*`+fnValue, "exports"),
		decl("object", `^\s*module\.(exports)\s*=\s*\{\s*$`, "exports"),
		// An object literal bound to a name and exported in one chain
		// (koa's `const proto = module.exports = {`): named by the name
		// the file uses for it.
		decl("object", `^\s*(?:const|let|var)\s+(`+id+`)\s*=\s*(?:module\.exports|exports)\s*=\s*\{\s*$`, "exports"),
		// An object literal exported under a name: exports.x = {,
		// module.exports.x = {.
		decl("object", `^\s*(?:module\.)?exports\.(`+id+`)\s*=\s*\{\s*$`, "exports"),
		// A property defined with a getter: Object.defineProperty(obj,
		// 'name', {, express's defineGetter(req, 'protocol', function.
		{re: decl("", `^\s*(?:Object\.)?define(?:Getter|Property)\s*\(\s*(`+id+`(?:\.`+id+`)*?)(?:\.prototype)?\s*,\s*['"]([\w$]+)['"]\s*,`).re,
			kind: "method", qualified: true, need: []string{"define"}},
		// An anonymous function exported: named "exports".
		decl("func", `^\s*module\.(exports)\s*=\s*`+fnValue, "exports"),
		// A function assigned to a member: res.send = function send (body) {,
		// Router.prototype.use = function, app.get = (a) => {.
		{re: decl("", `^\s*(`+id+`(?:\.`+id+`)*?)(?:\.prototype)?\.(`+id+`)\s*=\s*`+wrappedFn).re,
			kind: "method", qualified: true, reject: notWrapper, need: []string{"=>", "function"}},
		// Members of a class or object literal.
		member("method", `^\s+`+mods+`\*?\s*(#?`+id+`)\s*\??\s*(?:`+generics+`)?\s*\((?:[^;]*\)\s*(?::\s*[^;{]+)?\{.*$|[^)]*$)`, "("),
		// A method named by a keyword that heads no block (koa's
		// ctx.throw, a Map's delete): "throw (...args) {" is no statement.
		{re: member("", `^\s+(?:(?:static|async)\s+)*(throw|delete|new|return|typeof)\s*\([^;]*\)\s*\{\s*$`).re,
			kind: "method", member: true, keywordName: true, need: []string{"("}},
		wrapped(member("method", `^\s+(?:(?:public|private|protected|static|readonly|override)\s+)*(#?`+id+`)\s*(?::[^=]+)?=\s*`+wrappedFn, "=>", "function")),
		member("method", `^\s+(?:async\s+)?(`+id+`)\s*:\s*`+fnValue, ":"),
		// A generic method whose type parameters run over several lines.
		{re: member("", `^\s+`+mods+`\*?\s*(#?`+id+`)\s*<\s*$`).re, kind: "method", member: true, follows: "(", need: []string{"<"}},
		// A method signature without a body: an interface's, an abstract
		// one, an overload.
		signature([]string{"interface", "class"}, "method",
			`^\s+`+mods+`(#?`+id+`)\s*\??\s*(?:`+generics+`)?\s*`+params+`\s*(?::\s*[^={]+)?;?\s*$`, "("),
	}}, "javascript", "typescript")
}
