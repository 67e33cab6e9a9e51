package e2e

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestCommandTags: the tag each statement's CommandComplete carries is
// PostgreSQL's, for both protocols (drivers return it to applications as
// the affected-row count or the statement kind, and some branch on it).
func TestCommandTags(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec} {
		t.Run(mode.String(), func(t *testing.T) {
			conn := tg.Connect(t, mode)
			ctx := testCtx(t)
			tg.CreateTable(t, conn, "CREATE TABLE command_tags (k INT PRIMARY KEY, v TEXT)")
			for _, c := range []struct{ sql, tag string }{
				{"START TRANSACTION", "START TRANSACTION"},
				{"START TRANSACTION", "START TRANSACTION"}, // already in a block: a WARNING, the same tag
				{"INSERT INTO command_tags VALUES (1, 'a'), (2, 'b')", "INSERT 0 2"},
				{"UPDATE command_tags SET v = 'c' WHERE k = 1", "UPDATE 1"},
				{"SELECT * FROM command_tags", "SELECT 2"},
				{"SAVEPOINT s", "SAVEPOINT"},
				{"DELETE FROM command_tags WHERE k = 2", "DELETE 1"},
				{"ROLLBACK TO SAVEPOINT s", "ROLLBACK"},
				{"RELEASE SAVEPOINT s", "RELEASE"},
				{"COMMIT", "COMMIT"},
				{"BEGIN", "BEGIN"},
				{"BEGIN", "BEGIN"},
				{"END", "COMMIT"},
				{"START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", "START TRANSACTION"},
				{"ABORT", "ROLLBACK"},
				{"SET search_path = public", "SET"},
				{"RESET search_path", "RESET"},
				{"SET search_path TO DEFAULT", "SET"},
				{"RESET ALL", "RESET"},
				{"SHOW server_version_num", "SHOW"},
				{"EXPLAIN SELECT * FROM command_tags", "EXPLAIN"},
				{"VALUES (1), (2), (3)", "SELECT 3"},
				{"CREATE TEMP TABLE command_tags_as AS SELECT * FROM command_tags", "SELECT 2"},
				{"CREATE TEMP TABLE IF NOT EXISTS command_tags_as AS SELECT 1", "CREATE TABLE AS"},
				{"CREATE TEMP TABLE command_tags_empty AS SELECT 1 WITH NO DATA", "CREATE TABLE AS"},
				{"SELECT k INTO TEMP command_tags_into FROM command_tags WHERE k = 1", "SELECT 1"},
				{"CREATE MATERIALIZED VIEW command_tags_mv AS SELECT k FROM command_tags", "SELECT 2"},
				{"CREATE MATERIALIZED VIEW IF NOT EXISTS command_tags_mv AS SELECT 1", "CREATE MATERIALIZED VIEW"},
				{"CREATE MATERIALIZED VIEW command_tags_mv0 AS SELECT 1 WITH NO DATA", "CREATE MATERIALIZED VIEW"},
				{"REFRESH MATERIALIZED VIEW command_tags_mv", "REFRESH MATERIALIZED VIEW"},
				{"ALTER MATERIALIZED VIEW command_tags_mv RENAME TO command_tags_mv2", "ALTER MATERIALIZED VIEW"},
				{"DROP MATERIALIZED VIEW command_tags_mv2, command_tags_mv0", "DROP MATERIALIZED VIEW"},
				{"TRUNCATE command_tags", "TRUNCATE TABLE"},
				{"DROP TABLE command_tags", "DROP TABLE"},
			} {
				tag, err := conn.Exec(ctx, c.sql)
				if err != nil {
					t.Errorf("%s: %v", c.sql, err)
					continue
				}
				if tag.String() != c.tag {
					t.Errorf("%s: tag %q, want %q", c.sql, tag.String(), c.tag)
				}
			}
		})
	}
}
