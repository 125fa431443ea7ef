package jsontext

import (
	"fmt"
	"strings"
	"testing"
)

// splitInputs put every kind of token, and every fault a string or a
// number can have, where a stream's buffer may end inside it.
var splitInputs = []string{
	`["abc","a\"b\\","x\u00e9\ud83d\ude00y","é日本😀","",-0,12.5e+3,1E-7,0,true,false,null]`,
	`{"name":"v","long name with é":{"a":[1,2,{"b":"c"}]},"n":-12.75e10}`,
	`["a` + "\xff" + `b"]`,
	`["ab` + "\x01" + `c"]`,
	`["a\qb"]`,
	`["a\u12G4"]`,
	`["a\ud83d"]`,
	`["a\ud83dx"]`,
	`["abc`,
	`["abc\`,
	`["é`,
	`[12.`,
	`[1e+]`,
	`[-]`,
	`[01]`,
	`[1.5x]`,
	`{"a":1,"a":2}`,
	`{"a" 1}`,
	`[1,]`,
	"[\"" + strings.Repeat("xy", 40) + "\"," + strings.Repeat("9", 30) + "]",
}

// A stream reads the tokens a whole text holds, with the same texts and
// positions, and the same error at the same place, wherever its reads
// end: in a string before its closing quote, inside an escape or a
// character, in a number, and with or without a bound on tokens.
func TestStreamAgreesWhereReadsEnd(t *testing.T) {
	for _, in := range splitInputs {
		for _, limit := range []int{0, 3, 8, 40} {
			whole := NewStringReader(in)
			whole.RejectDuplicateNames, whole.MaxTokenBytes, whole.CheckCompact = true, limit, true
			want, wantErr := tokens(whole)
			for n := 1; n <= len(in); n++ {
				for _, sized := range []bool{false, true} {
					src := &chunker{s: in, n: n}
					stream := NewReader(src)
					if sized {
						stream = NewReaderSize(src, 64<<10)
					}
					stream.RejectDuplicateNames, stream.MaxTokenBytes, stream.CheckCompact = true, limit, true
					got, gotErr := tokens(stream)
					if fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || stream.Compact() != whole.Compact() {
						t.Fatalf("%q, reads of %d, limit %d, sized %v:\nstream %v, %v\nwhole  %v, %v", in, n, limit, sized, got, gotErr, want, wantErr)
					}
				}
			}
		}
	}
}
