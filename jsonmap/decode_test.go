package jsonmap_test

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// TestDecodeMappingErrors: valid GCX1 that holds no JSON value under the
// mapping is a constraint error pointing at the header, meta value or cell
// at fault, after every GCX1 error [MAP-14] [MAP-7] [MAP-8] [MAP-9] [MAP-10]
// [MAP-11].
func TestDecodeMappingErrors(t *testing.T) {
	cases := []struct {
		name, payload string
		class         error
		rule          string
		line, column  int
		msg           string
	}{
		{"UnknownForm", "GCX1 tool=t fields= json=list\n", spec.ErrConstraint, "MAP-7", 1, 26, "names no form"},
		{"TwoValues", "GCX1 tool=t fields=a\n1\nGCX1 tool=u fields=b\n2\n", spec.ErrConstraint, "MAP-7", 3, 1, "section 2 (tool=u) is not part of the value"},
		{"ArrayFormTwoFields", "GCX1 tool=t fields=a,b json=array\n1\t2\n", spec.ErrConstraint, "MAP-9", 1, 20, "exactly one field"},
		{"ArrayFormEmptyCell", "GCX1 tool=t fields= json=array\n1\n\n", spec.ErrConstraint, "MAP-9", 3, 1, "the cell is empty"},
		{"ValueFormTwoRows", "GCX1 tool=t fields= json=value\n1\n2\n", spec.ErrConstraint, "MAP-9", 1, 1, "one value as one row"},
		{"ValueFormNoRow", "GCX1 tool=t fields= json=value\n", spec.ErrConstraint, "MAP-9", 1, 1, "0 rows"},
		{"ValueFormEmptyCell", "GCX1 tool=t fields= json=value\n\n", spec.ErrConstraint, "MAP-9", 2, 1, "the cell is empty"},
		{"ObjectEmptyMember", "GCX1 tool=t fields= json=object a=1 b=\n", spec.ErrConstraint, "MAP-10", 1, 39, "member b= is empty"},
		{"ObjectRowsWithoutTable", "GCX1 tool=t fields=a json=object n=1\nx\n", spec.ErrConstraint, "MAP-10", 1, 1, "no member is \"@\""},
		{"ContinuationMissing", "GCX1 tool=t fields=a json=object x=@ y=@\n1\n", spec.ErrConstraint, "MAP-11", 1, 40, "needs section 2, named t.y"},
		{"RowFormTwoRows", "GCX1 tool=t fields=a json=row\n1\n2\n", spec.ErrConstraint, "MAP-10", 1, 1, "one object as one row"},
		{"RowFormContinuationMissing", "GCX1 tool=t fields=a,b json=row\n1\t@\n", spec.ErrConstraint, "MAP-11", 2, 3, "needs section 2, named t.b"},
		{"RowFormCellTooDeep", "GCX1 tool=t fields=a,b json=row\n1\t" + strings.Repeat("{\"k\":", jsonmap.MaxDepth+1) + "\n", spec.ErrLimit, "MAP-4", 2, 3, "nested deeper"},
		{"ContinuationMisnamed", "GCX1 tool=t fields=a json=object x=@ y=@\n1\nGCX1 tool=t.z fields=b\n2\n", spec.ErrConstraint, "MAP-11", 3, 1, "must be named tool=t.y"},
		{"ContinuationWithForm", "GCX1 tool=t fields=a json=object x=@ y=@\n1\nGCX1 tool=t.y fields=b json=rows\n2\n", spec.ErrConstraint, "MAP-11", 3, 29, "carries no json= pair"},
		{"StrNamesNoField", "GCX1 tool=t fields=a,b str=a,c\n1\t2\n", spec.ErrConstraint, "MAP-16", 1, 28, `str= names "c"`},
		{"StrNamesTwice", "GCX1 tool=t fields=a str=a,a\n1\n", spec.ErrConstraint, "MAP-16", 1, 26, "named twice"},
		{"NestWithoutFields", "GCX1 tool=t fields=a,b nest=c\n1\t2\n", spec.ErrConstraint, "MAP-15", 1, 29, `no field begins with "c."`},
		{"NestNameIsAField", "GCX1 tool=t fields=a,a.x nest=a\n1\t2\n", spec.ErrConstraint, "MAP-15", 1, 31, "also a field"},
		{"NestOverlaps", "GCX1 tool=t fields=a.b.c nest=a,a.b\n1\n", spec.ErrConstraint, "MAP-15", 1, 31, "belongs to both"},
		{"NestEmptyName", "GCX1 tool=t fields=.x nest=\n1\n", spec.ErrConstraint, "MAP-15", 1, 28, "empty member"},
		{"LayoutWithStr", "GCX1 tool=find_cycles fields=kind,len,cycle str=kind\nimport\t2\t[]\n", spec.ErrConstraint, "LAY-4", 1, 49, "carries no str= pair"},
		{"DeclaredToolNameWithoutForm", "GCX1 tool=get_callers fields=a\n1\n", spec.ErrConstraint, "LAY-4", 1, 1, "tool=get_callers is declared"},
		{"CellTooDeep", "GCX1 tool=t fields=a,b\nx\t" + strings.Repeat("[", jsonmap.MaxDepth+1) + "\n", spec.ErrLimit, "MAP-4", 2, 3, "nested deeper"},
		{"CellTooDeepAfterGuard", "GCX1 tool=t fields=a,b\n\\#x\t" + strings.Repeat("[", jsonmap.MaxDepth+1) + "\n", spec.ErrLimit, "MAP-4", 2, 5, "nested deeper"},
		// Each form checks its cells' depth: an error dropped in any one of
		// them would pass the text on as a string or as JSON text unchecked.
		{"ValueFormTooDeep", "GCX1 tool=t fields= json=value\n" + strings.Repeat("[", jsonmap.MaxDepth+1) + "\n", spec.ErrLimit, "MAP-4", 2, 1, "nested deeper"},
		{"ArrayFormTooDeep", "GCX1 tool=t fields= json=array\n1\n" + strings.Repeat("[", jsonmap.MaxDepth+1) + "\n", spec.ErrLimit, "MAP-4", 3, 1, "nested deeper"},
		{"LayoutCellTooDeep", "GCX1 tool=find_cycles fields=kind,len,cycle\nimport\t2\t" + strings.Repeat("[", jsonmap.MaxDepth+1) + "\n", spec.ErrLimit, "MAP-4", 2, 10, "nested deeper"},
		{"NestedCellTooDeep", "GCX1 tool=t fields=a,m.x nest=m\n1\t" + strings.Repeat("[", jsonmap.MaxDepth+1) + "\n", spec.ErrLimit, "MAP-4", 2, 3, "nested deeper"},
		{"MemberTableCellTooDeep", "GCX1 tool=t fields=a json=object x=@ y=@\n1\nGCX1 tool=t.y fields=b\n" + strings.Repeat("{\"k\":", jsonmap.MaxDepth+1) + "\n", spec.ErrLimit, "MAP-4", 4, 1, "nested deeper"},
		{"MetaTooDeep", "GCX1 tool=t fields= json=object a=" + strings.Repeat("[", jsonmap.MaxDepth+1) + "\n", spec.ErrLimit, "MAP-4", 1, 35, "nested deeper"},
		{"CommentsShiftLines", "GCX1 tool=t fields= json=array\n#one\n1\n#two\n#three\n\n", spec.ErrConstraint, "MAP-9", 6, 1, "the cell is empty"},
		{"EscapesShiftColumns", "GCX1 tool=t fields=a\\sb,c\\,d json=list\n", spec.ErrConstraint, "MAP-7", 1, 35, "names no form"},
		{"NotGCX", `{"a":1}`, spec.ErrNotGCX, "PAY-1", 1, 1, "does not begin with GCX"},
		{"OtherVersion", "GCX2 tool=t fields=a\n", spec.ErrUnsupportedVersion, "VER-2", 1, 1, "GCX2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkDecodeError(t, c.payload, c.class, c.rule, c.line, c.column, c.msg)
		})
	}
}

