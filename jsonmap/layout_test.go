package jsonmap_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// TestLayoutRegistryCoversDeclaredTools: the registry holds the tools the
// format was made for, each with distinct field names and JSON keys
// [LAY-1] [LAY-6].
func TestLayoutRegistryCoversDeclaredTools(t *testing.T) {
	want := []string{"search_symbols", "find_usages", "get_callers", "analyze", "find_cycles", "graph_stats", "get_symbol_source"}
	var got []string
	for _, l := range jsonmap.Layouts() {
		got = append(got, l.Tool)
		if _, ok := jsonmap.Lookup(l.Tool); !ok {
			t.Errorf("Lookup(%s) fails", l.Tool)
		}
		for _, p := range l.Parts {
			names, keys := map[string]bool{}, map[string]bool{}
			for _, f := range p.Fields {
				if names[f.Name] || keys[f.Key] {
					t.Errorf("%s: field %s or key %s repeats", p.Tool, f.Name, f.Key)
				}
				names[f.Name], keys[f.Key] = true, true
			}
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Layouts() = %v, want %v", got, want)
	}
	if _, ok := jsonmap.Lookup("get_callers.nodes"); ok {
		t.Error("a section name is not a tool")
	}
}

// TestLayoutsAreCopies: callers cannot change the frozen registry [LAY-5].
func TestLayoutsAreCopies(t *testing.T) {
	l, _ := jsonmap.Lookup("search_symbols")
	l.Parts[0].Fields[0].Name = "changed"
	again, _ := jsonmap.Lookup("search_symbols")
	if again.Parts[0].Fields[0].Name != "id" {
		t.Fatal("changing a looked-up layout changed the registry")
	}
}

// layoutTable renders the registry as the table of chapter 14.6.
func layoutTable() string {
	var b strings.Builder
	b.WriteString("| tool | section | shape | fields (GCX1 field ← JSON member: type) |\n|---|---|---|---|\n")
	for _, l := range jsonmap.Layouts() {
		for _, p := range l.Parts {
			member := "(whole value)"
			if p.Key != "" {
				member = "← member `" + p.Key + "`"
			}
			var cols []string
			for _, f := range p.Fields {
				c := fmt.Sprintf("`%s` ← `%s`: %s", f.Name, f.Key, f.Type)
				if f.Optional {
					c += "?"
				}
				cols = append(cols, c)
			}
			fmt.Fprintf(&b, "| %s | `%s` %s | %s | %s |\n", l.Tool, p.Tool, member, p.Shape, strings.Join(cols, ", "))
		}
	}
	return b.String()
}

// TestLayoutTableInSpec: the spec's layout table is the registry, column
// for column [LAY-6].
func TestLayoutTableInSpec(t *testing.T) {
	want := layoutTable()
	b, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), want) {
		t.Fatalf("docs/wire-format.md does not hold the registry's table; it should read:\n%s", want)
	}
}

// TestLayoutEnforcedOnDecode: a payload that names a declared section
// without json= must have the frozen fields, parts and types [LAY-3]
// [LAY-4] [LAY-5].
func TestLayoutEnforcedOnDecode(t *testing.T) {
	cases := []struct {
		name, payload string
		rule          string
		line, column  int
		msg           string
	}{
		{"FewerFields", "GCX1 tool=search_symbols fields=id,kind,name,path,line\na\tb\tc\td\t1\n", "LAY-5", 1, 33, "frozen fields id,kind,name,path,line,sig"},
		{"ExtraField", "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig,score\na\tb\tc\td\t1\t\t0.9\n", "LAY-5", 1, 33, "never changes"},
		{"RenamedField", "GCX1 tool=graph_stats fields=nodes,edges,files,symbols,packages,indexed_at\n1\t2\t3\t4\t\t\n", "LAY-5", 1, 30, "frozen fields"},
		{"ReorderedFields", "GCX1 tool=find_cycles fields=len,kind,cycle\n3\timport\t[]\n", "LAY-5", 1, 30, "frozen fields kind,len,cycle"},
		{"WrongType", "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig\na\tb\tc\td\t\"62\"\t\n", "LAY-3", 2, 9, "typed int and the cell holds a string"},
		{"IntNotFraction", "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig\na\tb\tc\td\t6.0\t\n", "LAY-3", 2, 9, "typed int"},
		{"RequiredEmpty", "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig\na\t\tc\td\t1\t\n", "LAY-3", 2, 3, "required"},
		{"NullInStringColumn", "GCX1 tool=analyze fields=rule,severity,path,line,symbol,msg\nr\tnull\tp\t1\t\tm\n", "LAY-3", 2, 3, "holds null"},
		{"SecondPartFirst", "GCX1 tool=get_callers.edges fields=from,to,kind,line\na\tb\tcalls\t\n", "LAY-4", 1, 1, "begins with tool=get_callers.nodes"},
		{"MissingPart", "GCX1 tool=get_callers.nodes fields=id,kind,name,path,line,depth\n", "LAY-4", 1, 1, "needs section tool=get_callers.edges"},
		{"WrongSecondPart", "GCX1 tool=get_callers.nodes fields=id,kind,name,path,line,depth\nGCX1 tool=x fields=a\n", "LAY-4", 2, 1, "to be tool=get_callers.edges"},
		{"PartWithJSONForm", "GCX1 tool=get_callers.nodes fields=id,kind,name,path,line,depth\nGCX1 tool=get_callers.edges fields=from,to,kind,line json=rows\n", "LAY-4", 2, 59, "carries no json= pair"},
		{"ObjectLayoutTwoRows", "GCX1 tool=graph_stats fields=nodes,edges,files,symbols,packages,indexed\n1\t2\t3\t4\t\t\n1\t2\t3\t4\t\t\n", "LAY-2", 1, 1, "one object, as one row"},
		{"ObjectLayoutNoRow", "GCX1 tool=get_symbol_source fields=id,path,start,end,lang,source\n", "LAY-2", 1, 1, "has 0 rows"},
		{"ExtraSection", "GCX1 tool=find_usages fields=path,line,col,kind,caller,snippet\nGCX1 tool=find_usages fields=path,line,col,kind,caller,snippet\n", "MAP-7", 2, 1, "not part of the value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkDecodeError(t, c.payload, spec.ErrConstraint, c.rule, c.line, c.column, c.msg)
		})
	}
}

