// Package realservers reads the corpus of real MCP servers' tool results
// that record.mjs recorded with the stock TypeScript SDK client: one JSON
// file per server in corpus/, and corpus/manifest.json listing them. The
// token scorecard (bench/scorecard) measures it; Load checks that it is
// well formed and agrees with its manifest.
package realservers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// ManifestFile is the manifest's name in the corpus directory.
const ManifestFile = "manifest.json"

// A Manifest lists the recorded servers.
type Manifest struct {
	RecordedAt string            `json:"recorded_at"`
	Client     Client            `json:"client"`
	Node       string            `json:"node"`
	Servers    []ManifestEntry   `json:"servers"`
	Services   map[string]string `json:"services"`
	TotalCalls int               `json:"total_calls"`
}

// Client is the MCP client the corpus was recorded with.
type Client struct {
	Package string `json:"package"`
	Version string `json:"version"`
	License string `json:"license"`
	Classes string `json:"classes"`
}

// A ManifestEntry is one server of the manifest.
type ManifestEntry struct {
	Server  string `json:"server"`
	Package string `json:"package"`
	Version string `json:"version"`
	License string `json:"license"`
	File    string `json:"file"`
	Calls   int    `json:"calls"`
	Errors  int    `json:"errors"` // results with isError
}

// A Server is one server's file: what was run and every call made.
type Server struct {
	Server        string          `json:"server"`
	Package       string          `json:"package"`
	Version       string          `json:"version"`
	License       string          `json:"license"`
	LicenseSource string          `json:"license_source"`
	ServerInfo    json.RawMessage `json:"server_info"`
	Data          string          `json:"data"`
	ToolsList     ToolsList       `json:"tools_list"`
	Calls         []Call          `json:"calls"`
}

