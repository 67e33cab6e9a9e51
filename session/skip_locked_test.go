package session_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestSkipLockedJobQueue runs a job queue as its libraries do (Solid
// Queue, GoodJob, pg-boss, River): workers on sessions of one proxy each
// take the next job with SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1 in a
// block, mark it done and commit, retrying on 40001. Every job must be done
// exactly once, no two workers may hold one job at once, and workers must
// have held different jobs at once (a worker whose SELECT found the
// others' rows left out).
func TestSkipLockedJobQueue(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			eng, setup := newSession(t, be.open(t))
			jobs, workers := 120, 4
			if be.name == "dynamodb" {
				jobs = 30
			}
			mustExec(t, setup, "CREATE TABLE sq_jobs (id int PRIMARY KEY, state text NOT NULL, worker int, runs int NOT NULL DEFAULT 0)")
			mustExec(t, setup, fmt.Sprintf("INSERT INTO sq_jobs (id, state) SELECT i, 'new' FROM generate_series(1, %d) i", jobs))
			ctx := context.Background()
			var wg sync.WaitGroup
			errs := make(chan error, workers)
			var mu sync.Mutex
			retries, overlaps := 0, 0
			// held are the jobs workers hold between their SELECT and
			// their COMMIT (forgotten just before it, so that a job the
			// COMMIT frees is never still listed).
			held := map[string]int{}
			for w := 1; w <= workers; w++ {
				sess := openSession(t, eng)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						mustExec(t, sess, "BEGIN")
						rows, err := runSQL(ctx, sess, "SELECT id FROM sq_jobs WHERE state = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED")
						if pgerr.CodeOf(err) == pgerr.SerializationFailure {
							// DynamoDB: the block's snapshot could no longer
							// be served.
							runSQL(ctx, sess, "ROLLBACK")
							mu.Lock()
							retries++
							mu.Unlock()
							continue
						}
						if err != nil {
							errs <- fmt.Errorf("worker %d: SELECT: %v", w, err)
							return
						}
						if len(rows) == 0 {
							runSQL(ctx, sess, "ROLLBACK")
							// Every job is done, or held by a worker that
							// may yet fail: done only when none is new.
							if n := mustExec(t, sess, "SELECT count(*) FROM sq_jobs WHERE state = 'new'"); n[0] == "0" {
								return
							}
							continue
						}
						mu.Lock()
						if other, ok := held[rows[0]]; ok {
							mu.Unlock()
							errs <- fmt.Errorf("workers %d and %d hold job %s at once", other, w, rows[0])
							return
						}
						if len(held) > 0 {
							overlaps++
						}
						held[rows[0]] = w
						mu.Unlock()
						_, err = runSQL(ctx, sess, fmt.Sprintf("UPDATE sq_jobs SET state = 'done', worker = %d, runs = runs + 1 WHERE id = %s", w, rows[0]))
						mu.Lock()
						delete(held, rows[0])
						mu.Unlock()
						if err == nil {
							_, err = runSQL(ctx, sess, "COMMIT")
						}
						if err != nil {
							runSQL(ctx, sess, "ROLLBACK")
							if pgerr.CodeOf(err) != pgerr.SerializationFailure {
								errs <- fmt.Errorf("worker %d: job %s: %v (%s)", w, rows[0], err, pgerr.CodeOf(err))
								return
							}
							mu.Lock()
							retries++
							mu.Unlock()
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			if got := mustExec(t, setup, "SELECT count(*), sum(runs), min(runs), max(runs) FROM sq_jobs WHERE state = 'done'"); got[0] != strconv.Itoa(jobs)+"|"+strconv.Itoa(jobs)+"|1|1" {
				t.Fatalf("done jobs (count, runs, min, max) = %v, want %d jobs run once each", got, jobs)
			}
			t.Logf("%d jobs, %d workers: %d retried after 40001, %d times a worker took a job while another held one", jobs, workers, retries, overlaps)
			if overlaps == 0 {
				t.Fatalf("no worker ever took a job while another held one")
			}
		})
	}
}
