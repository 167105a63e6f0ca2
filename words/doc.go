// Package words is askls's one text model: how source text and questions
// are cut into search terms, for the index, the ranking and the agent
// alike.
//
//   - Scan: the terms of a text. An identifier is kept whole, lower-cased,
//     and its parts follow it (camelCase, snake_case, digits, dotted
//     pieces): "ServeHTTP" gives servehttp, serve, http.
//   - Parts: where an identifier splits.
//   - Stem: one stemmer (Porter's, for plain lower-case words of 4 to 20
//     letters), with a cache.
//   - IsStop: one list of stop words, as words and as stems.
//   - IsCode and CutContraction: how a question's word is read (written as
//     code or as English; "doesn't" is "doesn").
//
// What kind of file a path is (test, prose, generated, …) is package
// corpus. This package imports neither bleve nor any other package of
// askls. Everything here is safe for concurrent use: the stem cache locks.
package words