// ToolsList is the server's tools/list result, of which the names are
// read; Raw keeps it whole.
type ToolsList struct {
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the whole result besides the names.
func (t *ToolsList) UnmarshalJSON(b []byte) error {
	type plain ToolsList
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*t = ToolsList(p)
	t.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// A Call is one tools/call: the tool, its arguments and either the
// CallToolResult exactly as the client received it or, when the server
// answered with a JSON-RPC error instead, that error.
type Call struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *RPCError       `json:"error,omitempty"`
}

// RPCError is a JSON-RPC error a call got instead of a result.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// A Block is a content block of a result, as far as the corpus reads it.
type Block struct {
	Type string  `json:"type"`
	Text *string `json:"text"`
}

// A Result is the part of a CallToolResult that the corpus reads.
type Result struct {
	Content           []Block         `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// ParseResult reads the call's result; it is an error to call it on a
// call that has none.
func (c Call) ParseResult() (Result, error) {
	var r Result
	if c.Result == nil {
		return r, errors.New("the call has no result")
	}
	if err := json.Unmarshal(c.Result, &r); err != nil {
		return r, err
	}
	return r, nil
}

// Texts returns the strings of the result's text blocks, in order: what
// the model reads.
func (r Result) Texts() []string {
	var out []string
	for _, b := range r.Content {
		if b.Type == "text" && b.Text != nil {
			out = append(out, *b.Text)
		}
	}
	return out
}

// A Corpus is the manifest and the servers it lists, in manifest order.
type Corpus struct {
	Manifest Manifest
	Servers  []Server
}

// Load reads the corpus in dir and checks it: every file parses with no
// unknown member, every server file agrees with its manifest entry
// (package, version, licence, call and error counts), every call names a
// tool of the server's tools/list and holds exactly one of a result and an
// error, every result has a content array whose text blocks hold a
// string, and no file lies in dir that the manifest does not list.
func Load(dir string) (*Corpus, error) {
	var c Corpus
	if err := readStrict(filepath.Join(dir, ManifestFile), &c.Manifest); err != nil {
		return nil, err
	}
	m := c.Manifest
	switch {
	case m.RecordedAt == "" || m.Client.Package == "" || m.Client.Version == "" || m.Client.License == "":
		return nil, fmt.Errorf("%s: recorded_at and the client's package, version and licence are required", ManifestFile)
	case len(m.Servers) == 0:
		return nil, fmt.Errorf("%s: lists no server", ManifestFile)
	}
	listed := map[string]bool{ManifestFile: true}
	total := 0
	for _, e := range m.Servers {
		if e.Server == "" || e.Package == "" || e.Version == "" || e.License == "" || e.File == "" {
			return nil, fmt.Errorf("%s: server %q: server, package, version, license and file are required", ManifestFile, e.Server)
		}
		if listed[e.File] || filepath.Base(e.File) != e.File {
			return nil, fmt.Errorf("%s: server %q: file %q is listed twice or is not a plain file name", ManifestFile, e.Server, e.File)
		}
		listed[e.File] = true
		s, err := loadServer(filepath.Join(dir, e.File), e)
		if err != nil {
			return nil, err
		}
		c.Servers = append(c.Servers, s)
		total += e.Calls
	}
	if m.TotalCalls != total {
		return nil, fmt.Errorf("%s: total_calls is %d, the servers' calls add up to %d", ManifestFile, m.TotalCalls, total)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var stray []string
	for _, de := range entries {
		if !listed[de.Name()] {
			stray = append(stray, de.Name())
		}
	}
	if len(stray) > 0 {
		sort.Strings(stray)
		return nil, fmt.Errorf("%s: files the manifest does not list: %v", dir, stray)
	}
	return &c, nil
}

func loadServer(path string, e ManifestEntry) (Server, error) {
	var s Server
	if err := readStrict(path, &s); err != nil {
		return s, err
	}
	name := filepath.Base(path)
	switch {
	case s.Server != e.Server || s.Package != e.Package || s.Version != e.Version || s.License != e.License:
		return s, fmt.Errorf("%s: server %s %s@%s (%s), but the manifest says %s %s@%s (%s)", name,
			s.Server, s.Package, s.Version, s.License, e.Server, e.Package, e.Version, e.License)
	case s.LicenseSource == "":
		return s, fmt.Errorf("%s: license_source is required", name)
	case len(s.Calls) != e.Calls:
		return s, fmt.Errorf("%s: %d calls, the manifest says %d", name, len(s.Calls), e.Calls)
	case len(s.ToolsList.Tools) == 0:
		return s, fmt.Errorf("%s: tools_list lists no tool", name)
	}
	tools := map[string]bool{}
	for _, t := range s.ToolsList.Tools {
		tools[t.Name] = true
	}
	errs := 0
	for i, call := range s.Calls {
		where := fmt.Sprintf("%s: call %d (%s)", name, i, call.Tool)
		if !tools[call.Tool] {
			return s, fmt.Errorf("%s: the server's tools/list has no such tool", where)
		}
		if len(call.Arguments) == 0 || call.Arguments[0] != '{' {
			return s, fmt.Errorf("%s: arguments must be an object", where)
		}
		if (call.Result == nil) == (call.Error == nil) {
			return s, fmt.Errorf("%s: needs exactly one of result and error", where)
		}
		if call.Error != nil {
			if call.Error.Message == "" {
				return s, fmt.Errorf("%s: an error without a message", where)
			}
			continue
		}
		r, err := call.ParseResult()
		if err != nil {
			return s, fmt.Errorf("%s: result: %v", where, err)
		}
		if r.Content == nil {
			return s, fmt.Errorf("%s: result has no content array", where)
		}
		for j, b := range r.Content {
			if b.Type == "" {
				return s, fmt.Errorf("%s: content block %d has no type", where, j)
			}
			if b.Type == "text" && b.Text == nil {
				return s, fmt.Errorf("%s: content block %d is a text block without a text string", where, j)
			}
		}
		if r.IsError {
			errs++
		}
	}
	if errs != e.Errors {
		return s, fmt.Errorf("%s: %d error results, the manifest says %d", name, errs, e.Errors)
	}
	return s, nil
}

// readStrict decodes one JSON value from path into v, refusing unknown
// members and anything after the value.
func readStrict(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %v", filepath.Base(path), err)
	}
	if dec.More() {
		return fmt.Errorf("%s: more than one JSON value", filepath.Base(path))
	}
	return nil
}
