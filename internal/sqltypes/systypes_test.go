package sqltypes

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestXMLWellFormed checks xml_is_well_formed_content and
// xml_is_well_formed_document against PostgreSQL 15's answers.
func TestXMLWellFormed(t *testing.T) {
	for _, c := range []struct {
		s             string
		content, docu bool
	}{
		{"<a/>", true, true},
		{"abc", true, false},
		{"<a>", false, false},
		{"<!DOCTYPE a><a/>", true, true},
		{"<a/><b/>", true, false},
		{`<?xml version="1.0"?>x`, true, false},
		{`x<?xml version="1.0"?>`, false, false},
		{"<!--a--b-->", false, false},
		{"<a>&nbsp;</a>", false, false},
		{"<a>&#65;</a>", true, true},
		{"<?pi x?><a/><!--c-->", true, true},
		{"", true, false},
		{"<a b=1/>", false, false},
		{`<?xml version="1.0" standalone="maybe"?><a/>`, false, false},
		{`<x:a xmlns:x="u"/>`, true, true},
		{"<a></a >", true, true},
		{"<!DOCTYPE a><!DOCTYPE b><a/>", false, false},
	} {
		if got := XMLWellFormedContent(c.s); got != c.content {
			t.Errorf("content %q: %v, want %v", c.s, got, c.content)
		}
		if got := XMLWellFormedDocument(c.s); got != c.docu {
			t.Errorf("document %q: %v, want %v", c.s, got, c.docu)
		}
	}
}

// TestSysInfoText checks the text input and output of xml, pg_lsn, xid,
// xid8 and tid against PostgreSQL 15 ("" out: an input error).
func TestSysInfoText(t *testing.T) {
	for _, c := range []struct {
		typ     TypeID
		in, out string
	}{
		{XML, `<?xml version="1.0"?><a/>`, "<a/>"},
		{XML, `<?xml version="1.0" encoding="UTF-8"?><a/>`, "<a/>"},
		{XML, `<?xml version="1.0" standalone="yes"?><a/>`, `<?xml version="1.0" standalone="yes"?><a/>`},
		{XML, `<?xml version="1.1"?><a/>`, `<?xml version="1.1"?><a/>`},
		{PgLSN, "16/B374D848", "16/B374D848"},
		{PgLSN, "ffffffff/ffffffff", "FFFFFFFF/FFFFFFFF"},
		{PgLSN, "0/01", "0/1"},
		{PgLSN, " 0/1", ""},
		{PgLSN, "123456789/0", ""},
		{XID, " 0x10", "16"},
		{XID, "-1", "4294967295"},
		{XID, "4294967297", "1"},
		{XID, "010", "8"},
		{XID, "abc", "0"},
		{XID, "12abc", "12"},
		{XID, "99999999999", "1215752191"},
		{XID, "99999999999999999999", "4294967295"},
		{XID8, "-1", "18446744073709551615"},
		{XID8, "0x10", "16"},
		{XID8, "18446744073709551616", "18446744073709551615"},
		{TID, "(1,2)", "(1,2)"},
		{TID, "(-1,1)", "(4294967295,1)"},
		{TID, "x,1,2)", "(1,2)"},
		{TID, "( 1, +2)", "(1,2)"},
		{TID, "(1,2)x", "(1,2)"},
		{TID, "(1,-1)", ""},
		{TID, "(1 ,2)", ""},
		{TID, "(4294967296,1)", ""},
		{TID, "(-4294967296,1)", ""},
		{TID, "(1,65536)", ""},
	} {
		v, err := ParseText(Type{ID: c.typ}, c.in)
		switch {
		case c.out == "" && err == nil:
			t.Errorf("%s %q: %s, want an error", Type{ID: c.typ}, c.in, FormatText(v))
		case c.out != "" && (err != nil || FormatText(v) != c.out):
			t.Errorf("%s %q: %s, %v; want %s", Type{ID: c.typ}, c.in, FormatText(v), err, c.out)
		}
	}
}

// TestUnsignedOrder: pg_lsn and xid8 compare as unsigned numbers.
func TestUnsignedOrder(t *testing.T) {
	for _, c := range []struct{ a, b Value }{
		{NewLSN(1), NewLSN(1 << 63)},
		{NewLSN(1 << 63), NewLSN(^uint64(0))},
		{NewXID8(0), NewXID8(^uint64(0))},
		{NewTID(1, 65535), NewTID(2, 0)},
	} {
		if Compare(c.a, c.b) >= 0 || Compare(c.b, c.a) <= 0 {
			t.Errorf("%s < %s does not hold", FormatText(c.a), FormatText(c.b))
		}
	}
}

// FuzzParseSysInfo: the text input of xml, pg_lsn, xid, xid8 and tid never
// panics, fails only with its input-syntax code, and what it accepts
// prints as text that reads back to the same value.
func FuzzParseSysInfo(f *testing.F) {
	for _, s := range []string{"<a/>", `<?xml version="1.0"?><a/>`, "16/B374D848", "(1,2)", "x,1,2)", "-1", "0x10", "&", "<!DOCTYPE a><a/>"} {
		for id := range sysInfoIDs {
			f.Add(uint8(id), s)
		}
	}
	f.Fuzz(func(t *testing.T, id uint8, s string) {
		typ := Type{ID: sysInfoIDs[int(id)%len(sysInfoIDs)]}
		v, err := ParseText(typ, s)
		if err != nil {
			switch c := pgerr.CodeOf(err); c {
			case pgerr.InvalidTextRepresentation, pgerr.InvalidXMLContent:
			default:
				t.Fatalf("%s %q: code %s: %v", typ, s, c, err)
			}
			return
		}
		out := FormatText(v)
		back, err := ParseText(typ, out)
		if err != nil || FormatText(back) != out {
			t.Fatalf("%s %q -> %q -> %v", typ, s, FormatText(back), err)
		}
	})
}

var sysInfoIDs = []TypeID{XML, PgLSN, XID, XID8, TID}
