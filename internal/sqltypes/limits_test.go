package sqltypes

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestFieldLimits checks each family's edge against PostgreSQL 15's
// (measured there: repeat('x', 1073741819) is built, one more byte is not;
// string_agg fails "containing 1073000000 bytes by 1000000 more bytes").
func TestFieldLimits(t *testing.T) {
	for _, c := range []struct {
		name   string
		err    error
		code   string
		msg    string
		detail string
	}{
		{"append to the last byte", AppendLimit(MaxAllocSize-2, 1), "", "", ""},
		{"append past it", AppendLimit(1073000000, 1000000), pgerr.ProgramLimitExceeded.String(), "out of memory",
			"Cannot enlarge string buffer containing 1073000000 bytes by 1000000 more bytes."},
		{"append the NUL's byte", AppendLimit(MaxAllocSize-1, 1), pgerr.ProgramLimitExceeded.String(), "out of memory",
			"Cannot enlarge string buffer containing 1073741822 bytes by 1 more bytes."},
		{"length at the limit", LengthLimit(1073741819), "", "", ""},
		{"length past it", LengthLimit(1073741820), pgerr.ProgramLimitExceeded.String(), "requested length too large", ""},
		{"negative length", LengthLimit(-1), pgerr.ProgramLimitExceeded.String(), "requested length too large", ""},
		{"alloc at the limit", AllocLimit(MaxAllocSize), "", "", ""},
		{"alloc past it", AllocLimit(1200000004), pgerr.InternalError.String(), "invalid memory alloc request size 1200000004", ""},
		{"array elements", ArrayElemsLimit(MaxArraySize), "", "", ""},
		{"array elements past", ArrayElemsLimit(MaxArraySize + 1), pgerr.ProgramLimitExceeded.String(),
			"array size exceeds the maximum allowed (134217727)", ""},
		{"array bytes past", ArrayBytesLimit(MaxAllocSize + 1), pgerr.ProgramLimitExceeded.String(),
			"array size exceeds the maximum allowed (1073741823)", ""},
		{"jsonb array past", JSONBArrayLimit(1 << 28), pgerr.ProgramLimitExceeded.String(),
			"total size of jsonb array elements exceeds the maximum of 268435455 bytes", ""},
		{"jsonb object past", JSONBObjectLimit(1 << 28), pgerr.ProgramLimitExceeded.String(),
			"total size of jsonb object elements exceeds the maximum of 268435455 bytes", ""},
		{"jsonb object at the limit", JSONBObjectLimit(1<<28 - 1), "", "", ""},
	} {
		if c.code == "" {
			if c.err != nil {
				t.Errorf("%s: %v, want none", c.name, c.err)
			}
			continue
		}
		e, ok := c.err.(*pgerr.Error)
		if !ok || e.Code.String() != c.code || e.Message != c.msg || e.Detail != c.detail {
			t.Errorf("%s: %#v, want %s %q %q", c.name, c.err, c.code, c.msg, c.detail)
		}
	}
}

func TestDatumSizeIsLowerBound(t *testing.T) {
	for v, want := range map[*Value]int64{
		{K: KindText, S: "abc"}:                    4,
		{K: KindText, S: strings.Repeat("x", 200)}: 204,
		{}:                 0,
		{K: KindInt, I: 7}: 4,
	} {
		if got := DatumSize(*v); got != want {
			t.Errorf("DatumSize(%v) = %d, want %d", *v, got, want)
		}
	}
}

