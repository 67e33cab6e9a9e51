package dynamodb

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtest"
)

// TestEncodeRepresentation pins what other DynamoDB tools see for each kind:
// the typed attribute and whether the name is listed in a marker set.
func TestEncodeRepresentation(t *testing.T) {
	belowMaxN := math.Nextafter(maxNumberMagnitude, 0)
	f := func(v float64) kv.Attr { return kv.Attr{Name: "c", Kind: kv.AttrFloat, F: v} }
	tests := []struct {
		attr      kv.Attr
		want      types.AttributeValue
		markerSet string // FloatsAttr, TextsAttr or ""
	}{
		{kv.Attr{Name: "c", Kind: kv.AttrNull}, &types.AttributeValueMemberNULL{Value: true}, ""},
		{kv.Attr{Name: "c", Kind: kv.AttrBool, I: 1}, &types.AttributeValueMemberBOOL{Value: true}, ""},
		{kv.Attr{Name: "c", Kind: kv.AttrBool}, &types.AttributeValueMemberBOOL{Value: false}, ""},
		{kv.Attr{Name: "c", Kind: kv.AttrInt, I: math.MinInt64}, &types.AttributeValueMemberN{Value: "-9223372036854775808"}, ""},
		{kv.Attr{Name: "c", Kind: kv.AttrInt, I: 42}, &types.AttributeValueMemberN{Value: "42"}, ""},
		{f(1.5), &types.AttributeValueMemberN{Value: "1.5"}, ""},
		{f(0.1), &types.AttributeValueMemberN{Value: "0.1"}, ""},
		{f(1e-130), &types.AttributeValueMemberN{Value: "1e-130"}, ""},
		{f(belowMaxN), &types.AttributeValueMemberN{Value: strconv.FormatFloat(belowMaxN, 'g', -1, 64)}, FloatsAttr}, // integral
		{f(2), &types.AttributeValueMemberN{Value: "2"}, FloatsAttr},
		{f(0), &types.AttributeValueMemberN{Value: "0"}, FloatsAttr},
		{f(math.Copysign(0, -1)), &types.AttributeValueMemberS{Value: "-0"}, FloatsAttr},
		{f(math.NaN()), &types.AttributeValueMemberS{Value: "NaN"}, FloatsAttr},
		{f(math.Inf(1)), &types.AttributeValueMemberS{Value: "Infinity"}, FloatsAttr},
		{f(math.Inf(-1)), &types.AttributeValueMemberS{Value: "-Infinity"}, FloatsAttr},
		{f(1e126), &types.AttributeValueMemberS{Value: "1e+126"}, FloatsAttr},
		{f(-1e-131), &types.AttributeValueMemberS{Value: "-1e-131"}, FloatsAttr},
		{kv.Attr{Name: "c", Kind: kv.AttrString, S: ""}, &types.AttributeValueMemberS{Value: ""}, ""},
		{kv.Attr{Name: "c", Kind: kv.AttrString, S: "日本"}, &types.AttributeValueMemberS{Value: "日本"}, ""},
		{kv.Attr{Name: "c", Kind: kv.AttrString, S: "a\xff"}, &types.AttributeValueMemberB{Value: []byte("a\xff")}, TextsAttr},
		{kv.Attr{Name: "c", Kind: kv.AttrBytes}, &types.AttributeValueMemberB{Value: []byte{}}, ""},
	}
	for _, tc := range tests {
		item, err := encodeItem(kv.Key{Partition: []byte("p"), Sort: []byte("s")}, []kv.Attr{tc.attr})
		if err != nil {
			t.Fatalf("encode %s: %v", kvtest.FormatAttrs([]kv.Attr{tc.attr}), err)
		}
		if got := item["c"]; !sameValue(got, tc.want) {
			t.Errorf("encode %s: got %#v, want %#v", kvtest.FormatAttrs([]kv.Attr{tc.attr}), got, tc.want)
		}
		for _, set := range []string{FloatsAttr, TextsAttr} {
			ss, listed := item[set].(*types.AttributeValueMemberSS)
			if want := set == tc.markerSet; listed != want || (listed && !slices.Equal(ss.Value, []string{"c"})) {
				t.Errorf("encode %s: %s = %#v, want listed %v", kvtest.FormatAttrs([]kv.Attr{tc.attr}), set, item[set], want)
			}
		}
		_, back, err := decodeItem(item)
		if err != nil {
			t.Fatalf("decode %s: %v", kvtest.FormatAttrs([]kv.Attr{tc.attr}), err)
		}
		if !kvtest.AttrsEqual([]kv.Attr{tc.attr}, back) {
			t.Errorf("round trip: got %s, want %s", kvtest.FormatAttrs(back), kvtest.FormatAttrs([]kv.Attr{tc.attr}))
		}
	}
}

func sameValue(a, b types.AttributeValue) bool {
	switch a := a.(type) {
	case *types.AttributeValueMemberN:
		b, ok := b.(*types.AttributeValueMemberN)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberS:
		b, ok := b.(*types.AttributeValueMemberS)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberB:
		b, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(a.Value, b.Value) && a.Value != nil
	case *types.AttributeValueMemberBOOL:
		b, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberNULL:
		b, ok := b.(*types.AttributeValueMemberNULL)
		return ok && a.Value == b.Value
	}
	return false
}

