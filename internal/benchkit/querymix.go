package benchkit

// QueryMix is the mix of queries whose latency askls measures
// (askls-bench bench, askls-bench eval --latency, BenchmarkSearch): identifiers, quoted
// phrases and natural-language questions over the Go standard library.
var QueryMix = []string{
	"ServeHTTP", "DetectContentType", "ConstantTimeCompare", "ReadFile", "Mutex", "Duration.String",
	"http.ResponseWriter", "NewReader", "ParseDuration", "chunkWriter",
	`"content type"`, `"keep alive"`, `"connection reset"`, `"not implemented"`, `"end of file"`,
	"where does the http server guess the content type of a response",
	"how does context cancellation propagate to child contexts",
	"compare two byte slices in constant time",
	"how are gzip headers parsed",
	"which function formats a duration as a string",
	"how does the scheduler choose GOMAXPROCS in a container",
	"where is the DNS resolver timeout configured",
	"parse a url query string with many parameters",
}
