package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestPlanMethodSettings: the enable_* planner settings steer zproxy's
// choices where they map onto them, as PostgreSQL's do its planner's: a
// disabled method is avoided while another can do the work and taken when
// it is the only way; RESET brings the default plan back.
func TestPlanMethodSettings(t *testing.T) {
	ctx := context.Background()
	eng, err := session.New(ctx, session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "admin", Database: "postgres"})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE pa (k INT PRIMARY KEY, v INT, w TEXT)",
		"CREATE TABLE pb (k INT PRIMARY KEY, v INT)",
		"CREATE INDEX pa_v ON pa (v) INCLUDE (w)",
	} {
		if _, err := runSQL(ctx, sess, q); err != nil {
			t.Fatal(err)
		}
	}
	lookup := "SELECT * FROM pa JOIN pb ON pa.k = pb.v"
	covered := "SELECT v, w FROM pa WHERE v = 3"
	for _, c := range []struct {
		set, query string
		want       []string
		not        []string
	}{
		{"", lookup, []string{"Lookup Join"}, []string{"Hash Join"}},
		{"SET enable_nestloop = off", lookup, []string{"Hash Join"}, []string{"Lookup Join"}},
		{"SET enable_hashjoin = off", lookup, []string{"Lookup Join"}, nil}, // the only way left
		{"RESET ALL", lookup, []string{"Lookup Join"}, nil},
		{"SET enable_hashjoin = off", "SELECT * FROM pa JOIN pb ON pa.v = pb.v", []string{"Nested Loop"}, []string{"Hash Join"}},
		{"RESET enable_hashjoin", covered, []string{"via btree index pa_v", "covering: yes"}, nil},
		{"SET enable_indexonlyscan = off", covered, []string{"via btree index pa_v", "lookup: table rows fetched by primary key"}, []string{"covering: yes"}},
		{"SET enable_indexscan = off", covered, []string{"via btree index pa_v"}, nil}, // bitmap scans still read it
		{"SET enable_bitmapscan = off", covered, []string{"full scan", "btree index pa_v (enable_indexscan and enable_bitmapscan are off)"}, nil},
		{"SET LOCAL enable_bitmapscan = on", covered, []string{"full scan"}, nil}, // outside a block SET LOCAL changes nothing
		{"RESET ALL", covered, []string{"via btree index pa_v", "covering: yes"}, nil},
	} {
		if c.set != "" {
			if _, err := runSQL(ctx, sess, c.set); err != nil {
				t.Fatalf("%s: %v", c.set, err)
			}
		}
		rows, err := runSQL(ctx, sess, "EXPLAIN "+c.query)
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(rows, "\n")
		for _, w := range c.want {
			if !strings.Contains(plan, w) {
				t.Errorf("after %q, EXPLAIN %s lacks %q:\n%s", c.set, c.query, w, plan)
			}
		}
		for _, w := range c.not {
			if strings.Contains(plan, w) {
				t.Errorf("after %q, EXPLAIN %s has %q:\n%s", c.set, c.query, w, plan)
			}
		}
	}
}