// TestDecodeIgnoresCommentsAndTableMeta: comments [CMT-3] and the meta
// pairs of table sections [MAP-13] are not part of the value.
func TestDecodeIgnoresCommentsAndTableMeta(t *testing.T) {
	cases := []struct{ payload, want string }{
		{"GCX1 tool=t fields=a rows=2 total=10 truncated=true\n#note\n1\n2\n#end\n", `[{"a":1},{"a":2}]`},
		{"GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=1 total=5\na\tf\tA\ta.go\t1\t\n", `[{"id":"a","kind":"f","name":"A","file_path":"a.go","start_line":1}]`},
		{"GCX1 tool=t fields=a json=rows lang=go\n1\n", `[{"a":1}]`},
		{"GCX1 tool=t fields=a json=object x=@ y=@\n1\nGCX1 tool=t.y fields=b note=kept\n2\n", `{"x":[{"a":1}],"y":[{"b":2}]}`},
	}
	for _, c := range cases {
		got, err := jsonmap.Decode([]byte(c.payload))
		if err != nil || string(got) != c.want {
			t.Errorf("Decode(%q) = %s, %v; want %s", c.payload, got, err, c.want)
		}
	}
}

// TestDecodeAcceptsOtherSpellingsOfAValue: the decoder reads what the
// rules allow, not only what the encoder writes: a json=object member
// order with json= last, zero-row tables for "@" [MAP-10].
func TestDecodeAcceptsOtherSpellingsOfAValue(t *testing.T) {
	cases := []struct{ payload, want string }{
		{"GCX1 tool=t fields= n=1 json=object\n", `{"n":1}`},
		{"GCX1 tool=t fields=a json=object x=@\n", `{"x":[]}`},
		{"GCX1 tool=t fields=a json=rows\n", `[]`},
		{"GCX1 tool=t fields=m.b,x,m.a str=m.a nest=m\n1\t2\t3\n", `[{"m":{"b":1,"a":"3"},"x":2}]`},
		{"GCX1 tool=t fields=a,m.x nest=m str=a\n\t\n", `[{"m":{}}]`},
		{"GCX1 tool=t fields=a,b,c json=row\n1\t\t\"\"\n", `{"a":1,"c":""}`},
		{"GCX1 tool=t fields=a json=object rows=1 x=@\n1\n", `{"x":[{"a":1}]}`},
		{"GCX1 tool=t fields=v json=array\n1\n", `[1]`},
		{"GCX1 tool=t fields=a\n{\"a\": 1}\n", `[{"a":"{\"a\": 1}"}]`},
		{"GCX1 tool=t fields=a\n{\"a\":1,\"a\":2}\n", `[{"a":"{\"a\":1,\"a\":2}"}]`},
		{"GCX1 tool=t fields=a\n\"\\\\u00e9\"\n", `[{"a":"\"\\u00e9\""}]`},
	}
	for _, c := range cases {
		got, err := jsonmap.Decode([]byte(c.payload))
		if err != nil || string(got) != c.want {
			t.Errorf("Decode(%q) = %s, %v; want %s", c.payload, got, err, c.want)
		}
	}
}

