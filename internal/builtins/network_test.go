package builtins

import (
	"math/rand/v2"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// randomInet draws an address near a few prefixes, so that containment
// and shared prefixes are common.
func randomInet(r *rand.Rand) sqltypes.InetAddr {
	n := sqltypes.InetAddr{Family: sqltypes.InetFamily4}
	if r.IntN(4) == 0 {
		n.Family = sqltypes.InetFamily6
	}
	for i := 0; i < n.Size(); i++ {
		n.Addr[i] = []byte{0, 10, 0xff, byte(r.IntN(256))}[r.IntN(4)]
	}
	n.Bits = r.IntN(n.MaxBits() + 1)
	return n
}

// TestInetSubnetBounds checks the key range the optimizer reads for
// x <<= N (sqltypes.InetSubnetBounds) against the operator itself: an
// address is contained exactly when it lies within the range, in
// network_cmp's order (sqltypes.Compare).
func TestInetSubnetBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		x, n := randomInet(r), randomInet(r)
		lo, hi := sqltypes.InetSubnetBounds(sqltypes.NewInet(n))
		xv := sqltypes.NewInet(x)
		in := sqltypes.Compare(lo, xv) <= 0 && sqltypes.Compare(xv, hi) <= 0
		if want := inetContains(x, n, false); in != want {
			t.Fatalf("%s <<= %s is %v, but within [%s, %s] is %v", sqltypes.FormatText(xv), sqltypes.FormatText(sqltypes.NewInet(n)),
				want, sqltypes.FormatText(lo), sqltypes.FormatText(hi), in)
		}
	}
}

// TestInetArithmetic checks inet + bigint and inet - inet against
// PostgreSQL 15's answers, overflow included.
func TestInetArithmetic(t *testing.T) {
	parse := func(s string) sqltypes.Value {
		v, err := sqltypes.ParseInet(s, false)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	adds := []struct {
		in     string
		addend int64
		want   string // "" for out of range
	}{
		{"192.168.1.6", 25, "192.168.1.31"},
		{"192.168.1.43", -36, "192.168.1.7"},
		{"255.255.255.255", 1, ""},
		{"0.0.0.0", -1, ""},
		{"255.255.255.255", -4294967295, "0.0.0.0"},
		{"10.1.2.3/8", 300, "10.1.3.47/8"},
		{"::", 9223372036854775807, "::7fff:ffff:ffff:ffff"},
		{"::1", 65536, "::0.1.0.1"},
		{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1, ""},
		{"::1:0:0:0:0", -1, "::ffff:ffff:ffff:ffff"},
	}
	for _, tc := range adds {
		got, err := inetAdd(parse(tc.in), tc.addend)
		switch {
		case tc.want == "":
			if err == nil {
				t.Errorf("%s + %d = %s, want out of range", tc.in, tc.addend, sqltypes.FormatText(got))
			}
		case err != nil || sqltypes.FormatText(got) != tc.want:
			t.Errorf("%s + %d = %s, %v; want %s", tc.in, tc.addend, sqltypes.FormatText(got), err, tc.want)
		}
	}
	subs := []struct {
		a, b string
		want int64
		ok   bool
	}{
		{"192.168.1.43", "192.168.1.19", 24, true},
		{"0.0.0.0", "255.255.255.255", -4294967295, true},
		{"::ffff:ffff:ffff", "::", 281474976710655, true},
		{"::7fff:ffff:ffff:ffff", "::", 9223372036854775807, true},
		{"::", "::8000:0:0:0", -9223372036854775808, true},
		{"::8000:0:0:0", "::", 0, false},
		{"ffff::", "::", 0, false},
	}
	for _, tc := range subs {
		got, err := inetSub(parse(tc.a), parse(tc.b))
		if tc.ok != (err == nil) || tc.ok && got.I != tc.want {
			t.Errorf("%s - %s = %v, %v; want %d (ok %v)", tc.a, tc.b, got, err, tc.want, tc.ok)
		}
	}
}
