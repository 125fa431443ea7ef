// Package bigtable writes the large JSON table gcx encode is measured on,
// made from the corpus rather than downloaded: search_symbols-500's rows
// repeated 197 times (about 25 MB), each copy's id suffixed with its copy
// number and its start_line raised by it, so that no two rows are equal.
// bench/encodejson and bench/floors both measure on it.
package bigtable

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// Copies is how many times the rows are repeated.
const Copies = 197

// keys are the members of a search_symbols row, in the order written.
var keys = []string{"id", "kind", "name", "file_path", "start_line", "signature"}

// Write writes the table made from rows, the JSON text of
// search_symbols-500's response (an array of objects), to w.
func Write(w io.Writer, rows []byte) error {
	var response []map[string]any
	if err := json.Unmarshal(rows, &response); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteByte('[')
	first := true
	for copyNo := range Copies {
		for _, row := range response {
			if !first {
				bw.WriteByte(',')
			}
			first = false
			bw.WriteByte('{')
			for k, key := range keys {
				val, ok := row[key]
				if !ok {
					continue
				}
				switch key {
				case "id":
					val = fmt.Sprintf("%s#%d", val, copyNo)
				case "start_line":
					n, ok := val.(float64)
					if !ok {
						return fmt.Errorf("bigtable: a row's start_line is %T, not a number", val)
					}
					val = n + float64(copyNo)
				}
				if k > 0 {
					bw.WriteByte(',')
				}
				kb, err := json.Marshal(key)
				if err != nil {
					return err
				}
				vb, err := json.Marshal(val)
				if err != nil {
					return err
				}
				bw.Write(kb)
				bw.WriteByte(':')
				bw.Write(vb)
			}
			bw.WriteByte('}')
		}
	}
	bw.WriteByte(']')
	// bufio.Writer keeps its first error: Flush returns any write's.
	return bw.Flush()
}
