package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestCopyTriggerKinds: COPY FROM fires a table's triggers as INSERT
// does, across batches (an AFTER trigger's transition table holds every
// copied row), and COPY into a view runs its INSTEAD OF INSERT trigger,
// counting the rows it returned, on every backend. (The .slt scripts
// cannot send COPY data; PostgreSQL 15 gives these results.)
func TestCopyTriggerKinds(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			for _, q := range []string{
				"CREATE TABLE items (id int PRIMARY KEY, name text)",
				"CREATE TABLE log (seq int PRIMARY KEY, what text)",
				"CREATE SEQUENCE log_seq",
				`CREATE FUNCTION up() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.name := upper(NEW.name); RETURN NEW; END $$`,
				`CREATE FUNCTION row_log() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
				   INSERT INTO log VALUES (nextval('log_seq'), 'row ' || NEW.id || ' of ' || (SELECT count(*) FROM fresh)); RETURN NULL; END $$`,
				`CREATE FUNCTION stmt_log() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
				   INSERT INTO log VALUES (nextval('log_seq'), TG_WHEN || ' ' || (SELECT coalesce(string_agg(name, ',' ORDER BY id), '-') FROM fresh2)); RETURN NULL; END $$`,
				"CREATE TRIGGER a_up BEFORE INSERT ON items FOR EACH ROW EXECUTE FUNCTION up()",
				"CREATE TRIGGER b_row AFTER INSERT ON items REFERENCING NEW TABLE AS fresh FOR EACH ROW EXECUTE FUNCTION row_log()",
				"CREATE TRIGGER c_stmt AFTER INSERT ON items REFERENCING NEW TABLE AS fresh2 FOR EACH STATEMENT EXECUTE FUNCTION stmt_log()",
				"CREATE VIEW items_view AS SELECT id, name FROM items",
				`CREATE FUNCTION view_ins() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
				   IF NEW.id < 0 THEN RETURN NULL; END IF;
				   INSERT INTO items VALUES (NEW.id + 100, NEW.name); RETURN NEW; END $$`,
				"CREATE TRIGGER view_ins INSTEAD OF INSERT ON items_view FOR EACH ROW EXECUTE FUNCTION view_ins()",
			} {
				mustExec(t, sess, q)
			}
			row := func(id int64, name string) []sqltypes.Value {
				return []sqltypes.Value{sqltypes.NewInt(id), sqltypes.NewText(name)}
			}
			tag, err := copyIn(ctx, sess, "COPY items FROM STDIN", [][]sqltypes.Value{row(1, "a"), row(2, "b"), row(3, "c")}, 2)
			if err != nil || tag != "COPY 3" {
				t.Fatalf("COPY: %q, %v", tag, err)
			}
			want := "1|row 1 of 3 2|row 2 of 3 3|row 3 of 3 4|AFTER A,B,C"
			if got := strings.Join(mustExec(t, sess, "SELECT seq, what FROM log ORDER BY seq"), " "); got != want {
				t.Errorf("log after COPY: %s, want %s", got, want)
			}
			tag, err = copyIn(ctx, sess, "COPY items_view (id, name) FROM STDIN", [][]sqltypes.Value{row(7, "x"), row(-1, "skipped"), row(8, "y")}, 2)
			if err != nil || tag != "COPY 2" {
				t.Fatalf("COPY into the view: %q, %v", tag, err)
			}
			if got := strings.Join(mustExec(t, sess, "SELECT id, name FROM items WHERE id > 100 ORDER BY id"), " "); got != "107|X 108|Y" {
				t.Errorf("items after COPY into the view: %s", got)
			}
		})
	}
}
