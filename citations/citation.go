package citations

// Citation is one checked citation of an answer. Its JSON form is the one
// `askls ask --json` prints and other tools read:
// {"n","path","start","end","symbol","excerpt","stale"}.
type Citation struct {
	N         int    `json:"n"`
	Path      string `json:"path"`
	Start     int    `json:"start"` // 1-based inclusive line
	End       int    `json:"end"`   // 1-based inclusive line
	StartByte int    `json:"-"`     // offset of the first byte of line Start
	EndByte   int    `json:"-"`     // offset just past the last byte of line End (its newline excluded)
	Symbol    string `json:"symbol"`
	Excerpt   string `json:"excerpt"`
	Stale     bool   `json:"stale"`
}
