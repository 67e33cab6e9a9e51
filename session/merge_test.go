package session_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestMergeTags: MERGE is tagged MERGE n, n the rows it inserted, updated
// and deleted (DO NOTHING's and untouched rows not counted), as
// PostgreSQL 15 tags it (the script suite checks rows and errors, not
// tags); so is EXPLAIN ANALYZE's run of it, which writes.
func TestMergeTags(t *testing.T) {
	ctx := context.Background()
	eng, err := session.New(ctx, session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	for _, c := range []struct{ sql, tag string }{
		{"CREATE TABLE t (id int PRIMARY KEY, v int)", "CREATE TABLE"},
		{"INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)", "INSERT 0 3"},
		{"MERGE INTO t USING (VALUES (1), (2), (3), (4), (5)) AS s(id) ON t.id = s.id " +
			"WHEN MATCHED AND s.id = 1 THEN DO NOTHING WHEN MATCHED AND s.id = 2 THEN DELETE WHEN MATCHED THEN UPDATE SET v = 0 " +
			"WHEN NOT MATCHED AND s.id = 4 THEN INSERT VALUES (s.id, 4)", "MERGE 3"},
		{"MERGE INTO t USING (VALUES (9)) AS s(id) ON t.id = s.id WHEN MATCHED THEN DELETE", "MERGE 0"},
		{"SELECT id, v FROM t ORDER BY id", "SELECT 3"},
	} {
		tag, err := runTag(ctx, sess, c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if tag != c.tag {
			t.Errorf("%s: tag %q, want %q", c.sql, tag, c.tag)
		}
	}
}
