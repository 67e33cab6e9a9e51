package session_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

// addRace is a race of ALTER TABLE ... ADD CONSTRAINT with an insert that
// breaks the constraint (raceAddConstraint). Its SQL texts are formats of
// the table's name: create makes the table, fill gives it rows the
// constraint holds for, insert adds the row it does not, and alter adds
// the constraint, named %s_x; conflict is the violation's SQLSTATE.
type addRace struct {
	create, fill, insert, alter string
	conflict                    pgerr.Code
}

// raceAddExclusion races ALTER TABLE ... ADD CONSTRAINT ... EXCLUDE with
// inserts of a row overlapping one already stored (raceAddConstraint).
func raceAddExclusion(t *testing.T, a, b wire.Session) {
	t.Helper()
	raceAddConstraint(t, a, b, "addx", addRace{
		create: `CREATE TABLE %s (id int PRIMARY KEY, room int, during int4range)`,
		fill:   `INSERT INTO %s SELECT i, i %% 7, int4range(i * 10, i * 10 + 5) FROM generate_series(1, 100) i`,
		// Row 1 is room 1, [10, 15): the insert overlaps it.
		insert:   `INSERT INTO %s VALUES (100000, 1, int4range(12, 20))`,
		alter:    `ALTER TABLE %[1]s ADD CONSTRAINT %[1]s_x EXCLUDE USING gist (room WITH =, during WITH &&)`,
		conflict: pgerr.ExclusionViolation,
	})
}

// raceAddConstraint races ALTER TABLE ... ADD CONSTRAINT with inserts of
// a row that breaks it, on fresh tables, with the insert started at
// delays spread over the ALTER's build and validation: whichever wins,
// the table never ends with the constraint and the offending row. Either
// the ALTER fails (could not create) or the insert does (the violation,
// or 40001 when the descriptor changed under it), or the insert commits
// before the ALTER reads the rows and the ALTER fails. Every other insert
// is in a transaction block, whose snapshot may predate the index's
// entries (the validation's lock items catch it: executor/exclusion.go).
func raceAddConstraint(t *testing.T, a, b wire.Session, prefix string, r addRace) {
	t.Helper()
	rounds := 16
	if !strings.HasSuffix(t.Name(), "/pebble") {
		// DynamoDB's legs: every round's table, fill and ALTER are round
		// trips; eight delays still land in both the build and the
		// validation.
		rounds = 8
	}
	outcomes := map[string]int{}
	// How long an ALTER takes here: the inserts start at points spread
	// over it, so that some land in its build and some in its validation.
	probe := prefix + "_probe"
	mustExec(t, a, fmt.Sprintf(r.create, probe))
	mustExec(t, a, fmt.Sprintf(r.fill, probe))
	began := time.Now()
	mustExec(t, a, fmt.Sprintf(r.alter, probe))
	step := time.Since(began) / time.Duration(rounds)
	for round := 0; round < rounds; round++ {
		tbl := fmt.Sprintf("%s%d", prefix, round)
		mustExec(t, a, fmt.Sprintf(r.create, tbl))
		mustExec(t, a, fmt.Sprintf(r.fill, tbl))
		eventually(t, b, fmt.Sprintf(`SELECT count(*) FROM %s`, tbl))
		ins := fmt.Sprintf(r.insert, tbl)
		if round%2 == 1 {
			ins = "BEGIN; " + ins + "; COMMIT"
		}
		alter := fmt.Sprintf(r.alter, tbl)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); _, errs[0] = runSQL(context.Background(), a, alter) }()
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(round) * step)
			_, errs[1] = runSQL(context.Background(), b, ins)
		}()
		wg.Wait()
		for i, err := range errs {
			if err == nil {
				continue
			}
			if code := pgerr.CodeOf(err); code != r.conflict && code != pgerr.SerializationFailure {
				t.Fatalf("round %d, session %d: %v (%s)", round, i, err, code)
			}
			_, _ = runSQL(context.Background(), []wire.Session{a, b}[i], `ROLLBACK`)
		}
		has := mustExec(t, a, fmt.Sprintf(`SELECT count(*) FROM pg_constraint WHERE conname = '%s_x'`, tbl))[0] == "1"
		inserted := mustExec(t, a, fmt.Sprintf(`SELECT count(*) FROM %s WHERE id = 100000`, tbl))[0] == "1"
		if has && inserted {
			t.Fatalf("round %d: the constraint was added and the offending row inserted (alter: %v, insert: %v)", round, errs[0], errs[1])
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
