package ollamatest

import "strings"

// commonWords become ordinary (SPM "normal") tokens, each with the chain
// of its prefixes so that the tokenizer can merge up to the whole word, in
// two forms: as is and with the "▁" that stands for a leading space. Without
// them every byte of a prompt is one token, and attention over a prompt of
// a few thousand bytes costs seconds even in a model this small.
var commonWords = strings.Fields(`
the of and to in is it that for on with as be are this by an or not from at
which can if when then there their its has have was were will would should
does do what where how why who all any each one two only also but than more
first last new file line lines path code function method type value values
error errors return returns returned call calls called read write search grep
query pattern result results answer question evidence symbol package import
func var const struct interface map chan go defer select case default switch
break continue range else goto fallthrough nil true false string int int64
uint byte rune bool float64 len cap make append copy delete panic recover
print println context Context ctx err fmt Errorf Sprintf Println Printf
errors New Is As time Duration Sleep Second Millisecond Now Since sync Mutex
Lock Unlock WaitGroup Add Done Wait http Request Response Handler ServeHTTP
io Reader Writer ReadAll bytes Buffer strings Builder json Marshal Unmarshal
os Open Close File Exit filepath Join test Test testing Fatal Fatalf Errorf
Run Helper max min retry Retry backoff delay attempt attempts config Config
server Server client Client start Start stop Stop open close index Index
name names data size count key keys next prev list List get Get set Set
`)

// addWordPieces adds the printable ASCII characters, "▁", and commonWords
// with their prefixes as normal tokens.
func (v *vocab) addWordPieces() {
	v.add("▁", typeNormal)
	for c := byte('!'); c <= '~'; c++ {
		v.add(string(c), typeNormal)
	}
	for _, w := range commonWords {
		for _, form := range []string{w, "▁" + w} {
			for i := range form {
				if i > 0 {
					v.add(form[:i], typeNormal)
				}
			}
			v.add(form, typeNormal)
		}
	}
}
