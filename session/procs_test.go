package session

import (
	"testing"

	"github.com/zproxy/zproxy/internal/builtins"
)

// TestSessionProcs: the functions this package registers (pg_proc is built
// from the registry; catalog/pgcatalog's tests cannot link this package)
// have PostgreSQL 15's signatures, volatility and strictness:
//
//	pg_notify(text, text) returns void, volatile, not strict
//	pg_notification_queue_usage() returns double precision, volatile, strict
func TestSessionProcs(t *testing.T) {
	cases := []struct {
		name   string
		args   []uint32
		ret    uint32
		strict bool
	}{
		{"pg_notify", []uint32{25, 25}, 2278, false},
		{"pg_notification_queue_usage", nil, 701, true},
	}
	for _, c := range cases {
		ovs := builtins.Overloads(c.name)
		if len(ovs) != 1 {
			t.Fatalf("%s has %d overloads, want 1", c.name, len(ovs))
		}
		args, ret := ovs[0].Signature()
		if len(args) != len(c.args) || ret != c.ret || ovs[0].Volatility != builtins.Volatile || ovs[0].CalledOnNull == c.strict {
			t.Errorf("%s: args %v ret %d volatility %d strict %v; want args %v ret %d volatile strict %v",
				c.name, args, ret, ovs[0].Volatility, !ovs[0].CalledOnNull, c.args, c.ret, c.strict)
		}
		for i := range args {
			if i < len(c.args) && args[i] != c.args[i] {
				t.Errorf("%s: argument %d has type %d, want %d", c.name, i+1, args[i], c.args[i])
			}
		}
	}
}
