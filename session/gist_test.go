package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestNearestScansMatchFullScans is the property test of nearest-neighbour
// scans: random points (clusters, duplicates, NULLs, outliers) under random
// writes, and random ORDER BY p <-> point LIMIT k queries (with filters,
// boxes, offsets and ties broken by id) answered through the gist index
// and again ordered by the distance plus zero, which sorts every row. The
// answers must be the same, and the index must stay exact (CHECK TABLE).
func TestNearestScansMatchFullScans(t *testing.T) {
	for _, be := range backends(t) {
		for _, analyzed := range []bool{false, true} {
			name := be.name
			if analyzed {
				name += "/analyzed"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel() // the stores are the legs' own: DynamoDB Local's round trips overlap Pebble's work
				nearestMatchesFullScan(t, be, analyzed)
			})
		}
	}
}

// nearestMatchesFullScan is TestNearestScansMatchFullScans on one store.
// Analyzed, the table's statistics (taken again every few writes, so
// they are often stale) size the search: on Pebble the square search
// answers most searches without a filter, and must use it.
func nearestMatchesFullScan(t *testing.T, be backend, analyzed bool) {
	_, sess := newSession(t, be.open(t))
	mustExec(t, sess, "CREATE TABLE near (id int PRIMARY KEY, p point, tag int)")
	mustExec(t, sess, "CREATE INDEX near_p ON near USING gist (p)")
	rng := rand.New(rand.NewSource(5))
	point := func() string {
		switch r := rng.Intn(30); {
		case r == 0:
			return "NULL"
		case r == 1:
			return fmt.Sprintf("point(%d, %d)", rng.Intn(2000)-1000, rng.Intn(2000)-1000) // an outlier
		case r < 8:
			return fmt.Sprintf("point(%d, %d)", rng.Intn(6), rng.Intn(6)) // a dense corner, many ties
		default:
			return fmt.Sprintf("point(%.3f, %.3f)", rng.NormFloat64()*40+50, rng.NormFloat64()*25)
		}
	}
	var rows []string
	for id := 0; id < 300; id++ {
		rows = append(rows, fmt.Sprintf("(%d, %s, %d)", id, point(), rng.Intn(5)))
	}
	mustExec(t, sess, "INSERT INTO near VALUES "+strings.Join(rows, ", "))
	ctx := context.Background()
	nearest, squares, steps := 0, 0, 150
	if be.name == "dynamodb" {
		steps = 40 // every request is a round trip to DynamoDB Local
	}
	for step := 0; step < steps; step++ {
		id := rng.Intn(340)
		var write string
		switch rng.Intn(3) {
		case 0:
			write = fmt.Sprintf("INSERT INTO near VALUES (%d, %s, %d) ON CONFLICT (id) DO UPDATE SET p = excluded.p", id, point(), rng.Intn(5))
		case 1:
			write = fmt.Sprintf("UPDATE near SET p = point(p[0] + %d, p[1]) WHERE id %% 13 = %d", rng.Intn(20)-10, id%13)
		default:
			write = fmt.Sprintf("DELETE FROM near WHERE id = %d", id)
		}
		if _, err := runSQL(ctx, sess, write); err != nil {
			t.Fatalf("step %d: %s: %v", step, write, err)
		}
		centre := fmt.Sprintf("point '(%.2f,%.2f)'", rng.NormFloat64()*60+40, rng.NormFloat64()*40)
		switch rng.Intn(6) {
		case 0:
			centre = fmt.Sprintf("point '(%d,%d)'", rng.Intn(6), rng.Intn(6)) // on the ties
		case 1:
			// Outside the data, beyond its outliers: a search from
			// the data's nearest point (NearestCells.Offset).
			far := func() int { return (1500 + rng.Intn(3000)) * (2*rng.Intn(2) - 1) }
			centre = fmt.Sprintf("point '(%d,%d)'", far(), []int{far(), rng.Intn(200) - 100}[rng.Intn(2)])
		}
		where := ""
		switch rng.Intn(4) {
		case 0:
			where = fmt.Sprintf(" WHERE tag = %d", rng.Intn(5))
		case 1:
			where = fmt.Sprintf(" WHERE p <@ box '((%d,%d),(%d,%d))'", rng.Intn(60)-10, rng.Intn(40)-20, rng.Intn(60)+40, rng.Intn(40)+10)
		}
		k := []int{1, 3, 10, 50, 400}[rng.Intn(5)]
		// The whole row: a search that reads the index's entries
		// alone fetches the rows of its final candidates.
		q := fmt.Sprintf("SELECT id, tag, p FROM near%s ORDER BY p <-> %s, id LIMIT %d", where, centre, k)
		if rng.Intn(4) == 0 {
			q += fmt.Sprintf(" OFFSET %d", rng.Intn(20))
		}
		if analyzed && step%30 == 0 {
			mustExec(t, sess, "ANALYZE near")
		}
		explain := "EXPLAIN "
		if analyzed {
			explain = "EXPLAIN ANALYZE "
		}
		plan := strings.Join(mustExec(t, sess, explain+q), "\n")
		if strings.Contains(plan, "z-order nearest") {
			nearest++
		}
		if strings.Contains(plan, " squares=") {
			squares++
		}
		got := mustExec(t, sess, q)
		// The same order by an expression no search answers (with
		// index scans off the search is still chosen): every row
		// sorted.
		sorted := strings.Replace(q, "ORDER BY p <-> "+centre, "ORDER BY (p <-> "+centre+") + 0", 1)
		if p := strings.Join(mustExec(t, sess, "EXPLAIN "+sorted), "\n"); strings.Contains(p, "nearest") {
			t.Fatalf("%s: a nearest-neighbour scan:\n%s", sorted, p)
		}
		want := mustExec(t, sess, sorted)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("step %d: %s\nthrough the index: %v\nsorted:            %v\nplan:\n%s", step, q, got, want, plan)
		}
		if step%25 == 0 {
			checkConsistent(t, sess, "near")
		}
	}
	checkConsistent(t, sess, "near")
	t.Logf("%d of %d queries used a nearest-neighbour scan, %d the square search", nearest, steps, squares)
	if nearest < steps*3/4 {
		t.Fatalf("only %d of %d queries used a nearest-neighbour scan", nearest, steps)
	}
	if wantSquares := analyzed && be.name == "pebble"; wantSquares != (squares >= steps/5) {
		t.Fatalf("%d of %d queries used the square search (analyzed: %v)", squares, steps, analyzed)
	}
}