// TestDuplicateKeysInCellsAreStrings: a cell holding an object with a
// repeated name is no compact JSON text, so it is a string, and the
// encoder writes such a string bare [MAP-1] [MAP-5].
func TestDuplicateKeysInCellsAreStrings(t *testing.T) {
	in := `[{"a":"{\"k\":1,\"k\":2}"}]`
	payload, err := jsonmap.Encode("t", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if want := "GCX1 tool=t fields=a rows=1\n{\"k\":1,\"k\":2}\n"; string(payload) != want {
		t.Fatalf("Encode = %q, want %q", payload, want)
	}
	back, err := jsonmap.Decode(payload)
	if err != nil || string(back) != in {
		t.Fatalf("Decode = %s, %v; want %s", back, err, in)
	}
}

// TestDecodeResponse: an auto-mode result is told apart by its first
// bytes: GCX1 when it begins with GCX, JSON otherwise [AUTO-3].
func TestDecodeResponse(t *testing.T) {
	cases := []struct {
		in, want string
		format   jsonmap.Format
		class    error
	}{
		{"GCX1 tool=t fields=a\n1\n", `[{"a":1}]`, jsonmap.FormatGCX, nil},
		{" [ {\"a\" : 1} ]\n", `[{"a":1}]`, jsonmap.FormatJSON, nil},
		{"GCX2 tool=t fields=a\n", "", jsonmap.FormatGCX, spec.ErrUnsupportedVersion},
		{"GCX1 tool=t fields=a\n1", "", jsonmap.FormatGCX, spec.ErrSyntax},
		{"", "", jsonmap.FormatJSON, jsonmap.ErrInvalidJSON},
		{"hello", "", jsonmap.FormatJSON, jsonmap.ErrInvalidJSON},
	}
	for _, c := range cases {
		got, format, err := jsonmap.DecodeResponse([]byte(c.in))
		if string(got) != c.want || format != c.format || !errors.Is(err, c.class) && (err != nil || c.class != nil) {
			t.Errorf("DecodeResponse(%q) = %s, %s, %v; want %s, %s, %v", c.in, got, format, err, c.want, c.format, c.class)
		}
	}
	if _, _, err := jsonmap.DecodeResponse([]byte("hello")); err == nil || !strings.Contains(err.Error(), "does not begin with GCX") {
		t.Errorf("a result that is neither format should say so, got %v", err)
	}
}

// TestEncodeRefusesBadToolNames: the tool name becomes tool= and must be
// a GCX1 name [HDR-3] [CAN-3].
func TestEncodeRefusesBadToolNames(t *testing.T) {
	for _, tool := range []string{"", "my tool", "a,b", "é"} {
		if _, err := jsonmap.Encode(tool, []byte(`1`)); !errors.Is(err, spec.ErrModel) {
			t.Errorf("Encode(%q) = %v, want a model error", tool, err)
		}
	}
}

// TestDecoderImportsNoTokenizer: the mapping's decoder stays free of the
// tokenizer and its tables; only package auto may import them.
func TestDecoderImportsNoTokenizer(t *testing.T) {
	for _, dep := range deps(t, "github.com/gcxwire/gcx/jsonmap") {
		if dep == "github.com/gcxwire/gcx/tokens" || strings.Contains(dep, "tiktoken") || strings.Contains(dep, "regexp2") {
			t.Errorf("jsonmap imports %s", dep)
		}
	}
}

// TestMappingRunsOnStreaming: the mapping and auto mode are product code,
// so they run on the streaming codec and never reach the reference parser
// and encoder, which are test oracles.
func TestMappingRunsOnStreaming(t *testing.T) {
	for _, pkg := range []string{"github.com/gcxwire/gcx/jsonmap", "github.com/gcxwire/gcx/jsonmap/auto"} {
		list := deps(t, pkg)
		if !slices.Contains(list, "github.com/gcxwire/gcx/streaming") {
			t.Errorf("%s does not reach streaming; is go list -deps output right?\n%s", pkg, strings.Join(list, "\n"))
		}
		for _, dep := range list {
			if dep == "github.com/gcxwire/gcx/reference" || dep == "github.com/gcxwire/gcx/grammar" {
				t.Errorf("%s imports %s, a test oracle", pkg, dep)
			}
		}
	}
}

// deps returns what go list -deps says pkg depends on.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	return strings.Fields(string(out))
}

// A model handed to DecodePayload was read, as a draft's decoder reads it:
// a GCX1 rule it breaks — rows= that no longer counts the rows, a row of
// the wrong width — is a constraint error, never "cannot be encoded".
func TestDecodePayloadOfABrokenModel(t *testing.T) {
	for _, p := range []*spec.Payload{
		{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"}, Meta: []spec.Meta{{Key: "rows", Value: "2"}}, Rows: [][]string{{"x"}}}}},
		{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"}, Rows: [][]string{{"x", "y"}}}}},
	} {
		_, err := jsonmap.DecodePayload(p)
		if !errors.Is(err, spec.ErrConstraint) || strings.Contains(err.Error(), "cannot be encoded") {
			t.Errorf("DecodePayload(%+v) = %v; want a constraint error", p.Sections[0], err)
		}
	}
}
