package executor_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestZigzagMatchesBruteForce is a property test of the zig-zag against
// brute force: posting lists of random densities, dense and sparse, in
// runs and scattered, with tombstones of deleted and rewritten rows among
// them, in two shards; every AND of two or three tokens answers exactly
// the rows the generated data says hold them all, and every OR (the
// lists' union) the rows holding any. The lists' gaps are
// both shorter and longer than zigzagSteps, so a list behind both steps
// and seeks to the largest key another stands at.
func TestZigzagMatchesBruteForce(t *testing.T) {
	densities := []float64{0.95, 0.5, 0.2, 0.05, 0.01, 0.002}
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			e := newEnv(t,
				`CREATE TABLE p (id INT PRIMARY KEY, tags TEXT[]) WITH (shards = 2)`,
				`CREATE INDEX p_tags ON p USING gin (tags)`)
			const rows, ntags = 1500, 5
			// Each tag is on a row with its own density, in runs of a
			// random length (1: scattered) so gaps vary within a list.
			dens := make([]float64, ntags)
			runs := make([]int, ntags)
			for k := range dens {
				dens[k] = densities[rng.Intn(len(densities))]
				runs[k] = 1 + rng.Intn(3)*rng.Intn(20)
			}
			has := make([][]bool, rows)
			for id := range has {
				has[id] = make([]bool, ntags)
			}
			for k := range ntags {
				for id := 0; id < rows; id += runs[k] {
					on := rng.Float64() < dens[k]
					for j := id; j < min(id+runs[k], rows); j++ {
						has[j][k] = on
					}
				}
			}
			tagsOf := func(id int) string {
				var ts []string
				for k, on := range has[id] {
					if on {
						ts = append(ts, fmt.Sprintf("k%d", k))
					}
				}
				return "'{" + strings.Join(ts, ",") + "}'"
			}
			var vals []string
			for id := range rows {
				vals = append(vals, fmt.Sprintf("(%d, %s)", id, tagsOf(id)))
				if len(vals) == 500 {
					e.mustExec("INSERT INTO p VALUES " + strings.Join(vals, ", "))
					vals = vals[:0]
				}
			}
			// Deleted rows and rewritten tags leave tombstones in the lists.
			live := make([]bool, rows)
			for id := range live {
				live[id] = true
			}
			for range 60 {
				id := rng.Intn(rows)
				if rng.Intn(2) == 0 {
					e.mustExec(fmt.Sprintf("DELETE FROM p WHERE id = %d", id))
					live[id] = false
					continue
				}
				for k := range has[id] {
					has[id][k] = rng.Float64() < dens[k]
				}
				e.mustExec(fmt.Sprintf("INSERT INTO p VALUES (%d, %s) ON CONFLICT (id) DO UPDATE SET tags = excluded.tags", id, tagsOf(id)))
				live[id] = true
			}
			for range 25 {
				ks := rng.Perm(ntags)[:2+rng.Intn(2)]
				var names []string
				for _, k := range ks {
					names = append(names, fmt.Sprintf("k%d", k))
				}
				// @> is an AND of the tokens (the zig-zag), && an OR
				// (the lists' union, a row on several lists once).
				and := rng.Intn(2) == 0
				op := "&&"
				if and {
					op = "@>"
				}
				q := "SELECT id FROM p WHERE tags " + op + " '{" + strings.Join(names, ",") + "}'"
				if plan := strings.Join(e.mustQuery("EXPLAIN "+q), "\n"); !strings.Contains(plan, "inverted scan") {
					t.Fatalf("%s: not an inverted scan:\n%s", q, plan)
				}
				got := e.mustQuery(q)
				slices.SortFunc(got, func(a, b string) int {
					x, _ := strconv.Atoi(a)
					y, _ := strconv.Atoi(b)
					return x - y
				})
				var want []string
				for id := range rows {
					in := and
					for _, k := range ks {
						if and {
							in = in && has[id][k]
						} else {
							in = in || has[id][k]
						}
					}
					if in && live[id] {
						want = append(want, strconv.Itoa(id))
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s (densities %v, runs %v):\ngot  %v\nwant %v", q, dens, runs, got, want)
				}
			}
		})
	}
}
