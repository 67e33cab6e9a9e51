package catalog

import (
	"testing"
	"unsafe"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// TestAttrValueOwnsMemory: a scanned attribute's string aliases store
// memory that the next item overwrites (kv.Iterator), so a decoded value
// must not keep any of it: jsonb documents and arrays, whose parsers keep
// substrings of their text, included.
func TestAttrValueOwnsMemory(t *testing.T) {
	for _, tc := range []struct {
		typ  sqltypes.Type
		text string
	}{
		{sqltypes.TypeJSONB, `{"key": ["value", {"inner": "text"}]}`},
		{sqltypes.ArrayOf(sqltypes.TypeText), `{alpha,"beta gamma",delta}`},
		{sqltypes.TypeText, `plain`},
		{sqltypes.TypeJSON, `{"a": "b"}`},
	} {
		buf := []byte(tc.text)
		v, err := AttrValue(kv.Attr{Kind: kv.AttrString, S: unsafe.String(&buf[0], len(buf))}, tc.typ)
		if err != nil {
			t.Fatal(err)
		}
		before := sqltypes.FormatText(v)
		for i := range buf {
			buf[i] = 'X' // the store reuses the memory
		}
		if after := sqltypes.FormatText(v); after != before {
			t.Errorf("%s: decoded %s, then %s once the store's buffer changed", tc.typ, before, after)
		}
	}
}
