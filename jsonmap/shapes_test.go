package jsonmap_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/jsonmap"
)

// shapeCase is one named JSON shape, the payload it must encode to and,
// implicitly, the value it must decode back to [MAP-4].
type shapeCase struct {
	name string
	tool string
	json string
	gcx  string
}

// The shapes of item 2 of the issue, each with its exact payload: the
// spelling of cells [MAP-5] [MAP-6], every form [MAP-8] .. [MAP-11] and the
// encoder's choice among them [MAP-12].
var shapeCases = []shapeCase{
	{
		name: "TableOfObjects_MAP8",
		tool: "list_dir",
		json: `[{"name":"main.go","size":1204,"dir":false},{"name":"internal","size":0,"dir":true}]`,
		gcx:  "GCX1 tool=list_dir fields=name,size,dir rows=2\nmain.go\t1204\tfalse\ninternal\t0\ttrue\n",
	},
	{
		name: "NullAbsentEmptyDistinct_MAP8",
		tool: "t",
		json: `[{"a":null,"b":"","c":"x"},{"c":"y"},{"a":"null","b":"\"\""}]`,
		gcx:  "GCX1 tool=t fields=a,b,c rows=3\nnull\t\"\"\tx\n\t\ty\n\"null\"\t\"\\\\\"\\\\\"\"\t\n",
	},
	{
		name: "UnionOfKeysFirstSeen_MAP8",
		tool: "t",
		json: `[{"a":1},{"b":2},{"a":3,"c":4}]`,
		gcx:  "GCX1 tool=t fields=a,b,c rows=3\n1\t\t\n\t2\t\n3\t\t4\n",
	},
	{
		name: "IrregularRowsAgreeingOrder_MAP8",
		tool: "t",
		json: `[{"b":1},{"a":2,"b":3}]`,
		gcx:  "GCX1 tool=t fields=a,b rows=2\n\t1\n2\t3\n",
	},
	{
		name: "IrregularRowsDisagreeingOrder_MAP9",
		tool: "t",
		json: `[{"a":1,"b":2},{"b":3,"a":4}]`,
		gcx:  "GCX1 tool=t fields= json=array rows=2\n{\"a\":1,\"b\":2}\n{\"b\":3,\"a\":4}\n",
	},
	{
		name: "SingleObject_MAP10",
		tool: "graph_summary",
		json: `{"nodes":1834,"edges":5120,"stale":false,"repo":"gcx"}`,
		gcx:  "GCX1 tool=graph_summary fields= json=object nodes=1834 edges=5120 stale=false repo=gcx\n",
	},
	{
		name: "ObjectRowFormForOtherNames_MAP10",
		tool: "t",
		json: `{"internal/a.go":3,"b c":true}`,
		gcx:  "GCX1 tool=t fields=internal/a.go,b\\sc json=row rows=1\n3\ttrue\n",
	},
	{
		name: "ObjectWithReservedKeyOutOfRange_MAP10",
		tool: "t",
		json: `{"total":-1}`,
		gcx:  "GCX1 tool=t fields=total json=row rows=1\n-1\n",
	},
	{
		name: "WrapperWithTotalAndTruncated_MAP10",
		tool: "search_issues",
		json: `{"total":42,"truncated":true,"items":[{"id":7,"title":"crash on empty input"},{"id":9,"title":"docs: typo"}],"cursor":"c2"}`,
		gcx:  "GCX1 tool=search_issues fields=id,title json=object rows=2 total=42 truncated=true items=@ cursor=c2\n7\tcrash on empty input\n9\tdocs: typo\n",
	},
	{
		name: "GenericGraphTwoTables_MAP11",
		tool: "deps",
		json: `{"root":"cmd/gcx","nodes":[{"id":"a"},{"id":"b"}],"edges":[{"from":"a","to":"b"}]}`,
		gcx:  "GCX1 tool=deps fields=id json=object rows=2 root=cmd/gcx nodes=@ edges=@\na\nb\nGCX1 tool=deps.edges fields=from,to rows=1\na\tb\n",
	},
	{
		name: "DeclaredGraphNodesAndEdges_LAY2",
		tool: "get_callers",
		json: `{"nodes":[{"id":"a.go::F","kind":"function","name":"F","file_path":"a.go","start_line":3}],"edges":[{"from":"b.go::G","to":"a.go::F","kind":"calls","line":12}]}`,
		gcx:  "GCX1 tool=get_callers.nodes fields=id,kind,name,path,line,depth rows=1\na.go::F\tfunction\tF\ta.go\t3\t\nGCX1 tool=get_callers.edges fields=from,to,kind,line rows=1\nb.go::G\ta.go::F\tcalls\t12\n",
	},
	{
		name: "ArrayOfScalars_MAP9",
		tool: "list_files",
		json: `["a.go","b.go","1","",null,2]`,
		gcx:  "GCX1 tool=list_files fields= json=array rows=6\na.go\nb.go\n\"1\"\n\"\"\nnull\n2\n",
	},
	{
		name: "BareString_MAP9",
		tool: "t",
		json: `"hello, world"`,
		gcx:  "GCX1 tool=t fields= json=value rows=1\nhello, world\n",
	},
	{
		name: "BareEmptyString_MAP9",
		tool: "t",
		json: `""`,
		gcx:  "GCX1 tool=t fields= json=value rows=1\n\"\"\n",
	},
	{
		name: "BareNumber_MAP9",
		tool: "t",
		json: `-0`,
		gcx:  "GCX1 tool=t fields= json=value rows=1\n-0\n",
	},
	{
		name: "BareNull_MAP9",
		tool: "t",
		json: `null`,
		gcx:  "GCX1 tool=t fields= json=value rows=1\nnull\n",
	},
	{
		name: "BareTrue_MAP9",
		tool: "t",
		json: ` true `,
		gcx:  "GCX1 tool=t fields= json=value rows=1\ntrue\n",
	},
	{
		name: "NestedValuesInCells_MAP5",
		tool: "t",
		json: `[{"k":{"a":[1,{"b":null}]},"l":[],"m":{}},{"l":[{}]}]`,
		gcx:  "GCX1 tool=t fields=k,l,m rows=2\n{\"a\":[1,{\"b\":null}]}\t[]\t{}\n\t[{}]\t\n",
	},
	{
		name: "EmptyArray_MAP8",
		tool: "t",
		json: `[]`,
		gcx:  "GCX1 tool=t fields= rows=0\n",
	},
	{
		name: "EmptyObject_MAP10",
		tool: "t",
		json: `{}`,
		gcx:  "GCX1 tool=t fields= json=object\n",
	},
	{
		name: "ArrayOfEmptyObjects_MAP8",
		tool: "t",
		json: `[{},{}]`,
		gcx:  "GCX1 tool=t fields= rows=2\n\n\n",
	},
	{
		name: "NumberLiteralsKept_MAP2",
		tool: "t",
		json: `[{"n":1.0},{"n":1e400},{"n":-0},{"n":12345678901234567890},{"n":1E5},{"n":1e5},{"n":0.10}]`,
		gcx:  "GCX1 tool=t fields=n rows=7\n1.0\n1e400\n-0\n12345678901234567890\n1E5\n1e5\n0.10\n",
	},
	{
		name: "StringsThatReadAsOtherTypes_MAP6",
		tool: "t",
		json: `[{"s":"62"},{"s":"true"},{"s":"null"},{"s":"{\"a\":1}"},{"s":"[1,2]"},{"s":"1.0"},{"s":"\"q\""},{"s":62}]`,
		gcx:  "GCX1 tool=t fields=s rows=8\n\"62\"\n\"true\"\n\"null\"\n\"{\\\\\"a\\\\\":1}\"\n\"[1,2]\"\n\"1.0\"\n\"\\\\\"q\\\\\"\"\n62\n",
	},
	{
		name: "StringsThatOnlyResembleJSON_MAP6",
		tool: "t",
		json: `[{"s":"[DEBUG] x"},{"s":"{ a }"},{"s":"[1, 2]"},{"s":" 1"},{"s":"1 "},{"s":"0x1F"},{"s":"trueish"},{"s":"-"}]`,
		gcx:  "GCX1 tool=t fields=s rows=8\n[DEBUG] x\n{ a }\n[1, 2]\n 1\n1 \n0x1F\ntrueish\n-\n",
	},
	{
		name: "UnicodeAndControls_MAP2",
		tool: "t",
		json: `["\u2028 \u2029","\u0000","caf\u00e9","café","😀","\ud83d\ude00","tab\there","line\nbreak","back\\slash"]`,
		gcx:  "GCX1 tool=t fields= json=array rows=9\n\u2028 \u2029\n\x00\ncafé\ncafé\n😀\n😀\ntab\\there\nline\\nbreak\nback\\\\slash\n",
	},
	{
		name: "KeysWithTabCommaEqualsSpaceOrEmpty_HDR5",
		tool: "t",
		json: `[{"a\tb":1,"c,d":2,"e=f":3,"g h":4,"":5}]`,
		gcx:  "GCX1 tool=t fields=a\\tb,c\\,d,e=f,g\\sh, rows=1\n1\t2\t3\t4\t5\n",
	},
	{
		name: "KeyOrderKept_MAP2",
		tool: "t",
		json: `{"z":1,"a":2,"m":3}`,
		gcx:  "GCX1 tool=t fields= json=object z=1 a=2 m=3\n",
	},
	{
		name: "RowGuardForHashAndGCX_ROW4",
		tool: "t",
		json: `[{"a":"#x","b":"GCX1"},{"a":"GCX2 tool=y","b":"#"}]`,
		gcx:  "GCX1 tool=t fields=a,b rows=2\n\\#x\tGCX1\n\\GCX2 tool=y\t#\n",
	},
	{
		name: "ObjectRowFormForValuesWithSpaces_MAP10",
		tool: "t",
		json: `{"query":"a b","mark":"@","empty":"","list":[1,"x y"]}`,
		gcx:  "GCX1 tool=t fields=query,mark,empty,list json=row rows=1\na b\t\"@\"\t\"\"\t[1,\"x y\"]\n",
	},
	{
		name: "MemberNamedJsonUsesRowForm_MAP10",
		tool: "t",
		json: `{"json":1}`,
		gcx:  "GCX1 tool=t fields=json json=row rows=1\n1\n",
	},
	{
		name: "DeclaredToolTable_LAY2",
		tool: "search_symbols",
		json: `[{"id":"s.go::NewServer","kind":"function","name":"NewServer","file_path":"s.go","start_line":62,"signature":"func NewServer(cfg Config, log *slog.Logger) *Server"},{"id":"s.go::Server.Start","kind":"method","name":"Start","file_path":"s.go","start_line":118}]`,
		gcx:  "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=2\ns.go::NewServer\tfunction\tNewServer\ts.go\t62\tfunc NewServer(cfg Config, log *slog.Logger) *Server\ns.go::Server.Start\tmethod\tStart\ts.go\t118\t\n",
	},
	{
		name: "DeclaredToolValueOffLayout_LAY7",
		tool: "search_symbols",
		json: `[{"id":"x","kind":"function","name":"X","file_path":"x.go","start_line":"62"}]`,
		gcx:  "GCX1 tool=search_symbols fields=id,kind,name,file_path,start_line json=rows rows=1\nx\tfunction\tX\tx.go\t\"62\"\n",
	},
	{
		name: "DeclaredObjectLayout_LAY2",
		tool: "get_symbol_source",
		json: `{"id":"a.go::F","file_path":"a.go","start_line":3,"end_line":5,"language":"go","source":"func F() {\n\treturn\n}"}`,
		gcx:  "GCX1 tool=get_symbol_source fields=id,path,start,end,lang,source rows=1\na.go::F\ta.go\t3\t5\tgo\tfunc F() {\\n\\treturn\\n}\n",
	},
	{
		name: "ObjectHeaderFormQuotesTheTableMark_MAP11",
		tool: "t",
		json: `{"mark":"@","empty":"","list":[1,"x"],"obj":{"k":null}}`,
		gcx:  "GCX1 tool=t fields= json=object mark=\"@\" empty=\"\" list=[1,\"x\"] obj={\"k\":null}\n",
	},
	{
		name: "ObjectRowFormWithTables_MAP11",
		tool: "t",
		json: `{"summary":"two hits","hits":[{"a":1},{"a":2}],"a b":[{"x":1}],"more":[{"y":"@"}]}`,
		gcx:  "GCX1 tool=t fields=summary,hits,a\\sb,more json=row rows=1\ntwo hits\t@\t[{\"x\":1}]\t@\nGCX1 tool=t.hits fields=a rows=2\n1\n2\nGCX1 tool=t.more fields=y rows=1\n@\n",
	},
	{
		name: "NestedObjectsSpreadOverColumns_MAP15",
		tool: "list_pods",
		json: `[{"name":"api-1","labels":{"app":"api","tier":"web"}},{"name":"db-0","labels":{"app":"db"}},{"name":"x","labels":{}}]`,
		gcx:  "GCX1 tool=list_pods fields=name,labels.app,labels.tier rows=3 nest=labels\napi-1\tapi\tweb\ndb-0\tdb\t\nx\t\t\n",
	},
	{
		name: "SparseNestedObjectsStayJSON_MAP15",
		tool: "t",
		json: `[{"m":{"a":1}},{"m":{"b":2}},{"m":{"c":3}}]`,
		gcx:  "GCX1 tool=t fields=m rows=3\n{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n",
	},
	{
		name: "NestedMemberSometimesAbsentStaysJSON_MAP15",
		tool: "t",
		json: `[{"m":{"a":1}},{}]`,
		gcx:  "GCX1 tool=t fields=m rows=2\n{\"a\":1}\n\n",
	},
	{
		name: "StringColumnsWithNumericLookingText_MAP15",
		tool: "slack_history",
		json: `[{"ts":"1793519400.313241","text":"+1","thread":"1793519400.313241"},{"ts":"1793518001.335432","text":"ok, merging"},{"ts":"1793515041.512302","text":"true"}]`,
		gcx:  "GCX1 tool=slack_history fields=ts,text,thread rows=3 str=ts\n1793519400.313241\t+1\t\"1793519400.313241\"\n1793518001.335432\tok, merging\t\n1793515041.512302\t\"true\"\t\n",
	},
	{
		name: "WrapperWithNestAndStr_MAP15",
		tool: "t",
		json: `{"total":2,"items":[{"id":"1","meta":{"k":"v"}},{"id":"2","meta":{"k":"w"}}]}`,
		gcx:  "GCX1 tool=t fields=id,meta.k json=object rows=2 nest=meta str=id total=2 items=@\n1\tv\n2\tw\n",
	},
}

func TestShapes(t *testing.T) {
	for _, c := range shapeCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := jsonmap.Encode(c.tool, []byte(c.json))
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if diff := cmp.Diff(c.gcx, string(got)); diff != "" {
				t.Errorf("Encode(%s, %s) (-want +got):\n%s", c.tool, c.json, diff)
			}
			back, err := jsonmap.Decode(got)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			want, err := jsonmap.Compact([]byte(c.json))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(back)); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}
