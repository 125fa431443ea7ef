package explore_test

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/conformance/explore"
)

// Every generated case, written as gcx explore --out writes it, satisfies
// vectors.schema.json, checked by the independent validator the committed
// files are checked with.
func TestGeneratedFilesMatchSchema(t *testing.T) {
	schema, err := jsonschema.NewCompiler().Compile("../vectors.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		_, f, err := explore.Generate(11, i, conformance.Categories, explore.GCX1())
		if err != nil {
			t.Fatal(err)
		}
		b, err := conformance.Format(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, b)
		}
	}
}