// TestJSONBDatumSize checks DatumSize of jsonb against pg_column_size on
// PostgreSQL 15: equal where the document holds no number, never more
// where it does, and the same whether the value is a tree or a stored
// text that was not parsed.
func TestJSONBDatumSize(t *testing.T) {
	for _, c := range []struct {
		doc   string
		pg    int64 // pg_column_size('doc'::jsonb)
		exact bool
	}{
		{`"abc"`, 15, true},
		{`null`, 12, true},
		{`[]`, 8, true},
		{`{}`, 8, true},
		{`[[], {}, [[]]]`, 40, true},
		{`{"a": 1}`, 28, false},
		{`{"a": [1, "x", true, null, {"b": "yy"}]}`, 71, false},
		{`12345678901234567890`, 28, false},
		{`{"k\tey": "v\nal", "longer key": [false, -12.5, "\u00e9"]}`, 76, false},
		{`["\u0001\"", "é"]`, 0, false},
	} {
		j, err := ParseJSONB(c.doc)
		if err != nil {
			t.Fatalf("%s: %v", c.doc, err)
		}
		tree := DatumSize(NewJSONB(j))
		stored := DatumSize(NewStoredJSONB(JSONBText(j)))
		switch {
		case tree != stored:
			t.Errorf("%s: %d from the tree, %d from the stored text", c.doc, tree, stored)
		case c.exact && tree != c.pg:
			t.Errorf("%s: %d, PostgreSQL's datum is %d bytes", c.doc, tree, c.pg)
		case tree > c.pg && c.pg > 0:
			t.Errorf("%s: %d, more than PostgreSQL's %d bytes", c.doc, tree, c.pg)
		}
	}
}

// TestRecordLimit checks the row limit against PostgreSQL 15's
// heap_form_tuple: ROW(repeat('x', 600000000), repeat('y', 600000000))
// asks for 1200000056 bytes, 1200000060 with a NULL field (its bitmap)
// and an int before it.
func TestRecordLimit(t *testing.T) {
	big := Value{K: KindText, S: strings.Repeat("x", 600000000)}
	for _, c := range []struct {
		fields []Value
		want   string
	}{
		{[]Value{big, big}, "invalid memory alloc request size 1200000056"},
		{[]Value{NewInt(1), Null, big, big}, "invalid memory alloc request size 1200000060"},
		{[]Value{big}, ""},
	} {
		err := RecordLimit(c.fields)
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("RecordLimit of %d fields: %v, want %q", len(c.fields), err, c.want)
		}
	}
}

// TestBuffer builds values across chunks and checks the limit is met
// before anything is appended.
func TestBuffer(t *testing.T) {
	var b Buffer
	piece := strings.Repeat("ab", 1<<20)
	var want strings.Builder
	for b.Len() < int64(bufferChunk+3*len(piece)) {
		if err := b.Append(piece); err != nil {
			t.Fatal(err)
		}
		want.WriteString(piece)
	}
	if err := b.Append("tail"); err != nil {
		t.Fatal(err)
	}
	want.WriteString("tail")
	first, err := b.String()
	if err != nil {
		t.Fatal(err)
	}
	if first != want.String() {
		t.Fatalf("built %d bytes, want %d (or they differ)", len(first), want.Len())
	}
	saved := strings.Clone(first)
	// A window aggregate reads the value after each row and goes on: the
	// buffer keeps what it returned, and what it returned stays as it was.
	for i := 0; i < 3; i++ {
		if err := b.Append(piece); err != nil {
			t.Fatal(err)
		}
		want.WriteString(piece)
		if got, err := b.String(); err != nil || got != want.String() {
			t.Fatalf("after %d more appends: %d bytes, want %d (or they differ)", i+1, len(got), want.Len())
		}
	}
	if first != saved {
		t.Fatal("a later append changed a string already returned")
	}
	var short Buffer
	var read []string
	for _, s := range []string{"a", "b", "c"} {
		if err := short.Append(s); err != nil {
			t.Fatal(err)
		}
		got, err := short.String()
		if err != nil {
			t.Fatal(err)
		}
		read = append(read, got)
	}
	if strings.Join(read, "|") != "a|ab|abc" {
		t.Fatalf("short buffer read %q", read)
	}

	var small Buffer
	if err := small.Append("x"); err != nil {
		t.Fatal(err)
	}
	// A value that would pass the limit fails before it is appended.
	small.n = MaxAllocSize - 2 // as if it held that much
	if err := small.Append("zz"); pgerr.CodeOf(err) != pgerr.ProgramLimitExceeded {
		t.Fatalf("past the limit: %v, want 54000", err)
	}
	if small.Len() != 0 {
		t.Fatal("a failed buffer keeps its bytes")
	}
}
