//go:build !amd64 || purego

package streaming

// haveRowScanner: there is no row scanner in assembly here.
const haveRowScanner = false

// readPlainRow reads nothing where there is no row scanner in assembly:
// every row takes the general path, which checks the buffered input for
// backslashes, CRs and UTF-8 once per buffer and splits rows with
// bytes.IndexByte.
func (d *Decoder) readPlainRow() bool { return false }
