package conformance

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The commands that print vectors and findings (gcx-vectors -show, gcx
// explore) write bytes the same way: a heading with the length, then one
// quoted line each, so TAB, CR, NUL and invalid UTF-8 are visible and a
// long input stays readable.

// maxShownLine bounds one shown line or value, in bytes of its quoted form.
const maxShownLine = 200

// WriteQuoted writes b to w under the heading what: its length, then each of
// its lines as a quoted Go string cut to a prefix (CutText), at most
// maxLines of them.
func WriteQuoted(w io.Writer, what string, b []byte, maxLines int) {
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	fmt.Fprintf(w, "   %s, %d bytes:\n", what, len(b))
	for i, line := range lines {
		if i == maxLines {
			fmt.Fprintf(w, "      ... %d more lines\n", len(lines)-i)
			break
		}
		fmt.Fprintf(w, "      %s\n", CutText(strconv.Quote(line)))
	}
}

// CutText returns s, or, when it is longer than a shown line may be, its
// first bytes and its length.
func CutText(s string) string {
	if len(s) > maxShownLine {
		return s[:maxShownLine] + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return s
}