// TestDecodeNumberRule covers numbers as other tools write them (no
// marker): the int-or-float rule.
func TestDecodeNumberRule(t *testing.T) {
	tests := []struct {
		text string
		kind kv.AttrKind
		i    int64
		f    float64
	}{
		{"0", kv.AttrInt, 0, 0},
		{"-17", kv.AttrInt, -17, 0},
		{"9223372036854775807", kv.AttrInt, math.MaxInt64, 0},
		{"9223372036854775808", kv.AttrFloat, 0, 9223372036854775808},
		{"-9223372036854775809", kv.AttrFloat, 0, -9223372036854775809},
		{"100000000000000000000", kv.AttrFloat, 0, 1e20},
		{"2.5", kv.AttrFloat, 0, 2.5},
		{"2.0", kv.AttrFloat, 0, 2},
		{"1E+3", kv.AttrFloat, 0, 1000},
		{"1e400", kv.AttrFloat, 0, math.Inf(1)}, // beyond float64: nearest value
	}
	for _, tc := range tests {
		a, err := decodeNumber("n", tc.text, false)
		if err != nil {
			t.Errorf("decodeNumber(%q): %v", tc.text, err)
			continue
		}
		if a.Kind != tc.kind || a.I != tc.i || a.F != tc.f {
			t.Errorf("decodeNumber(%q) = kind %d I %d F %v, want kind %d I %d F %v", tc.text, a.Kind, a.I, a.F, tc.kind, tc.i, tc.f)
		}
	}
	if a, err := decodeNumber("n", "7", true); err != nil || a.Kind != kv.AttrFloat || a.F != 7 {
		t.Errorf("decodeNumber(7, listed float) = %+v, %v; want float 7", a, err)
	}
	if _, err := decodeNumber("n", "x", false); err == nil {
		t.Error("decodeNumber(x) accepted garbage")
	}
}

func TestEncodeRejects(t *testing.T) {
	k := kv.Key{Partition: []byte("p"), Sort: []byte("s")}
	tests := []struct {
		name  string
		attrs []kv.Attr
	}{
		{"reserved key name", []kv.Attr{{Name: PartitionKeyAttr, Kind: kv.AttrInt}}},
		{"reserved prefix", []kv.Attr{{Name: "~x", Kind: kv.AttrInt}}},
		{"empty name", []kv.Attr{{Name: "", Kind: kv.AttrInt}}},
		{"duplicate name", []kv.Attr{{Name: "a", Kind: kv.AttrInt}, {Name: "a", Kind: kv.AttrString}}},
		{"unknown kind", []kv.Attr{{Name: "a", Kind: 99}}},
	}
	for _, tc := range tests {
		if _, err := encodeItem(k, tc.attrs); err == nil {
			t.Errorf("%s: encodeItem accepted %s", tc.name, kvtest.FormatAttrs(tc.attrs))
		}
	}
}

func TestDecodeRejectsForeignItems(t *testing.T) {
	framed := &types.AttributeValueMemberB{Value: frameKey([]byte("s"))}
	tests := []struct {
		name string
		item map[string]types.AttributeValue
	}{
		{"unframed sort key", map[string]types.AttributeValue{SortKeyAttr: &types.AttributeValueMemberB{Value: []byte("s")}}},
		{"string sort key", map[string]types.AttributeValue{SortKeyAttr: &types.AttributeValueMemberS{Value: "s"}}},
		{"list attribute", map[string]types.AttributeValue{SortKeyAttr: framed, "l": &types.AttributeValueMemberL{}}},
		{"marker not a set", map[string]types.AttributeValue{SortKeyAttr: framed, FloatsAttr: &types.AttributeValueMemberS{Value: "x"}}},
		{"listed float not a number", map[string]types.AttributeValue{SortKeyAttr: framed, "x": &types.AttributeValueMemberS{Value: "abc"}, FloatsAttr: &types.AttributeValueMemberSS{Value: []string{"x"}}}},
	}
	for _, tc := range tests {
		if _, attrs, err := decodeItem(tc.item); err == nil {
			t.Errorf("%s: decodeItem accepted it as %s", tc.name, kvtest.FormatAttrs(attrs))
		}
	}
}

// TestKeyFrameKeepsOrder: framing is what lets kv ranges map onto DynamoDB
// sort-key conditions unchanged.
func TestKeyFrameKeepsOrder(t *testing.T) {
	keys := [][]byte{{}, {0}, {0, 0}, {0, 1}, {1}, {0xff}, {0xff, 0}, {0xff, 0xff}}
	for i, a := range keys {
		back, err := unframeKey(frameKey(a))
		if err != nil || !bytes.Equal(back, a) {
			t.Errorf("unframe(frame(%x)) = %x, %v", a, back, err)
		}
		if len(frameKey(a)) == 0 {
			t.Errorf("frame(%x) is empty", a)
		}
		for _, b := range keys[i+1:] {
			if bytes.Compare(frameKey(a), frameKey(b)) >= 0 {
				t.Errorf("frame(%x) >= frame(%x)", a, b)
			}
		}
	}
}

