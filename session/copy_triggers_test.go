package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestCopyAfterRowTriggersAtEnd: COPY FROM's AFTER ROW triggers fire at
// the end of the statement, as PostgreSQL queues them, not after each
// batch the wire hands over: a trigger that counts the table sees every
// row of the COPY, on a plain table and on a partitioned one (whose
// trigger its partitions fire). PostgreSQL 15 logs 6 for each of the six
// rows copied with \copy.
func TestCopyAfterRowTriggersAtEnd(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			mustExec(t, sess, "CREATE TABLE cta (id int PRIMARY KEY)")
			mustExec(t, sess, "CREATE TABLE ctp (id int PRIMARY KEY) PARTITION BY RANGE (id)")
			mustExec(t, sess, "CREATE TABLE ctp1 PARTITION OF ctp FOR VALUES FROM (0) TO (4)")
			mustExec(t, sess, "CREATE TABLE ctp2 PARTITION OF ctp FOR VALUES FROM (4) TO (100)")
			mustExec(t, sess, "CREATE TABLE ctlog (tab text, id int, seen bigint)")
			for _, tab := range []string{"cta", "ctp"} {
				mustExec(t, sess, "CREATE FUNCTION "+tab+"_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO ctlog SELECT '"+
					tab+"', NEW.id, count(*) FROM "+tab+"; RETURN NULL; END $$")
				mustExec(t, sess, "CREATE TRIGGER "+tab+"_a AFTER INSERT ON "+tab+" FOR EACH ROW EXECUTE FUNCTION "+tab+"_f()")
			}
			var rows [][]sqltypes.Value
			for i := int64(1); i <= 6; i++ {
				rows = append(rows, []sqltypes.Value{sqltypes.NewInt(i)})
			}
			for _, tab := range []string{"cta", "ctp"} {
				if tag, err := copyIn(ctx, sess, "COPY "+tab+" FROM STDIN", rows, 2); err != nil || tag != "COPY 6" {
					t.Fatalf("COPY %s: %q, %v", tab, tag, err)
				}
				got := mustExec(t, sess, "SELECT id, seen FROM ctlog WHERE tab = '"+tab+"' ORDER BY id")
				if want := "1|6 2|6 3|6 4|6 5|6 6|6"; strings.Join(got, " ") != want {
					t.Errorf("%s: the AFTER ROW triggers saw %v, want %s", tab, got, want)
				}
			}
		})
	}
}
