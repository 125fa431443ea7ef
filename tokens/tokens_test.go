package tokens

import "testing"

// The counts below were taken from the published cl100k_base and o200k_base
// tables; a wrong table or a network fallback would change them.
func TestCountKnownStrings(t *testing.T) {
	cases := []struct {
		enc, text string
		want      int
	}{
		{CL100K, "", 0},
		{CL100K, "hello world", 2},
		{CL100K, "\t", 1},
		{CL100K, "\n", 1},
		{O200K, "hello world", 2},
		{CL100K, "<|endoftext|>", 7},
	}
	for _, c := range cases {
		got, err := Count(c.enc, c.text)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("Count(%s, %q) = %d, want %d", c.enc, c.text, got, c.want)
		}
	}
}

func TestUnknownEncoding(t *testing.T) {
	if _, err := Count("no_such_base", "x"); err == nil {
		t.Fatal("Count with an unknown encoding succeeded")
	}
}