func TestMergeOps(t *testing.T) {
	key := func(s string) kv.Key { return kv.Key{Partition: []byte("p"), Sort: []byte(s)} }
	put := func(s string, c kv.Condition) kv.Op {
		return kv.Op{Kind: kv.OpPut, Key: key(s), Cond: c, Attrs: []kv.Attr{{Name: "v", S: s}}}
	}
	del := func(s string, c kv.Condition) kv.Op { return kv.Op{Kind: kv.OpDelete, Key: key(s), Cond: c} }
	type merged struct {
		kind      kv.OpKind
		sort      string
		cond      kv.Condition
		condIndex int
	}
	tests := []struct {
		name       string
		ops        []kv.Op
		want       []merged
		failsIndex int // -1: no failure
	}{
		{"distinct keys kept in order", []kv.Op{put("b", 0), del("a", kv.CondExists)},
			[]merged{{kv.OpPut, "b", 0, 0}, {kv.OpDelete, "a", kv.CondExists, 1}}, -1},
		{"delete then put is the put", []kv.Op{del("a", 0), put("a", 0)},
			[]merged{{kv.OpPut, "a", 0, 0}}, -1},
		{"first op's condition kept", []kv.Op{del("a", kv.CondExists), put("a", kv.CondNotExists)},
			[]merged{{kv.OpPut, "a", kv.CondExists, 0}}, -1},
		{"put then delete is the delete", []kv.Op{put("a", kv.CondNotExists), put("x", 0), del("a", kv.CondExists)},
			[]merged{{kv.OpDelete, "a", kv.CondNotExists, 0}, {kv.OpPut, "x", 0, 1}}, -1},
		{"insert twice fails at the second", []kv.Op{put("a", kv.CondNotExists), put("a", kv.CondNotExists)}, nil, 1},
		{"exists after delete fails", []kv.Op{put("z", 0), del("a", 0), put("a", kv.CondExists)}, nil, 2},
	}
	for _, tc := range tests {
		got, err := mergeOps(tc.ops)
		if tc.failsIndex >= 0 {
			var cf *kv.ConditionFailedError
			if !errors.As(err, &cf) || cf.Index != tc.failsIndex {
				t.Errorf("%s: err = %v, want ConditionFailedError at %d", tc.name, err, tc.failsIndex)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var gotM []merged
		for _, m := range got {
			gotM = append(gotM, merged{m.Kind, string(m.Key.Sort), m.Cond, m.condIndex})
		}
		if !slices.Equal(gotM, tc.want) {
			t.Errorf("%s: merged %+v, want %+v", tc.name, gotM, tc.want)
		}
		for _, m := range got {
			if m.Kind == kv.OpPut && (len(m.Attrs) != 1 || m.Attrs[0].S != string(m.Key.Sort)) {
				t.Errorf("%s: put of %s carries attrs %v", tc.name, m.Key.Sort, m.Attrs)
			}
		}
	}
}

// kv.ExpiresAttr becomes the table's TTL attribute, which reads leave out.
func TestExpiresAttrIsTheTTLAttribute(t *testing.T) {
	k := kv.Key{Partition: []byte("p"), Sort: []byte("s")}
	item, err := encodeItem(k, []kv.Attr{{Name: "c", Kind: kv.AttrInt, I: 1}, {Name: kv.ExpiresAttr, Kind: kv.AttrInt, I: 1700000000}})
	if err != nil {
		t.Fatal(err)
	}
	if got := item[ExpiresAttr]; !sameValue(got, &types.AttributeValueMemberN{Value: "1700000000"}) {
		t.Fatalf("%s = %#v", ExpiresAttr, got)
	}
	if _, ok := item[kv.ExpiresAttr]; ok {
		t.Fatal("the expiry is stored under its kv name too")
	}
	_, attrs, err := decodeItem(item)
	if err != nil {
		t.Fatal(err)
	}
	if len(attrs) != 1 || attrs[0].Name != "c" {
		t.Fatalf("decoded %s, want only c", kvtest.FormatAttrs(attrs))
	}
}

// TestBefore: before(k) is below k and at or above every key below k, by
// brute force over short keys.
func TestBefore(t *testing.T) {
	var keys [][]byte
	for _, b := range [][]byte{{}, {0}, {1}, {0xFF}, {7, 0}, {7, 1}, {7, 0xFF}, {7, 0, 0}, {7, 0xFF, 0xFF}, {8}} {
		keys = append(keys, append([]byte{keyFrame}, b...))
	}
	for _, k := range keys {
		p := before(k)
		if bytes.Compare(p, k) >= 0 || len(p) > maxSortKey {
			t.Fatalf("before(%x) = %x: not below it", k, p)
		}
		for _, o := range keys {
			if bytes.Compare(o, k) < 0 && bytes.Compare(o, p) > 0 {
				t.Errorf("before(%x) = %x: %x lies between", k, p[:min(len(p), 8)], o)
			}
		}
	}
}
