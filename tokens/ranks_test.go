package tokens

import (
	"testing"
	"unsafe"

	"github.com/gcxwire/gcx/tokens/internal/ranktable"
	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// TestRankFilesMatchSource holds the embedded tables to tiktoken's rank
// files: each is byte for byte what go generate writes from its source,
// and gives every token of the source its rank. After a change to the
// source or to package ranktable, run go generate ./tokens.
func TestRankFilesMatchSource(t *testing.T) {
	for name, file := range rankFiles {
		text, err := assets.Assets.ReadFile(name + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		source, err := ranktable.Parse(name+".tiktoken", text)
		if err != nil {
			t.Fatal(err)
		}
		data, err := ranktable.Build(source)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != *file {
			t.Errorf("%s.ranks (%d bytes) is not what go generate writes from %s.tiktoken (%d bytes): run go generate ./tokens",
				name, len(*file), name, len(data))
		}
		tab, err := loadTable(name)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Tokens != len(source) {
			t.Errorf("%s: the embedded table holds %d tokens, the source %d", name, tab.Tokens, len(source))
		}
		for _, tok := range source {
			if got := tab.Rank(tok.Bytes); got != tok.Rank {
				t.Fatalf("%s: the embedded table ranks %q %d, the source %d", name, tok.Bytes, got, tok.Rank)
			}
		}
	}
}

// TestRankFilesReadInPlace: on this machine loading a table copies
// nothing: its slices are the embedded bytes.
func TestRankFilesReadInPlace(t *testing.T) {
	if one := uint16(1); *(*byte)(unsafe.Pointer(&one)) != 1 {
		t.Skip("a big-endian machine copies the slots out")
	}
	for name, file := range rankFiles {
		tab, err := loadTable(name)
		if err != nil {
			t.Fatal(err)
		}
		start := uintptr(unsafe.Pointer(unsafe.StringData(*file)))
		if at := uintptr(unsafe.Pointer(&tab.Pair[0])); at < start || at >= start+uintptr(len(*file)) {
			t.Errorf("%s: the table's slots were copied out of the embedded bytes", name)
		}
	}
}
