package streaming

import "io"

// NewPortableDecoder returns a decoder that reads every row the portable
// way, as it does where there is no row scanner in assembly, so that tests
// outside the package can run that path on amd64 too.
func NewPortableDecoder(r io.Reader) *Decoder {
	d := NewDecoder(r)
	d.portable = true
	return d
}
