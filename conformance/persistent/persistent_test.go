package persistent

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// The framing of the persistent mode carries any bytes: every byte value,
// LF and CR among them, and text that is not UTF-8, goes in and comes back
// on stdout and stderr exactly, each request answered by one line.
func TestServeCarriesAnyBytes(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	inputs := [][]byte{nil, all, []byte("\n\n"), []byte("\xff\xfe{\"id\":9}\n"), bytes.Repeat(all, 3000)}
	var requests bytes.Buffer
	for i, in := range inputs {
		b, _ := json.Marshal(Request{ID: i + 1, Args: []string{"echo", string(rune('a' + i))}, Stdin: base64.StdEncoding.EncodeToString(in)})
		requests.Write(append(b, '\n'))
	}
	var out bytes.Buffer
	err := Serve(&requests, &out, func(args []string, stdin []byte, stdout, stderr io.Writer) int {
		stdout.Write(stdin)
		stderr.Write(append([]byte(strings.Join(args, " ")), stdin...))
		return len(stdin) % 4
	})
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(&out)
	if hello, _ := r.ReadString('\n'); hello != Hello+"\n" {
		t.Fatalf("hello %q", hello)
	}
	for i, in := range inputs {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("response %d: %v", i+1, err)
		}
		var resp Response
		if err := json.Unmarshal(line, &resp); err != nil {
			t.Fatal(err)
		}
		stdout, _ := base64.StdEncoding.DecodeString(resp.Stdout)
		stderr, _ := base64.StdEncoding.DecodeString(resp.Stderr)
		if resp.ID != i+1 || resp.Status == nil || *resp.Status != len(in)%4 || !bytes.Equal(stdout, in) ||
			!bytes.Equal(stderr, append([]byte("echo "+string(rune('a'+i))), in...)) {
			t.Errorf("response %d: id %d, status %v, %d bytes of stdout", i+1, resp.ID, resp.Status, len(stdout))
		}
	}
	if rest, _ := io.ReadAll(r); len(rest) > 0 {
		t.Errorf("more after the responses: %q", rest)
	}
	for _, bad := range []string{"not json\n", `{"id":1,"args":[],"stdin":"%%%"}` + "\n"} {
		if err := Serve(strings.NewReader(bad), io.Discard, nil); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
