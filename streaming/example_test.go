package streaming_test

import (
	"fmt"
	"io"
	"log"

	"github.com/gcxwire/gcx/streaming"
)

// A client holds a tool call's text block as a string: NewDecoderString
// reads it in place, and the rows it hands out point into it, so keeping
// them copies nothing.
func ExampleNewDecoderString() {
	text := "GCX1 tool=search_symbols fields=id,kind,name rows=2\n" +
		"1\tfunction\tParseHeader\n" +
		"2\ttype\tDecoder\n"
	d := streaming.NewDecoderString(text)
	var rows [][]string
	for {
		kind, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		switch kind {
		case streaming.KindHeader:
			fmt.Println(d.Header().Tool, d.Header().Fields)
		case streaming.KindRow:
			rows = append(rows, d.Row()) // fresh rows are the caller's to keep
		}
	}
	fmt.Println(rows)
	// Output:
	// search_symbols [id kind name]
	// [[1 function ParseHeader] [2 type Decoder]]
}
