package sqltypes

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestParseACLItem: aclitemin's syntax, as PostgreSQL 15's aclparse reads
// it (the same inputs run against PostgreSQL in
// session/testdata/sql/aclitem.slt).
func TestParseACLItem(t *testing.T) {
	for _, c := range []struct {
		in, out   string // out "" with code: an error
		noGrantor bool
		code      pgerr.Code
	}{
		{in: "u=arwdDxt/u", out: "u=arwdDxt/u"},
		{in: " u =wr*a/ \"B\"\"q\" ", out: `u=ar*w/"B""q"`},
		{in: "group u=r/g", out: "u=r/g"},
		{in: "user \"é\"=X*/u", out: `"é"=X*/u`},
		{in: "=r/u", out: "=r/u"},
		{in: "u=/u", out: "u=/u"},
		{in: "u=arwdDxtXUCTcsA*/u", out: "u=arwdDxtXUCTcsA*/u"},
		{in: "u=rR/u", out: "u=r/u"},
		{in: "u=*r/u", out: "u=r/u"},
		{in: "u=Rr*/u", out: "u=r*/u"},
		{in: "u=r", out: "u=r/", noGrantor: true},
		{in: "u=q/u", code: pgerr.InvalidTextRepresentation},
		{in: "u r/u", code: pgerr.InvalidTextRepresentation},
		{in: "", code: pgerr.InvalidTextRepresentation},
		{in: "group", code: pgerr.InvalidTextRepresentation},
		{in: "group u r", code: pgerr.InvalidTextRepresentation},
		{in: "u=r/", code: pgerr.InvalidTextRepresentation},
		{in: "u=r/u x", code: pgerr.InvalidTextRepresentation},
		{in: "u= r/u", code: pgerr.InvalidTextRepresentation},
		{in: strings.Repeat("a", 63) + "=r/u", out: strings.Repeat("a", 63) + "=r/u"},
		{in: strings.Repeat("a", 64) + "=r/u", code: pgerr.NameTooLong},
	} {
		a, err := ParseACLItem(c.in)
		if c.code != (pgerr.Code{}) {
			if got := pgerr.CodeOf(err); got != c.code {
				t.Errorf("ParseACLItem(%q): %v, want %s", c.in, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseACLItem(%q): %v", c.in, err)
			continue
		}
		if got := a.String(); got != c.out || a.NoGrantor != c.noGrantor {
			t.Errorf("ParseACLItem(%q) = %q (no grantor %v), want %q (%v)", c.in, got, a.NoGrantor, c.out, c.noGrantor)
		}
	}
}

// TestParseACLRight: makeaclitem's privilege names.
func TestParseACLRight(t *testing.T) {
	for in, want := range map[string]uint16{"SELECT": 1 << 1, "insert": 1, "Temp": 1 << 10, "TEMPORARY": 1 << 10, "rule": 0, "ALTER SYSTEM": 1 << 13, "set": 1 << 12} {
		if got, err := ParseACLRight(in); err != nil || got != want {
			t.Errorf("ParseACLRight(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"SELECT, INSERT", " select ", "ALL", "ſelect"} {
		if _, err := ParseACLRight(in); pgerr.CodeOf(err) != pgerr.InvalidParameterValue {
			t.Errorf("ParseACLRight(%q): %v, want 22023", in, err)
		}
	}
}

// FuzzParseACLItem: whatever parses prints as text that parses to the
// same item, and printing is stable.
func FuzzParseACLItem(f *testing.F) {
	for _, s := range []string{"u=arwdDxt/u", ` u =wr*a/ "B""q" `, "group u=r/g", "=r", `"a""b"=X*/"c d"`, "u=rR*/u"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseACLItem(s)
		if err != nil {
			if _, ok := err.(*pgerr.Error); !ok {
				t.Fatalf("ParseACLItem(%q): %T %v, want a *pgerr.Error", s, err, err)
			}
			return
		}
		if a.NoGrantor {
			return // prints no grantor; the input function names one
		}
		if strings.HasPrefix(a.Grantee, `"`) || strings.HasPrefix(a.Grantor, `"`) {
			// A name starting with a quote prints as three quotes and
			// more, whose first two getid reads as a quote character: it
			// does not read back in PostgreSQL either.
			return
		}
		out := a.String()
		b, err := ParseACLItem(out)
		if err != nil {
			t.Fatalf("ParseACLItem(%q) = %q, which does not parse: %v", s, out, err)
		}
		if b != a || b.String() != out {
			t.Fatalf("ParseACLItem(%q) = %+v printed %q, which reads back as %+v", s, a, out, b)
		}
	})
}
