package session_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

// onCall is the doctors-on-call table of the write-skew tests: doctors
// rows, all on call.
func onCall(t *testing.T, sess wire.Session, doctors int) {
	t.Helper()
	mustExec(t, sess, `DROP TABLE IF EXISTS doctors`)
	mustExec(t, sess, `CREATE TABLE doctors (id int PRIMARY KEY, on_call bool NOT NULL)`)
	for d := range doctors {
		mustExec(t, sess, fmt.Sprintf(`INSERT INTO doctors VALUES (%d, true)`, d))
	}
}

// TestSerializableDoctors runs the classic write skew through SQL on
// Pebble, from concurrent sessions: each doctor's transaction takes them
// off call if at least two are on call, retrying on 40001. Serializable,
// somebody stays on call, in transaction blocks and in statements outside
// them with default_transaction_isolation = serializable.
func TestSerializableDoctors(t *testing.T) {
	ctx := context.Background()
	eng := newEngine(t, memStore(t))
	setup := openSession(t, eng)
	const doctors = 4
	sessions := make([]wire.Session, doctors)
	for d := range sessions {
		sessions[d] = openSession(t, eng)
	}
	for _, lone := range []bool{false, true} {
		for round := range 10 {
			onCall(t, setup, doctors)
			var wg sync.WaitGroup
			for d, sess := range sessions {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if lone {
						mustExec(t, sess, `SET default_transaction_isolation = serializable`)
					}
					for attempt := 0; ; attempt++ {
						err := takeOffCall(ctx, sess, d, lone)
						if pgerr.CodeOf(err) == pgerr.SerializationFailure && attempt < 100 {
							if !lone && !strings.Contains(err.Error(), "read/write dependencies") && !strings.Contains(err.Error(), "concurrent update") {
								t.Errorf("40001 worded %q", err)
							}
							continue
						}
						if err != nil {
							t.Errorf("doctor %d: %v", d, err)
						}
						return
					}
				}()
			}
			wg.Wait()
			if got := mustExec(t, setup, `SELECT count(*) FROM doctors WHERE on_call`); got[0] == "0" {
				t.Fatalf("lone statements %v, round %d: nobody on call", lone, round)
			}
		}
	}
}

// takeOffCall is one doctor's attempt.
func takeOffCall(ctx context.Context, sess wire.Session, d int, lone bool) error {
	if lone {
		_, err := runSQL(ctx, sess, fmt.Sprintf(`UPDATE doctors SET on_call = false WHERE id = %d AND (SELECT count(*) FROM doctors WHERE on_call) >= 2`, d))
		return err
	}
	if _, err := runSQL(ctx, sess, `BEGIN ISOLATION LEVEL SERIALIZABLE`); err != nil {
		return err
	}
	rows, err := runSQL(ctx, sess, `SELECT count(*) FROM doctors WHERE on_call`)
	if err == nil && rows[0] != "0" && rows[0] != "1" {
		_, err = runSQL(ctx, sess, fmt.Sprintf(`UPDATE doctors SET on_call = false WHERE id = %d`, d))
	}
	if err != nil {
		runSQL(ctx, sess, `ROLLBACK`)
		return err
	}
	_, err = runSQL(ctx, sess, `COMMIT`)
	return err
}

// TestSerializableRefusedOnDynamoDB: DynamoDB's transactions are snapshot
// isolation only, so every way of asking for SERIALIZABLE fails with
// 0A000 rather than run weaker than asked.
func TestSerializableRefusedOnDynamoDB(t *testing.T) {
	ctx := context.Background()
	sess := openSession(t, newEngine(t, sharedDynamo(t, 1)[0]))
	for _, sql := range []string{
		`BEGIN ISOLATION LEVEL SERIALIZABLE`,
		`START TRANSACTION ISOLATION LEVEL SERIALIZABLE`,
		`SET default_transaction_isolation = 'serializable'`,
	} {
		_, err := runSQL(ctx, sess, sql)
		pe := pgerr.As(err)
		if pe == nil || pe.Code != pgerr.FeatureNotSupported || !strings.Contains(pe.Message, "SERIALIZABLE isolation is not supported on the dynamodb store") || pe.Hint == "" {
			t.Errorf("%s: %v, want 0A000 with a hint", sql, err)
		}
		runSQL(ctx, sess, `ROLLBACK`)
	}
	mustExec(t, sess, `BEGIN`)
	if _, err := runSQL(ctx, sess, `SET TRANSACTION ISOLATION LEVEL SERIALIZABLE`); pgerr.CodeOf(err) != pgerr.FeatureNotSupported {
		t.Errorf("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE: %v, want 0A000", err)
	}
	mustExec(t, sess, `ROLLBACK`)
	if got := mustExec(t, sess, `SHOW transaction_isolation`); got[0] != "read committed" {
		t.Errorf("transaction_isolation after the refusals: %s", got[0])
	}
}