// checkDecodeError decodes payload and checks the error's class, rule,
// position (line, column and the matching offset) and message.
func checkDecodeError(t *testing.T, payload string, class error, rule string, line, column int, msg string) {
	t.Helper()
	out, err := jsonmap.Decode([]byte(payload))
	var e *spec.Error
	if !errors.As(err, &e) {
		t.Fatalf("Decode(%q) = %s, %v; want a *spec.Error", payload, out, err)
	}
	if !errors.Is(err, class) || e.Rule != rule || e.Line != line || e.Column != column || !strings.Contains(e.Msg, msg) {
		t.Fatalf("Decode(%q) = %v (rule %s at %d:%d), want class %v, rule %s at %d:%d, message with %q",
			payload, err, e.Rule, e.Line, e.Column, class, rule, line, column, msg)
	}
	lines := strings.SplitAfter(payload, "\n")
	offset := len(strings.Join(lines[:line-1], "")) + column - 1
	if e.Offset != int64(offset) {
		t.Errorf("offset %d, want %d", e.Offset, offset)
	}
	if out != nil {
		t.Errorf("Decode returned %q with its error", out)
	}
}

// TestLayoutOffShapeEncodesGenerically: a declared tool's value that does
// not fit the layout still encodes, losslessly, in a generic form that
// carries json= and so claims no layout [LAY-7]; Fit says why.
func TestLayoutOffShapeEncodesGenerically(t *testing.T) {
	cases := []struct{ tool, json, why string }{
		{"search_symbols", `[{"id":"a","kind":"f","name":"A","file_path":"a.go","start_line":1,"score":0.5}]`, `element 1 has member "score", which the layout does not declare`},
		{"search_symbols", `[{"kind":"f","id":"a","name":"A","file_path":"a.go","start_line":1}]`, `member "id" out of the layout's order`},
		{"search_symbols", `[{"id":"a","kind":"f","name":"A","file_path":"a.go"}]`, `lacks member "start_line"`},
		{"search_symbols", `{"results":[]}`, "needs an array of objects"},
		{"search_symbols", `[1]`, "element 1 is a number"},
		{"get_callers", `{"edges":[],"nodes":[]}`, `member 1 is "edges" where the layout needs "nodes"`},
		{"get_callers", `{"nodes":[]}`, `has 1 member,`},
		{"get_callers", `[]`, "needs an object with members"},
		{"graph_stats", `{"nodes":1,"edges":2,"files":3,"symbols":null}`, `in the object, member "symbols" is null, and the layout types it int`},
		{"search_symbols", `[{"id":"a","kind":"f","name":"A","file_path":"a.go","start_line":1},{"id":"b","kind":"f","name":"B","file_path":"b.go"}]`, `element 2 lacks member "start_line"`},
		{"find_usages", `[{"file_path":"a.go","line":1,"column":2,"kind":"call","snippet":"x"}]`, ""},
	}
	for _, c := range cases {
		l, _ := jsonmap.Lookup(c.tool)
		v, err := jsonmap.Parse([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		fit := l.Fit(v)
		if c.why == "" {
			if fit != nil {
				t.Errorf("%s %s: Fit = %v, want nil", c.tool, c.json, fit)
			}
			continue
		}
		if fit == nil || !strings.Contains(fit.Error(), c.why) {
			t.Errorf("%s %s: Fit = %v, want a reason with %q", c.tool, c.json, fit, c.why)
		}
		payload, err := jsonmap.Encode(c.tool, []byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		p, err := reference.Decode(payload)
		if err != nil {
			t.Fatal(err)
		}
		if form, ok := p.Sections[0].Lookup(jsonmap.KeyJSON); !ok || p.Sections[0].Tool != c.tool {
			t.Errorf("%s %s: payload %q should be a generic section (json=%s) named %s", c.tool, c.json, payload, form, c.tool)
		}
		back, err := jsonmap.Decode(payload)
		want, _ := jsonmap.Compact([]byte(c.json))
		if err != nil || string(back) != string(want) {
			t.Errorf("%s %s: round trip gave %s, %v", c.tool, c.json, back, err)
		}
	}
}

// TestSectionNameOfALayoutAsTool: a tool whose own name is a layout's
// section name writes json= even for a table, so its payload does not
// claim the layout [LAY-4].
func TestSectionNameOfALayoutAsTool(t *testing.T) {
	payload, err := jsonmap.Encode("get_callers.edges", []byte(`[{"a":1}]`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "GCX1 tool=get_callers.edges fields=a json=rows rows=1\n1\n"; string(payload) != want {
		t.Fatalf("got %q, want %q", payload, want)
	}
	payload, err = jsonmap.Encode("get_callers", []byte(`[{"a":1}]`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "GCX1 tool=get_callers fields=a json=rows rows=1\n1\n"; string(payload) != want {
		t.Fatalf("got %q, want %q", payload, want)
	}
}
