package session_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

// raceAddExclusion races ALTER TABLE ... ADD CONSTRAINT ... EXCLUDE with
// inserts of a row overlapping one already stored, on fresh tables, with
// the insert started at delays spread over the ALTER's build and
// validation: whichever wins, the table never ends with the constraint and
// the conflicting pair. Either the ALTER fails (23P01, could not create)
// or the insert does (23P01 against the constraint, or 40001 when the
// descriptor changed under it), or the insert commits before the ALTER
// reads the rows and the ALTER fails. Every other insert is in a
// transaction block, whose snapshot may predate the index's entries (the
// validation's lock items catch it: executor/exclusion.go).
func raceAddExclusion(t *testing.T, a, b wire.Session) {
	t.Helper()

	const rounds = 16
	outcomes := map[string]int{}
	// How long an ALTER takes here: the inserts start at points spread
	// over it, so that some land in its build and some in its validation.
	mustExec(t, a, `CREATE TABLE addx_probe (id int PRIMARY KEY, room int, during int4range)`)
	mustExec(t, a, `INSERT INTO addx_probe SELECT i, i % 7, int4range(i * 10, i * 10 + 5) FROM generate_series(1, 100) i`)
	began := time.Now()
	mustExec(t, a, `ALTER TABLE addx_probe ADD CONSTRAINT addx_probe_x EXCLUDE USING gist (room WITH =, during WITH &&)`)
	step := time.Since(began) / rounds
	for r := 0; r < rounds; r++ {
		tbl := fmt.Sprintf("addx%d", r)
		mustExec(t, a, fmt.Sprintf(`CREATE TABLE %s (id int PRIMARY KEY, room int, during int4range)`, tbl))
		mustExec(t, a, fmt.Sprintf(`INSERT INTO %s SELECT i, i %% 7, int4range(i * 10, i * 10 + 5) FROM generate_series(1, 100) i`, tbl))
		eventually(t, b, fmt.Sprintf(`SELECT count(*) FROM %s`, tbl))
		// Row 1 is room 1, [10, 15): the insert overlaps it.
		ins := fmt.Sprintf(`INSERT INTO %s VALUES (100000, 1, int4range(12, 20))`, tbl)
		if r%2 == 1 {
			ins = "BEGIN; " + ins + "; COMMIT"
		}
		alter := fmt.Sprintf(`ALTER TABLE %s ADD CONSTRAINT %s_x EXCLUDE USING gist (room WITH =, during WITH &&)`, tbl, tbl)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); _, errs[0] = runSQL(context.Background(), a, alter) }()
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(r) * step)
			_, errs[1] = runSQL(context.Background(), b, ins)
		}()
		wg.Wait()
		for i, err := range errs {
			if err == nil {
				continue
			}
			switch code := pgerr.CodeOf(err); code {
			case pgerr.ExclusionViolation, pgerr.SerializationFailure:
			default:
				t.Fatalf("round %d, session %d: %v (%s)", r, i, err, code)
			}
			_, _ = runSQL(context.Background(), []wire.Session{a, b}[i], `ROLLBACK`)
		}
		has := mustExec(t, a, fmt.Sprintf(`SELECT count(*) FROM pg_constraint WHERE conname = '%s_x'`, tbl))[0] == "1"
		inserted := mustExec(t, a, fmt.Sprintf(`SELECT count(*) FROM %s WHERE id = 100000`, tbl))[0] == "1"
		if has && inserted {
			t.Fatalf("round %d: the constraint was added and the overlapping row inserted (alter: %v, insert: %v)", r, errs[0], errs[1])
		}
		outcomes[fmt.Sprintf("constraint %v, row %v", has, inserted)]++
		checkConsistent(t, a, tbl)
	}
	t.Logf("outcomes: %v", outcomes)
}

// TestAddExclusionRace: two sessions of one proxy, on every backend, and
// two proxies over one DynamoDB table.
func TestAddExclusionRace(t *testing.T) {
	raceSessions(t, "", "", raceAddExclusion)
}
