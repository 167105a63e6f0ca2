package index

// outlineExtractors list the symbols of a file in languages without a
// parser here; chunksFromSymbols turns the outline into chunks. Filled in
// outline_*.go.
var outlineExtractors = map[string]func(content []byte, li lineIndex) []Symbol{}
