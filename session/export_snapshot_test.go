package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestExportSnapshot is pg_export_snapshot and SET TRANSACTION SNAPSHOT
// between two sessions, as pg_dump -j's leader and workers use them: the
// importing session reads the exporter's snapshot, not what committed
// since, and the name is valid only while the exporting block is open. On
// DynamoDB, which keeps no old versions, exporting is 0A000.
func TestExportSnapshot(t *testing.T) {
	for _, backend := range []string{"pebble", "dynamodb"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			ea, eb, _ := ddlProxies(t, backend)
			a, b := openSession(t, ea), openSession(t, eb)
			mustRun(t, a, `CREATE TABLE snap (k INT PRIMARY KEY)`)
			mustRun(t, a, `INSERT INTO snap VALUES (1), (2)`)
			mustRun(t, a, `BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`)
			rows, err := runSQL(ctx, a, `SELECT pg_export_snapshot()`)
			if backend == "dynamodb" {
				if pgerr.CodeOf(err) != pgerr.FeatureNotSupported {
					t.Fatalf("pg_export_snapshot on DynamoDB: %v, want 0A000", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			name := rows[0]
			mustRun(t, b, `INSERT INTO snap VALUES (3)`)

			mustRun(t, b, `BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`)
			mustRun(t, b, `SET TRANSACTION SNAPSHOT '`+name+`'`)
			if got := strings.Join(rowsOf(t, b, `SELECT k FROM snap ORDER BY k`), ","); got != "1,2" {
				t.Errorf("the importing session reads %s, want the exporter's snapshot 1,2", got)
			}
			if _, err := runSQL(ctx, b, `SET TRANSACTION SNAPSHOT '`+name+`'`); pgerr.CodeOf(err) != pgerr.ActiveSQLTransaction {
				t.Errorf("SET TRANSACTION SNAPSHOT after a query: %v, want 25001", err)
			}
			mustRun(t, b, `ROLLBACK`)

			// A read-write block cannot take a read-only block's snapshot.
			mustRun(t, b, `BEGIN ISOLATION LEVEL REPEATABLE READ`)
			if _, err := runSQL(ctx, b, `SET TRANSACTION SNAPSHOT '`+name+`'`); pgerr.CodeOf(err) != pgerr.FeatureNotSupported {
				t.Errorf("read-write import of a read-only snapshot: %v, want 0A000", err)
			}
			mustRun(t, b, `ROLLBACK`)

			mustRun(t, a, `COMMIT`)
			mustRun(t, b, `BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`)
			if _, err := runSQL(ctx, b, `SET TRANSACTION SNAPSHOT '`+name+`'`); pgerr.CodeOf(err) != pgerr.InvalidParameterValue {
				t.Errorf("importing the snapshot of an ended block: %v, want 22023", err)
			}
			mustRun(t, b, `ROLLBACK`)
		})
	}
}
